"""``PROVGRAPH_OPENLINEAGE_URL``: a real worker pushes the session after storing a report."""

from __future__ import annotations

import time

import pytest

from provgraph.config import Settings
from provgraph.store.port import GraphStore
from provgraph.store.types import JobState
from provgraph.verification.config import VerificationConfig
from services.worker.dispatch import enqueue_verification
from tests.lineage_out.conftest import Receiver, receiver  # noqa: F401 (fixture)
from tests.lineage_out.spec import validate_event
from tests.worker.conftest import OUTPUT_ID, WorkerFactory, wait_for_job

pytestmark = [pytest.mark.redis, pytest.mark.neo4j, pytest.mark.slow]

LIGHT = VerificationConfig(embeddings=False, nli=False)


def test_a_stored_report_is_pushed_with_its_verdicts(
    workers: WorkerFactory,
    services_settings: Settings,
    graph_store: GraphStore,
    project: str,
    receiver: Receiver,  # noqa: F811
) -> None:
    workers.start(
        env={
            "PROVGRAPH_OPENLINEAGE_URL": receiver.url,
            "PROVGRAPH_OPENLINEAGE_API_KEY": "ol-worker-key",
        }
    )
    job = enqueue_verification(
        project, OUTPUT_ID, settings=services_settings, config=LIGHT, store=graph_store
    )
    done = wait_for_job(
        graph_store, project, job.id, {JobState.DONE, JobState.FAILED}, 180, workers.logs
    )
    assert done.state is JobState.DONE, done.error
    deadline = time.monotonic() + 30
    while not any(b["eventType"] != "START" for b in receiver.bodies):
        assert time.monotonic() < deadline, workers.logs()
        time.sleep(0.2)
    time.sleep(1.0)  # the push is sequential; let it finish
    assert set(receiver.auth) == {"Bearer ol-worker-key"}
    for body in receiver.bodies:
        validate_event(body)
    verified = [
        output["facets"]["provgraph_verification"]
        for body in receiver.bodies
        for output in body["outputs"]
        if "provgraph_verification" in output["facets"]
    ]
    stored = graph_store.get_report(project, OUTPUT_ID)
    assert stored is not None
    # one push per delivery: a redelivered message (short visibility timeout here) pushes the
    # same events again, with the same run ids, which lineage backends deduplicate
    assert verified and {v["outputId"] for v in verified} == {OUTPUT_ID}
    for facet in verified:
        assert [c["verdict"] for c in facet["checks"]] == [
            c["verdict"] for c in stored.report["checks"]
        ]


def test_a_lineage_backend_that_refuses_never_fails_the_job(
    workers: WorkerFactory,
    services_settings: Settings,
    graph_store: GraphStore,
    project: str,
    receiver: Receiver,  # noqa: F811
) -> None:
    receiver.status = 401
    workers.start(env={"PROVGRAPH_OPENLINEAGE_URL": receiver.url})
    job = enqueue_verification(
        project, OUTPUT_ID, settings=services_settings, config=LIGHT, store=graph_store
    )
    done = wait_for_job(
        graph_store, project, job.id, {JobState.DONE, JobState.FAILED}, 180, workers.logs
    )
    assert done.state is JobState.DONE and done.attempts == 1, done.error
    deadline = time.monotonic() + 30
    while "OpenLineage push after the report" not in workers.logs():
        assert time.monotonic() < deadline, workers.logs()
        time.sleep(0.2)
    assert receiver.paths  # it did try
