"""The audit trail through the storage port, on both adapters (embedded and Neo4j).

Chain entries in the write's transaction, reviews never edited, node search,
erasure (both scopes) leaving a verifying chain and no trace in the graph.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from provgraph.audit.canonical import digest, text_digest
from provgraph.audit.chain import GENESIS, EntryKind
from provgraph.errors import ValidationError
from provgraph.events import Event
from provgraph.store.audit_types import Review, ReviewAction
from provgraph.store.codec import report_to_dict
from provgraph.store.port import GraphStore
from provgraph.store.types import Job, JobState, StoredReport
from provgraph.usecases.audit_replay import load_entries
from provgraph.usecases.audit_verify import verify_project
from provgraph.usecases.erasure import apply_erasure, plan_session_erasure, plan_subject_erasure
from tests.contract._story import SESSION, retarget, story_events

OUTPUT = "coord.final"


def _report(output_id: str = OUTPUT, session: str = SESSION, config: str = "cfg") -> StoredReport:
    check = {
        "tag_index": 0,
        "key": "d_1",
        "claim": {"text": "a claim"},
        "source": {"node_id": "missing-source"},
        "verdict": "supported",
    }
    return StoredReport(
        output_id,
        session,
        config,
        {"checks": [check]},
        datetime(2026, 3, 1, tzinfo=UTC),
        verdicts=("supported",),
    )


def _review(review_id: str, output_id: str = OUTPUT) -> Review:
    return Review(
        id=review_id,
        output_id=output_id,
        session_id=SESSION,
        report_version=1,
        tag_index=0,
        key="d_1",
        check_ref="ref",
        action=ReviewAction.OVERRIDE,
        machine_verdict="supported",
        verdict="unsupported",
        note="source says otherwise",
        reviewer="alice",
        created_at="2026-03-02T00:00:00.000000Z",
    )


def test_every_accepted_batch_is_one_entry_and_duplicates_add_none(
    store: GraphStore, project: str
) -> None:
    events = story_events()
    assert store.audit_head(project) == (0, GENESIS)
    store.ingest(project, events)
    entries = load_entries(store, project)
    assert entries and all(e.kind == EntryKind.INGEST for e in entries)
    accepted = [e for entry in entries for e in entry.payload["events"]]  # type: ignore[index]
    assert [e["id"] for e in accepted] == [e.id for e in events]
    assert [d for entry in entries for d in entry.header["events"]] == [
        digest(e.model_dump(mode="json")) for e in events
    ]
    assert store.audit_head(project) == (entries[-1].seq, entries[-1].hash)
    store.ingest(project, events)  # all duplicates: nothing accepted, no entry
    assert len(load_entries(store, project)) == len(entries)
    assert verify_project(store, project).ok


def test_events_with_any_json_data_are_sealed_and_stored_as_sent(
    store: GraphStore, project: str
) -> None:
    """Each tier of canonical JSON (plain, floats, beyond I-JSON, astral characters):
    the payload keeps the event as sent, the header its digest, the chain verifies."""
    base = story_events()[0].model_dump(mode="json")
    datas = [
        {"tool": "search", "k": 3},
        {"score": 0.25, "whole": 1.0, "tiny": 1e-7},
        {"id": 2**64, "neg": -(2**60)},
        {"\U0001f600": "caf\u00e9 \U0001f600", "ctl": "\u0000\u001f"},
    ]
    events = [
        Event.model_validate({**base, "id": f"data-{i}", "node_id": f"data-{i}", "data": data})
        for i, data in enumerate(datas)
    ]
    store.ingest(project, events)
    entries = load_entries(store, project)
    stored = [e for entry in entries for e in entry.payload["events"]]  # type: ignore[index]
    assert stored == [e.model_dump(mode="json") for e in events]
    assert [d for entry in entries for d in entry.header["events"]] == [
        digest(e.model_dump(mode="json")) for e in events
    ]
    assert verify_project(store, project).ok


def test_reports_and_reviews_are_chained_with_their_digests(
    store: GraphStore, project: str
) -> None:
    store.ingest(project, story_events())
    stored = store.save_report(project, _report())
    review = store.save_review(project, _review("rev-1"))
    entries = load_entries(store, project)
    report_entry, review_entry = entries[-2], entries[-1]
    assert report_entry.kind == EntryKind.REPORT
    assert report_entry.header["report"] == digest(report_to_dict(stored))
    assert review_entry.kind == EntryKind.REVIEW
    assert review_entry.header["review"] == digest(review.to_dict())
    assert store.list_reviews(project, OUTPUT) == [review]
    with pytest.raises(ValidationError, match="never edited"):
        store.save_review(project, _review("rev-1"))
    assert store.list_reviews(project) == [review]
    assert verify_project(store, project).ok


def test_find_nodes_matches_content_label_and_data(store: GraphStore, project: str) -> None:
    store.ingest(project, story_events())
    found = store.find_nodes(project, "spain")
    assert found and all("spain" in f"{n.content or ''}{n.label}{n.data}" for n in found), [
        n.id for n in found
    ]
    assert store.find_nodes(project, "no-such-subject-anywhere") == []


def test_session_erasure_removes_it_and_the_chain_still_verifies(
    store: GraphStore, project: str
) -> None:
    other = retarget(story_events(), "-keep")
    store.ingest(project, story_events() + other)
    store.save_report(project, _report())
    store.save_review(project, _review("rev-2"))
    kept_before = store.session_graph(project, SESSION + "-keep")
    plan = plan_session_erasure(store, project, SESSION)
    result = apply_erasure(store, project, plan)
    assert result.nodes == len(plan.erasure.node_ids) > 0
    assert (result.reports, result.reviews) == (1, 1)
    assert store.session_graph(project, SESSION).nodes == {}
    assert store.get_report(project, OUTPUT) is None and store.list_reviews(project) == []
    assert store.session_graph(project, SESSION + "-keep").nodes == kept_before.nodes
    entries = load_entries(store, project)
    tombstone = entries[-1]
    assert tombstone.kind == EntryKind.ERASURE and tombstone.payload is None
    assert text_digest(OUTPUT) in tombstone.header["nodes"]
    remaining = [e for entry in entries if entry.kind == "ingest" for e in entry.payload["events"]]  # type: ignore[index]
    assert all(e is None or e["session_id"] != SESSION for e in remaining)
    report = verify_project(store, project)
    assert report.ok, [f.describe() for f in report.failures]


def test_subject_erasure_removes_every_matching_node(store: GraphStore, project: str) -> None:
    store.ingest(project, story_events())
    subject = "spain"
    before = store.find_nodes(project, subject)
    assert before
    apply_erasure(store, project, plan_subject_erasure(store, project, subject))
    assert store.find_nodes(project, subject) == []
    assert store.get_nodes(project, [n.id for n in before]) == {}
    report = verify_project(store, project)
    assert report.ok, [f.describe() for f in report.failures]


def test_audit_projects_lists_projects_with_a_chain(store: GraphStore, project: str) -> None:
    store.ingest(project, story_events()[:3])
    assert project in store.audit_projects()


def test_a_job_completes_with_its_report_in_one_write(store: GraphStore, project: str) -> None:
    """``complete_job``: the report (chained like ``save_report``) and the job's final
    state with the report's version; a rerun keeps one report and its version."""
    store.ingest(project, story_events())
    moment = datetime(2026, 3, 1, tzinfo=UTC)
    running = Job("job-1", OUTPUT, "cfg", JobState.RUNNING, moment, moment, attempts=1)
    store.save_job(project, running)
    done = replace(running, state=JobState.DONE, extra={"citations_checked": 1})
    stored, saved = store.complete_job(project, _report(), done)
    assert stored.version == 1 and saved == replace(done, report_version=1)
    assert store.get_job(project, "job-1") == saved
    assert store.get_report(project, OUTPUT) == stored
    last = load_entries(store, project)[-1]
    assert last.kind == EntryKind.REPORT and last.header["report"] == digest(report_to_dict(stored))
    again, _ = store.complete_job(project, _report(), done)  # a redelivered run
    other, other_job = store.complete_job(
        project, _report(config="cfg-2"), replace(done, id="job-2", config_hash="cfg-2")
    )
    assert again.version == 1 and (other.version, other_job.report_version) == (2, 2)
    assert sorted(r.version for r in store.list_reports(project).items) == [1, 2]
    assert verify_project(store, project).ok
