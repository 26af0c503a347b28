"""Contract: attribution, lineage, bounds and project isolation, identical across adapters."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from provgraph.errors import LimitExceededError, NotFoundError, ValidationError
from provgraph.graph import NodeType
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import GraphStore
from provgraph.store.types import (
    AttributionQuery,
    Job,
    JobState,
    LineageDirection,
    SessionFilter,
    StoredReport,
)

from ._ladder import ladder_events
from ._story import SESSION, retarget, story_events

EVENTS = story_events()


@pytest.fixture
def loaded(store: GraphStore, project: str) -> tuple[GraphStore, str, MemoryGraphStore]:
    """The story in the store under test and in a reference embedded store."""
    memory = MemoryGraphStore()
    for batch in (EVENTS[:20], EVENTS[20:]):
        store.ingest(project, batch)
        memory.ingest("p", batch)
    return store, project, memory


def test_attribution_and_lineage_equal_reference_for_every_node(
    loaded: tuple[GraphStore, str, MemoryGraphStore],
) -> None:
    store, project, memory = loaded
    node_ids = sorted({e.node_id for e in EVENTS})
    for node_id in node_ids:
        for depth, paths in ((32, 1000), (3, 2), (1, 1)):
            query = AttributionQuery(node_id, max_depth=depth, max_paths=paths)
            assert store.attribution(project, query) == memory.attribution("p", query), node_id
        for direction in LineageDirection:
            for depth, limit in ((64, 10_000), (2, 3)):
                got = store.lineage(project, node_id, direction=direction, depth=depth, limit=limit)
                want = memory.lineage("p", node_id, direction=direction, depth=depth, limit=limit)
                assert got == want, (node_id, direction, depth, limit)


def test_final_output_attributes_to_the_data_reads(
    loaded: tuple[GraphStore, str, MemoryGraphStore],
) -> None:
    store, project, _ = loaded
    result = store.attribution(project, AttributionQuery("coord.final"))
    assert {"de.data1", "de.data2", "es.data1", "es.data2"} <= {s.id for s in result.sources}
    assert all(p[-1] == "coord.final" for p in result.paths)
    assert result.paths == tuple(sorted(result.paths, key=lambda p: (len(p), p)))


@pytest.mark.parametrize("depth", [0, 65, -1, True, 2.5, "3"])
def test_lineage_depth_outside_bounds_is_refused(
    store: GraphStore, project: str, depth: Any
) -> None:
    store.ingest(project, EVENTS[:3])
    with pytest.raises(LimitExceededError):
        store.lineage(project, "coord.run", direction=LineageDirection.UP, depth=depth)


@pytest.mark.parametrize("limit", [0, 10_001, False])
def test_lineage_limit_outside_bounds_is_refused(
    store: GraphStore, project: str, limit: Any
) -> None:
    with pytest.raises(LimitExceededError):
        store.lineage(project, "x", direction=LineageDirection.DOWN, depth=2, limit=limit)


@pytest.mark.parametrize(("depth", "paths"), [(0, 10), (65, 10), (3, 0), (3, 10_001)])
def test_attribution_bounds_are_refused(depth: int, paths: int) -> None:
    with pytest.raises(LimitExceededError):
        AttributionQuery("x", max_depth=depth, max_paths=paths)


@pytest.mark.parametrize("first", [0, 501])
def test_page_size_outside_bounds_is_refused(store: GraphStore, project: str, first: int) -> None:
    with pytest.raises(LimitExceededError):
        store.list_sessions(project, first=first)
    with pytest.raises(LimitExceededError):
        store.list_reports(project, first=first)


def test_bad_cursor_is_a_validation_error(store: GraphStore, project: str) -> None:
    with pytest.raises(ValidationError):
        store.list_sessions(project, after="not-a-cursor")


def test_unknown_ids_are_not_found(store: GraphStore, project: str) -> None:
    with pytest.raises(NotFoundError):
        store.attribution(project, AttributionQuery("nope"))
    with pytest.raises(NotFoundError):
        store.lineage(project, "nope", direction=LineageDirection.UP, depth=3)
    assert store.get_node(project, "nope") is None
    assert store.node_edges(project, "nope") == []


def test_no_call_reads_another_projects_nodes(
    loaded: tuple[GraphStore, str, MemoryGraphStore],
    project: str,
) -> None:
    store, _, _ = loaded
    other = f"{project}-other"
    assert store.get_node(other, "coord.final") is None
    assert store.get_nodes(other, ["coord.final", "de.data1"]) == {}
    assert store.session_graph(other, SESSION).nodes == {}
    assert store.list_sessions(other).items == ()
    assert store.node_edges(other, "de.data1") == []
    assert store.resolve_citation_key(other, SESSION, "d_1") is None
    assert store.citation_summary(other, SESSION) == []
    with pytest.raises(NotFoundError):
        store.attribution(other, AttributionQuery("coord.final"))
    with pytest.raises(NotFoundError):
        store.lineage(other, "de.data1", direction=LineageDirection.DOWN, depth=5)
    # the same ids in the other project form their own graph, untouched by the first
    store.ingest(other, EVENTS[:5])
    assert len(store.session_graph(other, SESSION).nodes) < len(EVENTS)
    assert store.list_sessions(other).items[0].node_count == 5
    assert store.get_report(other, "coord.final") is None and store.get_job(other, "j") is None


def _report(
    output: str,
    config: str,
    minute: int,
    *,
    session: str = SESSION,
    verdicts: tuple[str, ...] = ("supported",),
) -> StoredReport:
    return StoredReport(
        output_id=output,
        session_id=session,
        config_hash=config,
        report={"schema_version": "1", "config": config, "n": minute},
        created_at=datetime(2026, 5, 1, 12, minute, tzinfo=UTC),
        verdicts=verdicts,
        support_rate=0.5,
    )


def test_reports_are_versioned_per_config_and_idempotent(store: GraphStore, project: str) -> None:
    first = store.save_report(project, _report("out", "cfg-a", 1))
    second = store.save_report(project, _report("out", "cfg-b", 2))
    again = store.save_report(project, _report("out", "cfg-a", 3))
    assert (first.version, second.version, again.version) == (1, 2, 1)
    assert store.get_report(project, "out") == second
    assert store.get_report(project, "out", 1) == again
    assert store.get_report(project, "out", 3) is None
    assert store.get_report(project, "missing") is None


def test_reports_page_and_filter_like_the_reference(store: GraphStore, project: str) -> None:
    memory = MemoryGraphStore()
    reports = [
        _report(
            f"out-{i % 4}",
            f"cfg-{i % 3}",
            i % 5,
            session=f"s{i % 2}",
            verdicts=("weak",) if i % 3 else ("supported", "weak"),
        )
        for i in range(14)
    ]
    for report in reports:
        assert store.save_report(project, report) == memory.save_report("p", report)
    for wanted in (
        None,
        ReportFilterCases.session,
        ReportFilterCases.verdict,
        ReportFilterCases.since,
    ):
        got, want = _all_pages(store, project, wanted), _all_pages(memory, "p", wanted)
        assert got == want and got


class ReportFilterCases:
    from provgraph.store.types import ReportFilter

    session = ReportFilter(session_id="s1")
    verdict = ReportFilter(verdict="supported")
    since = ReportFilter(since=datetime(2026, 5, 1, 12, 2, tzinfo=UTC))


def _all_pages(store: GraphStore, project: str, wanted: Any) -> list[Any]:
    pages: list[Any] = []
    after = None
    while True:
        page = store.list_reports(project, first=3, after=after, filter=wanted)
        pages.append((page.items, page.has_next_page))
        if not page.has_next_page:
            return pages
        after = page.end_cursor


def test_sessions_page_and_filter_like_the_reference(store: GraphStore, project: str) -> None:
    memory = MemoryGraphStore()
    for n in range(7):
        moved = retarget(EVENTS[: 5 + 4 * n], f"-{n}")
        store.ingest(project, moved)
        memory.ingest("p", moved)
    filters = [
        None,
        SessionFilter(agent_name="germany_analyst"),
        SessionFilter(since=datetime(2026, 3, 14, 10, 0, 4, tzinfo=UTC)),
    ]
    for wanted in filters:
        for size in (1, 3, 50):
            got, want, after_got, after_want = [], [], None, None
            while True:
                page = store.list_sessions(project, first=size, after=after_got, filter=wanted)
                ref = memory.list_sessions("p", first=size, after=after_want, filter=wanted)
                assert page == ref
                got.extend(page.items)
                want.extend(ref.items)
                if not page.has_next_page:
                    break
                after_got, after_want = page.end_cursor, ref.end_cursor
            assert got == want and len({s.id for s in got}) == len(got)


def _job(job_id: str, state: JobState, minute: int) -> Job:
    moment = datetime(2001, 1, 1, 0, minute, tzinfo=UTC)
    return Job(
        id=job_id,
        output_id="out",
        config_hash="cfg",
        state=state,
        created_at=moment,
        updated_at=moment,
        extra={"queue": "light"},
    )


def test_jobs_round_trip_and_list_by_state(store: GraphStore, project: str) -> None:
    jobs = [
        _job(f"{project}-j{i}", JobState.QUEUED if i % 2 else JobState.RUNNING, i) for i in range(5)
    ]
    for job in jobs:
        assert store.save_job(project, job) == job
    done = Job(
        **{
            **jobs[0].__dict__,
            "state": JobState.DONE,
            "attempts": 2,
            "report_version": 1,
            "error": None,
        }
    )
    store.save_job(project, done)
    assert store.get_job(project, jobs[0].id) == done
    assert store.get_job(project, "missing") is None
    queued = store.list_jobs(project, state="queued")
    assert [j.id for j in queued] == [jobs[1].id, jobs[3].id]
    assert [j.id for j in store.list_jobs(project, limit=2)] == [done.id, jobs[1].id]
    everywhere = store.list_jobs(None, state="queued", limit=10_000)
    assert {jobs[1].id, jobs[3].id} <= {j.id for j in everywhere}
    assert store.list_jobs(f"{project}-other") == []


def test_outputs_without_jobs_excludes_requested_and_reported_outputs(
    store: GraphStore, project: str
) -> None:
    """The sweep's lost-job query: final outputs with neither a job nor a report."""
    extra = retarget([e for e in EVENTS if e.type is NodeType.FINAL_OUTPUT], "-2")
    store.ingest(project, [*EVENTS, *extra])
    outputs = sorted(e.node_id for e in [*EVENTS, *extra] if e.type is NodeType.FINAL_OUTPUT)
    assert len(outputs) >= 2, "the story has final outputs"
    assert store.outputs_without_jobs(project) == [(project, o) for o in outputs]
    requested, reported = outputs[0], outputs[1]
    job = Job(**{**_job(f"{project}-j", JobState.FAILED, 1).__dict__, "output_id": requested})
    store.save_job(project, job)
    store.save_report(project, _report(reported, "cfg-a", 1))
    left = [(project, o) for o in outputs[2:]]
    assert store.outputs_without_jobs(project) == left
    everywhere = store.outputs_without_jobs(None, limit=10_000)
    assert set(left) <= set(everywhere) and (project, requested) not in everywhere
    assert store.outputs_without_jobs(f"{project}-other") == []
    assert store.outputs_without_jobs(project, limit=0) == []


