"""Contract: the console's session filters (time range, text, verdict) agree across adapters."""

from __future__ import annotations

from datetime import UTC, datetime

from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import GraphStore
from provgraph.store.types import SessionFilter, StoredReport

from ._story import retarget, story_events

EVENTS = story_events()


def _report(
    output_id: str, session_id: str, version_hash: str, verdicts: tuple[str, ...]
) -> StoredReport:
    return StoredReport(
        output_id=output_id,
        session_id=session_id,
        config_hash=version_hash,
        report={"checks": [], "citations_checked": len(verdicts)},
        created_at=datetime(2026, 3, 15, tzinfo=UTC),
        verdicts=verdicts,
    )


def _load(store: GraphStore, project: str) -> MemoryGraphStore:
    """Three copies of the story (-0 full, -1 and -2 cut short), reports on -0 and -1."""
    memory = MemoryGraphStore()
    for n, cut in enumerate((len(EVENTS), 6, 12)):
        moved = retarget(EVENTS[:cut], f"-{n}")
        store.ingest(project, moved)
        memory.ingest("p", moved)
    final = next(e for e in EVENTS if e.node_id == "coord.final")
    session = EVENTS[0].session_id
    # -0: contradicted in the newest version; -1: contradicted once, supported since
    saves = [
        (f"{final.node_id}-0", f"{session}-0", "cfg-a", ("supported",)),
        (f"{final.node_id}-0", f"{session}-0", "cfg-b", ("supported", "contradicted")),
        (f"{final.node_id}-1", f"{session}-1", "cfg-a", ("contradicted",)),
        (f"{final.node_id}-1", f"{session}-1", "cfg-b", ("supported",)),
    ]
    for output_id, session_id, cfg, verdicts in saves:
        store.save_report(project, _report(output_id, session_id, cfg, verdicts))
        memory.save_report("p", _report(output_id, session_id, cfg, verdicts))
    return memory


def _ids(store: GraphStore, project: str, wanted: SessionFilter) -> list[str]:
    return [s.id for s in store.list_sessions(project, first=50, filter=wanted).items]


def test_console_filters_match_the_reference_and_mean_what_they_say(
    store: GraphStore, project: str
) -> None:
    memory = _load(store, project)
    session = EVENTS[0].session_id
    last_of_short = EVENTS[5].timestamp
    final = next(e for e in EVENTS if e.type.value == "final_output" and e.node_id == "coord.final")
    assert final.content
    filters = {
        "verdict": SessionFilter(verdict="contradicted"),
        "text": SessionFilter(text=final.content[:30].upper()),
        "after_short": SessionFilter(since=EVENTS[12].timestamp),
        "until": SessionFilter(until=EVENTS[0].timestamp),
        "range": SessionFilter(since=last_of_short, until=last_of_short),
        "nothing": SessionFilter(text="no such text anywhere 0x5f3759df"),
    }
    got = {name: _ids(store, project, f) for name, f in filters.items()}
    for name, wanted in filters.items():
        assert got[name] == _ids(memory, "p", wanted), name
    assert got["verdict"] == [f"{session}-0"]  # -1's newest report is all supported
    assert got["nothing"] == []
    assert set(got["until"]) == {f"{session}-{n}" for n in range(3)}  # all start at the same time
    assert set(got["range"]) == {f"{session}-{n}" for n in range(3)}
    assert got["text"] == [f"{session}-0"]  # only the full copy has the final output
    assert got["after_short"] == [f"{session}-0"]
