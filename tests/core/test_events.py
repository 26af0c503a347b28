"""Native event v1 validation: the first error names the field path and the reason."""

from __future__ import annotations

from typing import Any

import pytest

from provgraph.events import MAX_DATA_BYTES, Event, EventError, event_json_schema, parse_events
from provgraph.mapping import EDGE_LABEL_BY_CHILD_TYPE, map_event


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


@pytest.mark.parametrize(
    ("overrides", "path"),
    [
        ({"type": "bogus"}, "type"),
        ({"timestamp": "2026-01-01T00:00:00"}, "timestamp"),
        ({"timestamp": "yesterday"}, "timestamp"),
        ({"node_id": ""}, "node_id"),
        ({"citation_key": "d-1"}, "citation_key"),
        ({"edges": [{"source_id": "x", "label": "likes"}]}, "edges[0].label"),
        ({"parent_ids": ["ok", ""]}, "parent_ids"),
        ({"unknown_field": 1}, "unknown_field"),
        ({"data": {"blob": "x" * (MAX_DATA_BYTES + 1)}}, "data"),
    ],
)
def test_bad_event_reports_path(overrides: dict[str, Any], path: str) -> None:
    good, bad = parse_events([_raw(**overrides)])
    assert good == []
    assert len(bad) == 1
    assert bad[0].path == path
    assert bad[0].event_id == "e1"
    assert bad[0].reason


def test_own_parent_rejected() -> None:
    _, bad = parse_events([_raw(parent_ids=["n1"])])
    assert "own parent" in bad[0].reason


def test_bad_events_do_not_affect_others() -> None:
    good, bad = parse_events(
        [_raw(id="a"), "not an object", _raw(id="c", type="nope"), _raw(id="d")]
    )
    assert [i for i, _ in good] == [0, 3]
    assert [(e.index, e.event_id) for e in bad] == [(1, None), (2, "c")]
    assert isinstance(bad[0], EventError)


def test_edge_label_inferred_from_child_type() -> None:
    for node_type, label in EDGE_LABEL_BY_CHILD_TYPE.items():
        event = Event.model_validate(_raw(type=node_type.value, parent_ids=["p"]))
        write = map_event(event)
        assert [(e.source_id, e.label) for e in write.edges] == [("p", label)]


def test_citations_in_outputs_are_extracted() -> None:
    event = Event.model_validate(_raw(type="final_output", content="x [REF|d_1|a_2] y [REF|d_1]"))
    assert [u.key for u in map_event(event).citations] == ["d_1", "a_2"]
    tool = Event.model_validate(_raw(type="tool_result", content="[REF|d_1]\nbody"))
    assert map_event(tool).citations == ()


def test_json_schema_exports() -> None:
    schema = event_json_schema()
    assert schema["title"] == "provgraph event v1"
    assert set(schema["required"]) >= {"id", "type", "timestamp", "session_id", "node_id"}


@pytest.mark.parametrize("stamp", ["0999-12-31T23:00:00Z", "0001-01-01T00:00:00+00:00"])
def test_timestamp_outside_four_digit_years_rejected(stamp: str) -> None:
    _, bad = parse_events([_raw(timestamp=stamp)])
    assert bad[0].path == "timestamp" and "outside 1000-9999" in bad[0].reason
