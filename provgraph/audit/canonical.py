"""Canonical JSON (RFC 8785, JCS) and SHA-256 digests of JSON values.

Every hash in the audit chain is ``sha256(canonical_json(value))``. RFC 8785
fixes key order (UTF-16 code units), number formatting (ECMAScript) and string
escaping, so any implementation in any language recomputes the same bytes.
The ``rfc8785`` package implements it; the one adaptation is for I-JSON's
integer range: an integer outside ±(2^53 − 1), which RFC 8785 refuses, is
hashed as its decimal string, so a large number in an event's ``data`` never
makes an ingest fail (documented in docs/audit.md).
"""

from __future__ import annotations

import hashlib
from typing import Any

import rfc8785

MAX_SAFE_INTEGER = 2**53 - 1


def _safe(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER else str(value)
    if isinstance(value, dict):
        return {str(k): _safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_safe(v) for v in value]
    return value


def canonical_json(value: Any) -> bytes:
    """The RFC 8785 serialisation of a JSON value (dicts, lists, str, numbers, bool, None)."""
    return rfc8785.dumps(_safe(value))


def digest(value: Any) -> str:
    """Lower-case hex SHA-256 of the canonical JSON of ``value``."""
    return hashlib.sha256(canonical_json(value)).hexdigest()


def text_digest(text: str) -> str:
    """SHA-256 of a UTF-8 string (ids in tombstones: the id itself is never kept)."""
    return hashlib.sha256(text.encode()).hexdigest()
