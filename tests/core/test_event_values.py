"""Event validation refuses what a JSON consumer or the store could not take, naming where."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from provgraph.events import Event, parse_events
from provgraph.json_values import MAX_DEPTH, OversizedInt, json_value_problem


def _raw(**overrides: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "id": "e1",
        "type": "data_read",
        "timestamp": "2026-01-01T00:00:00Z",
        "session_id": "s1",
        "node_id": "n1",
    }
    raw.update(overrides)
    return raw


def _deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("data", "path", "words"),
    [
        ({"a": float("nan")}, "data.a", "NaN"),
        ({"a": [1, {"b": float("inf")}]}, "data.a[1].b", "Infinity"),
        ({"a": -float("inf")}, "data.a", "-Infinity"),
        ({"n": OversizedInt(4301)}, "data.n", "4301 digits"),
        ({"n": 10**4001}, "data.n", "digits"),
        ({"s": "R-\udc00"}, "data.s", "surrogate"),
        ({"k": {"bad\ud800key": 1}}, "data.k", "key"),
        ({"deep": _deep(MAX_DEPTH + 5)}, "data.deep" + "[0]" * (MAX_DEPTH - 1), "deeper"),
    ],
)
def test_data_values_rejected_with_their_path(data: dict[str, Any], path: str, words: str) -> None:
    good, bad = parse_events([_raw(data=data)])
    assert good == []
    assert bad[0].path == path
    assert words in bad[0].reason


def test_data_at_the_limits_is_accepted() -> None:
    good, bad = parse_events(
        [_raw(data={"n": 10**3999, "x": 1.5e308, "deep": _deep(MAX_DEPTH - 2), "u": "é😀"})]
    )
    assert bad == [] and len(good) == 1


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (1700000000, "seconds since 1970"),
        (1700000000.5, "seconds since 1970"),
        ("1700000000", "RFC 3339"),
        (True, "boolean"),
        ("2026-01-01", "RFC 3339"),
        ("2026-01-01T00:00:00", "RFC 3339"),
    ],
)
def test_timestamp_must_be_rfc3339_text_with_offset(value: Any, words: str) -> None:
    _, bad = parse_events([_raw(timestamp=value)])
    assert bad[0].path == "timestamp"
    assert words in bad[0].reason


@pytest.mark.parametrize(
    "value", ["2026-01-01T00:00:00Z", "2026-01-01T09:00:00.123456+09:00", "2026-01-01 00:00:00z"]
)
def test_rfc3339_timestamps_accepted(value: str) -> None:
    good, bad = parse_events([_raw(timestamp=value)])
    assert bad == [] and good[0][1].timestamp.utcoffset() is not None


def test_python_callers_may_still_pass_datetimes() -> None:
    event = Event.model_validate(_raw(timestamp=datetime(2026, 1, 1, tzinfo=UTC)))
    assert event.timestamp.year == 2026


@pytest.mark.parametrize("key", ["zz", "d_", "x_1", "d_01", "D_1", "d_1 ", "a_-1"])
def test_citation_key_follows_the_documented_grammar(key: str) -> None:
    _, bad = parse_events([_raw(citation_key=key)])
    assert bad[0].path == "citation_key"
    assert "d_N" in bad[0].reason


@pytest.mark.parametrize("key", ["d_1", "a_2", "d_0", "a_123456"])
def test_documented_citation_keys_accepted(key: str) -> None:
    good, bad = parse_events([_raw(citation_key=key)])
    assert bad == [] and good[0][1].citation_key == key


@pytest.mark.parametrize(
    ("field", "value", "path"),
    [
        ("id", "R-\udc00", "id"),
        ("node_id", "n\ud800", "node_id"),
        ("content", "text \udfff end", "content"),
        ("parent_ids", ["p\udc00"], "parent_ids"),
        ("edges", [{"source_id": "s\udc00", "label": "calls"}], "edges[0].source_id"),
    ],
)
def test_lone_surrogates_rejected_and_the_echoed_id_is_printable(
    field: str, value: Any, path: str
) -> None:
    _, bad = parse_events([_raw(**{field: value})])
    assert bad[0].path == path
    assert "surrogate" in bad[0].reason
    assert bad[0].event_id is not None
    bad[0].event_id.encode("utf-8")  # an error response can always carry it


def test_self_parent_rejected_in_parent_ids_and_edges() -> None:
    _, bad = parse_events(
        [_raw(parent_ids=["n1"]), _raw(id="e2", edges=[{"source_id": "n1", "label": "calls"}])]
    )
    assert [b.index for b in bad] == [0, 1]
    assert all("own parent" in b.reason for b in bad)


def test_checker_never_recurses() -> None:
    assert json_value_problem(_deep(100_000), "data") is not None
