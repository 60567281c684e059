"""Secrets at rest: AI service API keys are Fernet tokens under keys from the environment.

SPARKY_ENCRYPTION_KEYS holds one or more Fernet keys, newest first; the first encrypts, all of them
decrypt, so a key can be rotated without downtime (see the README). In DEBUG with no key set, one
is derived from SECRET_KEY so a fresh clone works; production refuses to start without a key.
"""

import base64
import functools

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings


class SecretError(Exception):
    """A stored secret can no longer be decrypted (its key was removed)."""


def _derived_key() -> bytes:
    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"sparky-api-keys", info=b"fernet")
    return base64.urlsafe_b64encode(hkdf.derive(settings.SECRET_KEY.encode()))


@functools.cache
def _fernet(keys: tuple[str, ...]) -> MultiFernet:
    raw = [k.encode() for k in keys] or [_derived_key()]
    return MultiFernet([Fernet(k) for k in raw])


def _current() -> MultiFernet:
    return _fernet(tuple(settings.SPARKY_ENCRYPTION_KEYS))


def encrypt_secret(plain: str) -> str:
    return _current().encrypt(plain.encode()).decode()


def decrypt_secret(token: str, *, ttl: int | None = None) -> str:
    """The plain secret; with `ttl`, only from a token made in the last `ttl` seconds."""
    if not token:
        return ""
    try:
        return _current().decrypt(token.encode(), ttl=ttl).decode()
    except InvalidToken:
        raise SecretError(
            "The stored API key cannot be decrypted with the configured keys."
        ) from None


def rotate_secret(token: str) -> str:
    """Re-encrypt a token under the newest key."""
    return _current().rotate(token.encode()).decode()
