"""Import files as a stranger writes them, through POST /api/imports/ and the settings page: every
one gets a 400 naming what is wrong (the file, the line, the column), never a 500, and nothing is
stored. An upload over the limit is refused as it streams in, not after it was read whole."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.test.client import ClientHandler, RequestFactory

from diary.imports.jobs import MAX_BYTES
from diary.models import ImportJob
from nutrition.models import FoodEntry
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db

FILES = Path(__file__).resolve().parents[1] / "diary" / "files"
CRONOMETER = (FILES / "cronometer-servings.csv").read_text()


def bundle(files) -> bytes:
    return json.dumps({"format": "sparky-import-bundle", "files": files}).encode()


def zipped(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def deep_export(levels: int) -> bytes:
    return (
        '{"format": "sparky-export", "version": 1, "food_entries": '
        + "[" * levels
        + "]" * levels
        + "}"
    ).encode()


def flipped(data: bytes) -> bytes:
    """A zip whose first member's compressed data has one byte changed."""
    at = 30 + len("food_entries.csv") + 5  # inside the first member's data
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]


def lying(data: bytes, name: str) -> bytes:
    """A zip whose member says (in both of its headers) it holds 10 bytes fewer than it does."""
    archive = bytearray(data)
    for signature, size_at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = archive.find(signature + b"")
        while start >= 0:
            size = int.from_bytes(archive[start + size_at : start + size_at + 4], "little")
            archive[start + size_at : start + size_at + 4] = (size - 10).to_bytes(4, "little")
            start = archive.find(signature, start + 4)
    return bytes(archive)


