"""Contract: the sessions page filtered by ``since`` (Neo4j pages it before summarising).

Many small sessions with ties on the last event, sessions that straddle
``since``, epoch timestamps (never a first or last event) and agents that appear
only before ``since``: every page, followed to the end by its cursor, must be
the embedded store's, for each combination of agent, verdict and page size.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from provgraph.events import Event
from provgraph.graph import NodeType
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import GraphStore
from provgraph.store.types import SessionFilter, SessionSummary, StoredReport

T0 = datetime(2026, 6, 1, 10, 0, tzinfo=UTC)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _event(session: int, n: int, at: datetime, agent: str, kind: NodeType) -> Event:
    return Event.model_validate(
        {
            "id": f"s{session:02d}-e{n}",
            "type": kind.value,
            "node_id": f"s{session:02d}.n{n}",
            "session_id": f"s{session:02d}",
            "run_id": f"s{session:02d}.r{n % 2}",
            "agent_name": agent,
            "timestamp": at.isoformat(),
            "parent_ids": [f"s{session:02d}.n{n - 1}"] if n else [],
        }
    )


def _events() -> list[Event]:
    events: list[Event] = []
    for s in range(24):
        start = T0 + timedelta(minutes=s // 3)  # threes of sessions tie on every timestamp
        for n in range(4):
            agent = "early" if n == 0 and s % 3 == 0 else ("analyst" if s % 2 else "writer")
            kind = NodeType.FINAL_OUTPUT if n == 3 else NodeType.MODEL_REQUEST
            at = start + timedelta(seconds=10 * n)
            if s % 5 == 0 and n == 0:
                at -= timedelta(hours=2)  # the session straddles any recent `since`
            if s == 7 and n == 3:
                at = EPOCH  # an epoch node is never the session's last event
            events.append(_event(s, n, at, agent, kind))
    events += [_event(90, n, EPOCH, "writer", NodeType.MODEL_REQUEST) for n in range(2)]
    return events


def _all_pages(store: GraphStore, project: str, first: int, wanted: SessionFilter) -> list[str]:
    ids: list[str] = []
    after: str | None = None
    while True:
        page = store.list_sessions(project, first=first, after=after, filter=wanted)
        ids += [s.id for s in page.items]
        if not page.has_next_page:
            return ids
        after = page.end_cursor


@pytest.fixture
def loaded(store: GraphStore, project: str) -> tuple[GraphStore, MemoryGraphStore]:
    memory = MemoryGraphStore()
    for target, name in ((store, project), (memory, "p")):
        target.ingest(name, _events())
        report = StoredReport(
            output_id="s03.n3",
            session_id="s03",
            config_hash="cfg",
            report={"checks": []},
            created_at=T0,
            verdicts=("contradicted",),
        )
        target.save_report(name, report)
    return store, memory


@pytest.mark.parametrize("since_minutes", [-600, 0, 4, 11, 30])
@pytest.mark.parametrize("agent", [None, "analyst", "early"])
def test_since_pages_equal_the_embedded_store(
    loaded: tuple[GraphStore, MemoryGraphStore], project: str, since_minutes: int, agent: str | None
) -> None:
    store, memory = loaded
    wanted = SessionFilter(agent_name=agent, since=T0 + timedelta(minutes=since_minutes))
    for first in (1, 3, 50):
        want = _all_pages(memory, "p", first, wanted)
        assert _all_pages(store, project, first, wanted) == want, (first, wanted)
    got = store.list_sessions(project, first=50, filter=wanted).items
    want_items: tuple[SessionSummary, ...] = memory.list_sessions(
        "p", first=50, filter=wanted
    ).items
    assert got == want_items


def test_since_with_verdict_and_the_straddling_agent(
    loaded: tuple[GraphStore, MemoryGraphStore], project: str
) -> None:
    store, memory = loaded
    since = T0 + timedelta(minutes=1)
    only = SessionFilter(since=since, verdict="contradicted")
    assert [s.id for s in store.list_sessions(project, filter=only).items] == ["s03"]
    # "early" wrote only the first node, two hours before `since`, in s00, s15 ...
    early = SessionFilter(since=since, agent_name="early")
    got = [s.id for s in store.list_sessions(project, filter=early).items]
    assert got == [s.id for s in memory.list_sessions("p", filter=early).items]
    assert "s15" in got and "s00" not in got  # s00's last event is before `since`
