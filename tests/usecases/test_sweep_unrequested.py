"""The sweep's lost-job pass on the embedded store: every project, once, with the auto config."""

from __future__ import annotations

from provgraph.store.memory import MemoryGraphStore
from provgraph.store.types import Job, JobState
from provgraph.usecases.jobs import config_hash_of, job_id_for, request_verification
from provgraph.usecases.sweep import sweep_unrequested_outputs
from provgraph.verification.config import VerificationConfig
from tests.worker.conftest import OUTPUT_ID, session_events

LIGHT = VerificationConfig(embeddings=False, nli=False)


def test_jobs_are_created_once_for_outputs_nobody_requested() -> None:
    store = MemoryGraphStore()
    for project in ("a", "b", "c"):
        assert not store.ingest(project, session_events()).rejected
    request_verification(store, "b", OUTPUT_ID, LIGHT)  # b's request was not lost
    published: list[tuple[str, Job]] = []

    created = sweep_unrequested_outputs(store, lambda p, j, c: published.append((p, j)), LIGHT)

    expected = [job_id_for(p, OUTPUT_ID, config_hash_of(LIGHT)) for p in ("a", "c")]
    assert created == expected
    assert [(p, j.id) for p, j in published] == list(zip(("a", "c"), expected, strict=True))
    assert all(j.state is JobState.QUEUED and j.output_id == OUTPUT_ID for _, j in published)
    again = sweep_unrequested_outputs(store, lambda p, j, c: published.append((p, j)), LIGHT)
    assert again == [] and len(published) == 2


def test_a_broker_failure_leaves_the_job_queued_for_the_stale_job_pass() -> None:
    store = MemoryGraphStore()
    store.ingest("a", session_events())

    def down(project: str, job: Job, config: VerificationConfig) -> None:
        raise ConnectionError("broker down")

    created = sweep_unrequested_outputs(store, down, LIGHT)
    assert len(created) == 1
    job = store.get_job("a", created[0])
    assert job is not None and job.state is JobState.QUEUED
    assert store.outputs_without_jobs() == []
