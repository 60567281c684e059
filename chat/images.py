"""Meal photos: checked, re-encoded without metadata, size-capped, stored per user.

Whatever arrives (browser upload, API multipart, base64 from a client) goes through
`prepare_image`, which either returns a clean JPEG or raises ImageRejected with a reason a person
can act on. Nothing from the original file except its pixels survives (no EXIF, no GPS).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import io
import re
import uuid
import warnings
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from PIL import Image, ImageOps, UnidentifiedImageError

ALLOWED_FORMATS = {"JPEG", "PNG", "WEBP", "GIF", "BMP", "MPO"}
IMAGE_EXTENSIONS = {".jpg", ".jpeg", ".jfif", ".png", ".webp", ".gif", ".bmp", ".heic", ".heif"}
MAX_SIDE = 12_000  # pixels of the original, each side
# Refused from the header, before a pixel is decoded (a 40 MP RGB photo is 120 MB decoded).
MAX_PIXELS = 40_000_000
SEND_SIDE = 1568  # what a vision model gets; more only costs tokens


class ImageRejected(ValueError):
    pass


@dataclasses.dataclass(frozen=True)
class StoredImage:
    name: str  # relative to MEDIA_ROOT
    width: int
    height: int
    size: int

    @property
    def path(self) -> Path:
        return Path(settings.MEDIA_ROOT) / self.name

    def data_url(self) -> str:
        return "data:image/jpeg;base64," + base64.b64encode(self.path.read_bytes()).decode()

    def as_metadata(self) -> dict:
        return {"name": self.name, "width": self.width, "height": self.height, "size": self.size}

    @classmethod
    def from_metadata(cls, data: dict) -> StoredImage:
        return cls(name=data["name"], width=data["width"], height=data["height"], size=data["size"])


def _read(upload) -> tuple[bytes, str]:
    if isinstance(upload, bytes | bytearray):
        return bytes(upload), ""
    name = getattr(upload, "name", "") or ""
    size = getattr(upload, "size", None)
    if size is not None and size > settings.SPARKY_MAX_IMAGE_BYTES:
        raise ImageRejected(_too_big(size))
    data = upload.read(settings.SPARKY_MAX_IMAGE_BYTES + 1)
    return data, name


def image_digest(upload) -> str:
    """The sha256 of a photo as sent (an upload is read, then rewound for prepare_image)."""
    if isinstance(upload, bytes | bytearray):
        return hashlib.sha256(upload).hexdigest()
    data = upload.read(settings.SPARKY_MAX_IMAGE_BYTES + 1)
    upload.seek(0)
    return hashlib.sha256(data).hexdigest()


def _too_big(size: int) -> str:
    limit = settings.SPARKY_MAX_IMAGE_BYTES / 1024 / 1024
    return f"The photo is {size / 1024 / 1024:.1f} MB; the limit is {limit:.0f} MB."


def decode_data_url(value: str) -> bytes:
    """Bytes of a `data:image/...;base64,...` string or plain base64 (API clients send both)."""
    text = value.strip()
    if text.startswith("data:"):
        header, _, text = text.partition(",")
        if ";base64" not in header:
            raise ImageRejected("The image must be base64 encoded.")
    try:
        return base64.b64decode(text, validate=True)
    except (ValueError, TypeError):
        raise ImageRejected("The image is not valid base64.") from None


def prepare_image(upload, *, user) -> StoredImage:
    data, name = _read(upload)
    if not data:
        raise ImageRejected("The photo is empty.")
    if len(data) > settings.SPARKY_MAX_IMAGE_BYTES:
        raise ImageRejected(_too_big(len(data)))
    suffix = Path(name).suffix.lower()
    if name and suffix not in IMAGE_EXTENSIONS:
        raise ImageRejected(
            f"{name} is not a photo (JPEG, PNG, WebP or GIF). Attach an image file instead."
        )
    if suffix in (".heic", ".heif"):
        raise ImageRejected("HEIC photos are not supported yet; share it as JPEG instead.")
    image = _open_checked(data)
    image = ImageOps.exif_transpose(image)  # keep the photo upright once EXIF is gone
    if image.mode not in ("RGB", "L"):
        background = Image.new("RGB", image.size, "white")
        rgba = image.convert("RGBA")
        background.paste(rgba, mask=rgba.getchannel("A"))
        image = background
    image = image.convert("RGB")
    image.thumbnail((SEND_SIDE, SEND_SIDE))
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=85, optimize=True)  # no exif= argument: none kept
    rel = f"chat/{user.pk}/{uuid.uuid4().hex}.jpg"
    path = Path(settings.MEDIA_ROOT) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(out.getvalue())
    return StoredImage(name=rel, width=image.width, height=image.height, size=out.tell())


def _open_checked(data: bytes) -> Image.Image:
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            probe = Image.open(io.BytesIO(data))
            fmt = probe.format
            width, height = probe.size
            if fmt not in ALLOWED_FORMATS:
                raise ImageRejected(
                    f"{fmt or 'This'} images are not supported; use JPEG, PNG, WebP or GIF."
                )
            if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
                raise ImageRejected(
                    f"The photo is {width} x {height} pixels; the limit is {MAX_SIDE} pixels a "
                    f"side and {MAX_PIXELS // 1_000_000} megapixels."
                )
            probe.verify()  # structure check; the image must be reopened after verify()
            image = Image.open(io.BytesIO(data))
            image.load()  # decodes every pixel: a truncated file fails here
        except ImageRejected:
            raise
        except (Image.DecompressionBombWarning, Image.DecompressionBombError):
            raise ImageRejected("The photo is too large to open safely.") from None
        except UnidentifiedImageError:
            raise ImageRejected("That file is not an image Sparky can read.") from None
        except (OSError, SyntaxError, ValueError):
            raise ImageRejected(
                "The photo is damaged or incomplete; try taking or exporting it again."
            ) from None
    if getattr(image, "n_frames", 1) > 1:
        image.seek(0)
    return image


STORED_NAME = re.compile(r"^[0-9a-f]{32}\.jpg$")


def image_url(name) -> str | None:
    """The authenticated URL of a stored photo ("chat/<user id>/<hex>.jpg"), else None."""
    parts = str(name or "").split("/")
    if len(parts) != 3 or parts[0] != "chat" or not STORED_NAME.match(parts[2]):
        return None
    try:
        owner = uuid.UUID(parts[1])
    except ValueError:
        return None
    return reverse("chat:image", kwargs={"user_id": owner, "filename": parts[2]})