def test_sources_are_complete_on_a_ladder_of_40_diamonds(store: GraphStore, project: str) -> None:
    """2**40 paths, 81 hops: enumeration is bounded, the set of sources is not (issue 16)."""
    store.ingest(project, ladder_events(40))
    found = store.attribution(project, AttributionQuery("out"))  # default bounds: depth 32
    assert [s.id for s in found.sources] == ["in"]
    assert found.truncated and found.paths == ()
    deepest = store.attribution(project, AttributionQuery("out", max_depth=64, max_paths=10))
    assert [s.id for s in deepest.sources] == ["in"] and deepest.truncated


def test_ladder_sources_are_ordered_by_distance_and_equal_the_reference(
    store: GraphStore, project: str
) -> None:
    events = ladder_events(40, side_source=True)
    memory = MemoryGraphStore()
    memory.ingest("p", events)
    store.ingest(project, events)
    for query in (AttributionQuery("out", max_depth=3, max_paths=5), AttributionQuery("out")):
        found = store.attribution(project, query)
        assert [s.id for s in found.sources] == ["side", "in"]  # nearest first
        assert found.paths[0] == ("side", "j39", "out")  # the near source's path is found
        assert found == memory.attribution("p", query)
    lineage = store.lineage(project, "out", direction=LineageDirection.UP, depth=64, limit=10_000)
    assert max(lineage.distances.values()) == 64 and lineage.truncated
    assert "in" not in lineage.distances  # 81 hops away: lineage honours its depth bound
    assert lineage == memory.lineage("p", "out", direction=LineageDirection.UP, depth=64)
