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

import pytest

from provgraph.config import Settings
from provgraph.events import Event
from provgraph.store.port import GraphStore
from provgraph.store.types import Job, JobState
from provgraph.usecases.ingest import ingest_batch_sync, validated
from provgraph.usecases.jobs import config_hash_of, config_to_json, job_id_for, utcnow
from provgraph.usecases.publishing import TaskQueuePublisher
from provgraph.usecases.sweep import sweep_unrequested_outputs
from provgraph.verification.config import VerificationConfig
from services.worker.dispatch import celery_app_for
from tests.worker.conftest import OUTPUT_ID, WorkerFactory, session_events, wait_for_job

pytestmark = [pytest.mark.redis, pytest.mark.neo4j, pytest.mark.slow]

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


def test_jobs_saved_before_output_id_existed_are_backfilled_not_duplicated(
    services_settings: Settings, graph_store: GraphStore
) -> None:
    """A Job node written by the previous release (no ``output_id`` property) is found by
    id, re-saved with the property, and not published a second time."""
    import neo4j

    from provgraph.store.neo4j.rows import job_params

    project = f"old-{uuid.uuid4().hex[:10]}"
    graph_store.ingest(project, session_events())
    now = utcnow()
    old = Job(
        id=_old_job_id(project),
        output_id=OUTPUT_ID,
        config_hash=config_hash_of(LIGHT),
        state=JobState.FAILED,
        created_at=now,
        updated_at=now,
        error="an old failure",
        extra={"project": project, "config": config_to_json(LIGHT)},
    )
    params = {k: v for k, v in job_params(old).items() if k != "output_id"}
    auth = (services_settings.neo4j_user, services_settings.neo4j_password or "")
    uri = services_settings.neo4j_uri or ""
    with neo4j.GraphDatabase.driver(uri, auth=auth if auth[1] else None) as driver:
        driver.execute_query(
            "MERGE (j:Job {project: $project, id: $id})\n"
            "SET j.state = $state, j.created_at = $created_at, j.doc = $doc",
            {**params, "project": project},
            database_="neo4j",
        )
    assert graph_store.outputs_without_jobs(project) == [(project, OUTPUT_ID)]
    published: list[str] = []
    created = sweep_unrequested_outputs(
        graph_store, lambda p, j, c: published.append(j.id), LIGHT, project=project
    )
    assert created == [] and published == []
    assert graph_store.outputs_without_jobs(project) == []
    assert graph_store.list_jobs(project) == [old]  # backfilled, state and error kept


def _old_job_id(project: str) -> str:
    return job_id_for(project, OUTPUT_ID, config_hash_of(LIGHT))
