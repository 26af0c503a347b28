"""The embedded store: idempotency, order independence, placeholders, keys, durable log."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provgraph.errors import EventLogCorruptionError
from provgraph.events import Event, parse_events
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.types import (
    AttributionQuery,
    Job,
    JobState,
    LineageDirection,
    StoredReport,
)

DEMO = Path(__file__).parents[2] / "provgraph" / "examples" / "demo_session.jsonl"


def demo_events() -> list[Event]:
    raws = [json.loads(line) for line in DEMO.read_text().splitlines() if line.strip()]
    good, bad = parse_events(raws)
    assert bad == []
    return [e for _, e in good]


def snapshot(store: MemoryGraphStore, project: str = "p") -> dict[str, object]:
    graph = store.session_graph(project, "demo-session-1")
    attribution = store.attribution(project, AttributionQuery("coord-output"))
    lineage = store.lineage(project, "res-read-1", direction=LineageDirection.DOWN, depth=10)
    return {
        "nodes": {
            k: (v.type, v.label, v.content, v.citation_key, v.data, v.timestamp)
            for k, v in graph.nodes.items()
        },
        "edges": sorted((e.source_id, e.target_id, e.label) for e in graph.edges),
        "paths": attribution.paths,
        "lineage": sorted(lineage.distances.items()),
        "keys": [
            (e.key, e.node.id, e.cited_in)
            for e in store.citation_summary(project, "demo-session-1")
        ],
    }


def test_same_event_twice_changes_nothing() -> None:
    store = MemoryGraphStore()
    events = demo_events()
    first = store.ingest("p", events)
    before = snapshot(store)
    again = store.ingest("p", events)
    assert len(first.accepted) == len(events)
    assert again.accepted == () and len(again.duplicates) == len(events)
    assert snapshot(store) == before


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.permutations(list(range(31))))
def test_any_permutation_yields_the_same_graph(order: list[int]) -> None:
    events = demo_events()
    reference = MemoryGraphStore()
    reference.ingest("p", events)
    shuffled = MemoryGraphStore()
    shuffled.ingest("p", [events[i] for i in order])
    assert snapshot(shuffled) == snapshot(reference)


def test_parent_arriving_late_is_a_placeholder_first() -> None:
    store = MemoryGraphStore()
    events = {e.node_id: e for e in demo_events()}
    store.ingest("p", [events["coord-req-1"]])
    placeholder = store.get_node("p", "coord-input")
    assert placeholder is not None and placeholder.is_placeholder
    store.ingest("p", [events["coord-input"]])
    filled = store.get_node("p", "coord-input")
    assert filled is not None and not filled.is_placeholder
    assert filled.content and "Northwind" in filled.content


def test_conflicting_citation_key_rejected_rest_applied() -> None:
    store = MemoryGraphStore()
    base = {"type": "data_read", "timestamp": "2026-01-01T00:00:00Z", "session_id": "s"}
    good, _ = parse_events(
        [
            {**base, "id": "e1", "node_id": "a", "citation_key": "d_1"},
            {**base, "id": "e2", "node_id": "b", "citation_key": "d_1"},
            {**base, "id": "e3", "node_id": "c", "citation_key": "d_2"},
        ]
    )
    result = store.ingest("p", [e for _, e in good])
    assert result.accepted == ("e1", "e3")
    assert [(r.event_id, r.path) for r in result.rejected] == [("e2", "citation_key")]
    assert "already names node 'a'" in result.rejected[0].reason
    resolved = store.resolve_citation_key("p", "s", "d_1")
    assert resolved is not None and resolved.id == "a"


def test_projects_are_isolated() -> None:
    store = MemoryGraphStore()
    store.ingest("p", demo_events())
    assert store.get_node("other", "coord-output") is None
    assert store.session_graph("other", "demo-session-1").nodes == {}
    assert store.list_sessions("other").items == ()


def test_log_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    store = MemoryGraphStore(path)
    store.ingest("p", demo_events())
    before = snapshot(store)
    store.close()
    reopened = MemoryGraphStore(path)
    assert reopened.recovery is None
    assert snapshot(reopened) == before


def test_a_completed_job_is_one_log_line_with_its_report(tmp_path: Path) -> None:
    """``complete_job`` writes the report and the job's final state in one line, so a
    torn write loses both (the job reruns) and a reopened store has both."""
    path = tmp_path / "events.jsonl"
    store = MemoryGraphStore(path)
    store.ingest("p", demo_events())
    now = datetime.now(UTC)
    job = Job("j", "coord-output", "cfg", JobState.DONE, now, now, attempts=1)
    report = StoredReport("coord-output", "demo-session-1", "cfg", {"checks": []}, now)
    lines = len(path.read_text().splitlines())
    stored, done = store.complete_job("p", report, job)
    store.close()
    assert len(path.read_text().splitlines()) == lines + 1
    reopened = MemoryGraphStore(path)
    assert reopened.get_job("p", "j") == done and done.report_version == stored.version == 1
    assert reopened.get_report("p", "coord-output") == stored
    reopened.close()
    with path.open("r+b") as log:  # tear the last line: neither the report nor the job
        log.truncate(os.path.getsize(path) - 5)
    torn = MemoryGraphStore(path)
    assert torn.recovery is not None
    assert torn.get_job("p", "j") is None and torn.get_report("p", "coord-output") is None


def _batches_log(tmp_path: Path) -> tuple[Path, list[int]]:
    """Write the demo as several batches; return the log and each batch's end offset."""
    path = tmp_path / "events.jsonl"
    path.unlink(missing_ok=True)  # hypothesis reuses tmp_path across examples
    store = MemoryGraphStore(path)
    events = demo_events()
    ends = []
    for start in range(0, len(events), 7):
        store.ingest("p", events[start : start + 7])
        ends.append(os.path.getsize(path))
    store.close()
    return path, ends


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_truncation_at_any_offset_keeps_every_complete_batch(
    tmp_path: Path, data: st.DataObject
) -> None:
    path, ends = _batches_log(tmp_path)
    full = path.read_bytes()
    cut = data.draw(st.integers(min_value=0, max_value=len(full)))
    path.write_bytes(full[:cut])
    store = MemoryGraphStore(path)
    complete = sum(1 for end in ends if end <= cut)
    expected_events = min(len(demo_events()), complete * 7)
    graph_nodes = [
        n for n in store.session_graph("p", "demo-session-1").nodes.values() if not n.is_placeholder
    ]
    assert len(graph_nodes) == expected_events
    torn = cut not in (0, *ends)
    assert (store.recovery is not None) == torn
    if torn:
        assert os.path.getsize(path) == max([0, *[e for e in ends if e <= cut]])
    store.close()


def test_damage_in_the_middle_raises(tmp_path: Path) -> None:
    path, ends = _batches_log(tmp_path)
    raw = bytearray(path.read_bytes())
    raw[ends[0]] = ord("#")
    path.write_bytes(bytes(raw))
    with pytest.raises(EventLogCorruptionError, match="line 2"):
        MemoryGraphStore(path)
