"""The orjson tier of canonical JSON: taken only where its bytes are RFC 8785's.

Every chain hash is over these bytes, so each tier is checked against the
reference encoder (``rfc8785``) character by character; ``exact_canonical_json``
must also be a faithful JSON text of the value (the audit payload reuses it).
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

import pytest
import rfc8785

from provgraph.audit.canonical import (
    MAX_SAFE_INTEGER,
    _orjson,
    _safe,
    canonical_json,
    exact_canonical_json,
)

BMP = [chr(c) for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF]


def reference(value: Any) -> bytes:
    return bytes(rfc8785.dumps(_safe(value)))


def test_every_bmp_character_as_a_value_is_escaped_as_rfc8785_does() -> None:
    for start in range(0, len(BMP), 512):
        chunk = BMP[start : start + 512]
        value = {"s": chunk, "joined": "".join(chunk)}
        fast = _orjson(value)
        assert fast is not None
        assert fast == reference(value), f"characters {ord(chunk[0]):04x}..{ord(chunk[-1]):04x}"


def test_keys_sort_as_rfc8785_sorts_them_below_u10000() -> None:
    value = {ch: i for i, ch in enumerate(BMP[::7])} | {"": 0, "a\u0000": 1, "\u00e9\u20ac": 2}
    assert _orjson(value) == reference(value)


@pytest.mark.parametrize(
    "value",
    [
        {"f": 1.5},  # orjson's float text is not ECMAScript's: the stdlib tier decides
        {"big": MAX_SAFE_INTEGER + 1},
        {"astral": "\U0001f600"},
        {"\U0001f600": 1, "\ue000": 2},
        {"lone": "\ud800"},
        {1: "non-string key"},
        ["tuple-free", ("a", "b")],
    ],
)
def test_values_outside_the_plain_tier_are_left_to_the_checked_tiers(value: Any) -> None:
    assert _orjson(value) is None


class Colour(StrEnum):
    RED = "red"


@pytest.mark.parametrize(
    "value",
    [
        {"a": [1, -2, MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER, True, False, None, ""]},
        {"nested": {"deep": [{"x": "\n\t\u001f\u007f\u2028"}]}},
        {"f": [0.1, -2.5, 123456789.125], "s": "x"},
        {"enum": Colour.RED, Colour.RED: 1},
    ],
)
def test_exact_bytes_are_rfc8785_and_parse_back_to_the_value(value: Any) -> None:
    exact = exact_canonical_json(value)
    assert exact is not None
    assert exact == canonical_json(value) == reference(value)
    assert json.loads(exact) == json.loads(json.dumps(value))


@pytest.mark.parametrize(
    "value",
    [{"f": 1.0}, {"f": 1e21}, {"f": 1e-7}, {"astral": "\U0001f600", "\U0001f600": 1, "\ue000": 2}],
)
def test_values_only_the_reference_encoder_takes_have_no_exact_bytes(value: Any) -> None:
    assert exact_canonical_json(value) is None
    assert canonical_json(value) == reference(value)


def test_an_integer_beyond_ijson_range_has_no_exact_bytes() -> None:
    value = {"n": 2**64}
    assert exact_canonical_json(value) is None  # hashed as its string: not the value's text
    assert canonical_json(value) == b'{"n":"18446744073709551616"}'


def test_ingest_events_take_the_orjson_tier_with_the_reference_bytes() -> None:
    from provgraph.events import Event

    raw = {
        "id": "e1",
        "type": "tool_call",
        "timestamp": "2026-01-01T00:00:00Z",
        "session_id": "s",
        "node_id": "n",
        "parent_ids": ["p"],
        "content": "caf\u00e9 \u201cquoted\u201d\n",
        "data": {"tool": "search", "k": 3, "flags": [True, None]},
    }
    dumped = Event.model_validate(raw).model_dump(mode="json")
    fast = _orjson(dumped)
    assert fast is not None and fast == reference(dumped)
