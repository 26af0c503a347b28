"""Merkle root over a range of chain entries (RFC 6962 tree hashing).

A checkpoint stores the root over its entries' hashes, so a range can be
checked against one signed value: leaves are ``SHA-256(0x00 || hash)``, inner
nodes ``SHA-256(0x01 || left || right)`` (the domain bytes keep a leaf from
passing for an inner node), split at the largest power of two below ``n``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


def _leaf(entry_hash: str) -> bytes:
    return hashlib.sha256(b"\x00" + bytes.fromhex(entry_hash)).digest()


def _root(leaves: Sequence[bytes]) -> bytes:
    if len(leaves) == 1:
        return leaves[0]
    split = 1
    while split * 2 < len(leaves):
        split *= 2
    return hashlib.sha256(b"\x01" + _root(leaves[:split]) + _root(leaves[split:])).digest()


def merkle_root(entry_hashes: Sequence[str]) -> str:
    """Hex root over hex entry hashes, in order; ValueError for an empty range."""
    if not entry_hashes:
        raise ValueError("a Merkle root needs at least one entry")
    return _root([_leaf(h) for h in entry_hashes]).hex()
