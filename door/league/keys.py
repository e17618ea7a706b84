"""A board's league key pair: Ed25519 (``cryptography``, already installed with asyncssh).

The private key lives in the data folder as ``league.key`` (PEM, readable by the sysop's user
only), made on first use; the public key travels as 44 characters of base64 (the raw 32
bytes), which is what a sysop pastes to another board and what ``reussite league show``
prints.  Ed25519 because its signatures are small (64 bytes), fast to check (~0.1 ms) and
deterministic: signing the same result twice gives the same bytes.
"""

from __future__ import annotations

import base64
import binascii
import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from ..logs.private import make_private_dir, open_private

KEY_FILE = "league.key"
PUBLIC_KEY_CHARS = 44  # base64 of 32 bytes
SIGNATURE_CHARS = 88  # base64 of 64 bytes


class BadKey(ValueError):
    """A key file or a public key that cannot be used (one line for the sysop)."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: str, size: int, what: str) -> bytes:
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise BadKey(f"{what} is not base64") from None
    if len(raw) != size:
        raise BadKey(f"{what} has {len(raw)} bytes, expected {size}")
    return raw


class BoardKey:
    """This board's signing key."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        raw = private.public_key().public_bytes(serialization.Encoding.Raw,
                                                serialization.PublicFormat.Raw)
        self.public = _b64(raw)

    @classmethod
    def generate(cls) -> BoardKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def load_or_create(cls, data_dir: Path) -> BoardKey:
        """The key in ``data_dir/league.key``, made (0600) if there is none yet."""
        path = data_dir / KEY_FILE
        if path.exists():
            return cls.load(path)
        make_private_dir(data_dir)
        key = cls.generate()
        pem = key._private.private_bytes(serialization.Encoding.PEM,
                                         serialization.PrivateFormat.PKCS8,
                                         serialization.NoEncryption())
        try:
            with open(path, "xb", opener=open_private) as out:
                out.write(pem)
        except FileExistsError:  # another process made it first: theirs is the key
            return cls.load(path)
        return key

    @classmethod
    def load(cls, path: Path) -> BoardKey:
        try:
            private = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except (OSError, ValueError, TypeError) as exc:
            raise BadKey(f"{path}: cannot read the league key ({exc})") from None
        if not isinstance(private, Ed25519PrivateKey):
            raise BadKey(f"{path}: not an Ed25519 key")
        return cls(private)

    def sign(self, data: bytes) -> str:
        return _b64(self._private.sign(data))


def parse_public_key(text: str) -> str:
    """A public key as a sysop or a peer gives it: 44 base64 characters, checked."""
    text = text.strip()
    raw = _unb64(text, 32, "the public key")
    Ed25519PublicKey.from_public_bytes(raw)
    return text


def signature_valid(public: str, data: bytes, signature: str) -> bool:
    """Whether ``signature`` (base64) is ``public``'s (base64) signature of ``data``."""
    try:
        key = Ed25519PublicKey.from_public_bytes(_unb64(public, 32, "the public key"))
        key.verify(_unb64(signature, 64, "the signature"), data)
    except (BadKey, InvalidSignature, ValueError):
        return False
    return True


def key_file_mode_ok(data_dir: Path) -> bool:
    """False when the key file exists and others may read it (``reussite sysop`` warns)."""
    path = data_dir / KEY_FILE
    try:
        return not (os.stat(path).st_mode & 0o077)
    except OSError:
        return True
