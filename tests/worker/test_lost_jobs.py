"""Defect 2: final outputs whose verification request was lost still get exactly one report.

The API answers 207 once the events are durable and asks for verification
after that; an API killed in between (SIGKILL mid-batch) used to leave outputs
with no job forever, because the sweep only re-sent jobs that existed. Here the
crash is simulated exactly: the events go through the ingest use case (what
``/v1/events`` runs) and the auto-verify request is never made. The sweep's
lost-job pass then creates and publishes the jobs; a real worker on real Redis
and Neo4j runs them.
"""

from __future__ import annotations

import uuid
from collections import Counter

from provgraph.config import Settings
from provgraph.events import Event
from provgraph.store.port import GraphStore
from provgraph.store.types import JobState
from provgraph.usecases.ingest import ingest_batch_sync, validated
from provgraph.usecases.publishing import TaskQueuePublisher
from provgraph.usecases.sweep import sweep_unrequested_outputs
from provgraph.verification.config import VerificationConfig
from services.worker.dispatch import celery_app_for
from tests.worker.conftest import OUTPUT_ID, WorkerFactory, session_events, wait_for_job

LIGHT = VerificationConfig(embeddings=False, nli=False)
OUTPUTS = 4
RUN_TIMEOUT = 120.0


def _session_with_outputs(count: int) -> list[Event]:
    """The fixture session plus ``count - 1`` more final outputs with the same citations."""
    events = session_events()
    final = next(e for e in events if e.node_id == OUTPUT_ID)
    extra = [
        final.model_copy(update={"id": f"{final.id}-copy{i}", "node_id": f"{OUTPUT_ID}.{i}"})
        for i in range(1, count)
    ]
    return events + extra


def test_outputs_whose_request_was_lost_get_exactly_one_report(
    workers: WorkerFactory, services_settings: Settings, graph_store: GraphStore
) -> None:
    project = f"lost-{uuid.uuid4().hex[:10]}"
    events = _session_with_outputs(OUTPUTS)
    outcome = ingest_batch_sync(graph_store, project, validated(list(enumerate(events))))
    assert outcome.counts["accepted"] == len(events)
    assert len(outcome.final_outputs) == OUTPUTS
    # The crash: the 207 was sent, the auto-verify request never happened.
    assert graph_store.list_jobs(project) == []
    assert sorted(graph_store.outputs_without_jobs(project, limit=100)) == sorted(
        (project, output) for output in outcome.final_outputs
    )

    workers.start(queues="light")
    publisher = TaskQueuePublisher(celery_app_for(services_settings))
    created = sweep_unrequested_outputs(graph_store, publisher.publish, LIGHT, project=project)
    assert len(created) == OUTPUTS

    for job_id in created:
        done = wait_for_job(
            graph_store,
            project,
            job_id,
            {JobState.DONE, JobState.FAILED},
            RUN_TIMEOUT,
            workers.logs,
        )
        assert done.state is JobState.DONE, done.error

    # A second sweep (and any late request) finds nothing to do: one job, one report each.
    assert sweep_unrequested_outputs(graph_store, publisher.publish, LIGHT, project=project) == []
    assert graph_store.outputs_without_jobs(project, limit=100) == []
    reports = graph_store.list_reports(project, first=100).items
    assert Counter(r.output_id for r in reports) == {output: 1 for output in outcome.final_outputs}
    assert len(graph_store.list_jobs(project, limit=100)) == OUTPUTS
