"""Ed25519 signatures of audit checkpoints (the optional ``cryptography`` package).

Keys are PEM files (PKCS#8 private, SubjectPublicKeyInfo public); signatures
and public keys travel as hex inside checkpoint headers. Without
``cryptography`` installed, signing is refused with the extra to install, and
signature checks report the missing package instead of passing silently.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from provgraph.errors import ConfigurationError

INSTALL_HINT = "install the 'audit' extra (pip install 'provgraph[audit]') for Ed25519 signing"


def _ed25519() -> Any:
    try:
        from cryptography.hazmat.primitives.asymmetric import ed25519
    except ImportError as exc:
        raise ConfigurationError(f"checkpoint signing needs cryptography: {INSTALL_HINT}") from exc
    return ed25519


class CheckpointSigner:
    """Holds one private key; ``public_hex`` names it inside each signed checkpoint."""

    def __init__(self, private_key: Any) -> None:
        from cryptography.hazmat.primitives import serialization

        self._key = private_key
        raw = private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self.public_hex: str = raw.hex()

    @classmethod
    def from_pem_file(cls, path: Path) -> CheckpointSigner:
        _ed25519()
        from cryptography.hazmat.primitives import serialization

        try:
            key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except (OSError, ValueError, TypeError) as exc:
            raise ConfigurationError(
                f"PROVGRAPH_AUDIT_SIGNING_KEY: no Ed25519 private key in {path}: {exc}"
            ) from exc
        if not isinstance(key, _ed25519().Ed25519PrivateKey):
            raise ConfigurationError(f"{path} holds a {type(key).__name__}, not an Ed25519 key")
        return cls(key)

    def sign(self, message: bytes) -> str:
        return bytes(self._key.sign(message)).hex()


def generate_key_pem() -> tuple[bytes, bytes]:
    """A new key pair as (private PEM, public PEM)."""
    ed25519 = _ed25519()
    from cryptography.hazmat.primitives import serialization

    key = ed25519.Ed25519PrivateKey.generate()
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return private, public


def public_hex_from_pem(data: bytes) -> str:
    """The raw public key (hex) of a PEM public key, for pinning with ``--public-key``."""
    ed25519 = _ed25519()
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_public_key(data)
    if not isinstance(key, ed25519.Ed25519PublicKey):
        raise ConfigurationError("the public key is not an Ed25519 key")
    raw: bytes = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return raw.hex()


def verify_signature(public_hex: str | None, signature_hex: str, message: bytes) -> bool:
    """True when ``signature_hex`` is ``public_hex``'s Ed25519 signature of ``message``."""
    if not public_hex:
        return False
    ed25519 = _ed25519()
    from cryptography.exceptions import InvalidSignature

    try:
        key = ed25519.Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
        key.verify(bytes.fromhex(signature_hex), message)
    except (InvalidSignature, ValueError):
        return False
    return True