NUL_ROW = CRONOMETER.replace("Oatmeal", "Oat\x00meal", 1)
HOSTILE = {
    "nul in a csv cell": (
        "servings.csv",
        NUL_ROW.encode(),
        "control_character",
        "line 2, column Food Name: holds a zero byte",
    ),
    "a bundle of no files": ("b.json", bundle([]), "bad_bundle", '"files" is list'),
    "a bundle whose files are a number": ("b.json", bundle(5), "bad_bundle", '"files" is int'),
    "a bundle without files": (
        "b.json",
        b'{"format": "sparky-import-bundle"}',
        "bad_bundle",
        '"files" is missing',
    ),
    "a bundle file whose text is a number": (
        "b.json",
        bundle([{"name": "x.csv", "text": 5}]),
        "bad_bundle",
        "File 1 of the bundle",
    ),
    "a bundle inside a bundle": (
        "b.json",
        bundle([{"name": "inner.json", "text": bundle([]).decode()}]),
        "bad_bundle",
        "a bundle inside a bundle",
    ),
    "an export nested 50,000 deep": (
        "export.json",
        deep_export(50_000),
        "too_deep",
        "more than 32 levels deep",
    ),
    "an export nested 50,000 deep in a zip": (
        "export.zip",
        zipped({"export.json": deep_export(50_000)}),
        "too_deep",
        "export.json nests its JSON",
    ),
    "a zip with a flipped byte": (
        "export.zip",
        flipped(zipped({"food_entries.csv": CRONOMETER.encode() * 20})),
        "damaged_zip",
        "food_entries.csv cannot be unpacked",
    ),
    "a zip whose member lies about its size": (
        "export.zip",
        lying(zipped({"servings.csv": CRONOMETER.encode()}), "servings.csv"),
        "damaged_zip",
        "The zip is damaged: servings.csv",
    ),
    "a zip of too many files": (
        "export.zip",
        zipped({f"s{n}.csv": CRONOMETER.encode() for n in range(60)}),
        "too_many_files",
        "at most 50",
    ),
    "a zip that is no zip past its first bytes": (
        "export.zip",
        b"PK\x03\x04" + b"\x00" * 200 + b"PK\x05\x06" + b"\x00" * 18,
        None,
        "",
    ),
    "a cell of a million characters": (
        "servings.csv",
        (CRONOMETER + '2026-11-03,08:00,Breakfast,"' + "x" * 1_000_000 + '",1 cup,,1\n').encode(),
        None,
        "",
    ),
    "a number of a billion digits": (
        "export.json",
        json.dumps(
            {
                "format": "sparky-export",
                "water": [{"id": "w1", "entry_date": "2026-11-02", "glasses": "1e999999999"}],
            }
        ).encode(),
        None,
        "",
    ),
    "an escaped zero byte in an export's name": (
        "export.json",
        json.dumps(
            {
                "format": "sparky-export",
                "custom_foods": [{"id": "f1", "name": "Pie\u0000", "calories": 100}],
            }
        ).encode(),
        None,
        "",
    ),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_import_is_a_400_saying_what_is_wrong_and_stores_nothing(alice, case):
    name, content, code, said = HOSTILE[case]

    response = client_for(alice).post("/api/imports/", {"file": SimpleUploadedFile(name, content)})

    assert response.status_code in (400, 201), response.content
    body = response.json()
    if response.status_code == 201:  # read, with the bad rows refused by name
        assert body["preview"]["error_count"] >= 1
        assert all(e["text"] for e in body["preview"]["errors"])
        confirm = client_for(alice).post(f"/api/imports/{body['id']}/confirm/")
        assert confirm.status_code == 400
        assert confirm.json()["error"] == "rows_with_errors"
    else:
        assert "Traceback" not in body["detail"] and "Error(" not in body["detail"]
        if code:
            assert (body["error"], said in body["detail"]) == (code, True), body
        assert not ImportJob.objects.for_user(alice).exists()
    assert not FoodEntry.objects.for_user(alice).exists()


def test_a_hostile_import_on_the_settings_page_is_a_message_not_a_500(alice):
    page = Client()
    page.force_login(alice)
    for case, (name, content, _code, said) in HOSTILE.items():
        response = page.post(
            "/settings/data/import/", {"file": SimpleUploadedFile(name, content)}, follow=True
        )
        assert response.status_code == 200, case
        if said:
            assert said.replace('"', "&quot;") in response.content.decode(), case


class _Endless(io.RawIOBase):
    """A multipart body of one file of `size` bytes, made as it is read, counting what was."""

    BOUNDARY = "sparkyboundary"

    def __init__(self, size: int):
        self.head = (
            f'--{self.BOUNDARY}\r\nContent-Disposition: form-data; name="file"; '
            'filename="huge.csv"\r\nContent-Type: text/csv\r\n\r\n'
        ).encode()
        self.tail = f"\r\n--{self.BOUNDARY}--\r\n".encode()
        self.size = size
        self.length = len(self.head) + size + len(self.tail)
        self.sent = 0

    def read(self, n=-1):
        n = self.length - self.sent if n is None or n < 0 else min(n, self.length - self.sent)
        out = bytearray()
        while len(out) < n:
            at = self.sent + len(out)
            if at < len(self.head):
                out += self.head[at : at + n - len(out)]
            elif at < len(self.head) + self.size:
                out += b"a" * min(n - len(out), len(self.head) + self.size - at)
            else:
                t = at - len(self.head) - self.size
                out += self.tail[t : t + n - len(out)]
        self.sent += len(out)
        return bytes(out)

    def readline(self, size=-1):
        return self.read(size if size and size > 0 else 65536)


def test_an_upload_of_60_mb_is_refused_after_reading_little_more_than_the_limit(alice):
    body = _Endless(60 * 1024 * 1024)
    environ = RequestFactory()._base_environ(
        PATH_INFO="/api/imports/",
        REQUEST_METHOD="POST",
        CONTENT_TYPE=f"multipart/form-data; boundary={_Endless.BOUNDARY}",
        CONTENT_LENGTH=str(body.length),
        HTTP_AUTHORIZATION=f"Token {client_for(alice)._credentials['HTTP_AUTHORIZATION'][6:]}",
    )
    environ["wsgi.input"] = body

    response = ClientHandler(enforce_csrf_checks=False)(environ)

    assert response.status_code == 400
    answer = json.loads(response.content)
    assert answer["error"] == "file_too_large"
    assert "huge.csv is larger than 10 MB" in answer["detail"]
    assert body.sent < MAX_BYTES + 1024 * 1024  # read up to the limit, then no further
    assert not ImportJob.objects.for_user(alice).exists()
