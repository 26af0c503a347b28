"""Retention and checkpoints run on a real worker under Celery beat (``-B``).

A worker with an embedded beat and a one-second retention interval erases
the fixture session (its events are from March 2026, the policy keeps one
day) of this test's project only, and seals checkpoints; the chain still
verifies afterwards.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from provgraph.config import Settings
from provgraph.store.port import GraphStore
from provgraph.usecases.audit_replay import load_entries
from provgraph.usecases.audit_verify import verify_project
from provgraph.usecases.queues import TASK_CHECKPOINT, TASK_RETENTION
from services.worker.app import celery_config
from services.worker.options import WorkerOptions
from tests.worker.conftest import WorkerFactory, session_events

SESSION = session_events()[0].session_id


def test_beat_schedule_names_the_audit_tasks() -> None:
    config = celery_config(Settings(), WorkerOptions(retention_interval=5, checkpoint_interval=7))
    schedule = {entry["task"]: entry["schedule"] for entry in config["beat_schedule"].values()}
    assert schedule[TASK_RETENTION] == 5 and schedule[TASK_CHECKPOINT] == 7


def test_retention_erases_expired_sessions_on_a_real_worker(
    workers: WorkerFactory, graph_store: GraphStore, project: str, tmp_path: Path
) -> None:
    kept = f"{project}-kept"
    graph_store.ingest(kept, session_events())  # another project: no policy, must stay
    worker = workers.start(
        env={
            "PROVGRAPH_RETENTION": f"{project}=1",
            "PROVGRAPH_HOME": str(tmp_path),
            "PROVGRAPH_WORKER_RETENTION_INTERVAL": "1",
            "PROVGRAPH_WORKER_CHECKPOINT_INTERVAL": "1",
        },
        queues="light",
        extra_args=("-B", "-s", str(tmp_path / "beat-schedule")),
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and graph_store.session_graph(project, SESSION).nodes:
        time.sleep(1)
    assert graph_store.session_graph(project, SESSION).nodes == {}, worker.log_tail()
    kinds = [e.kind for e in load_entries(graph_store, project)]
    while time.monotonic() < deadline and "checkpoint" not in kinds[kinds.index("erasure") :]:
        time.sleep(1)
        kinds = [e.kind for e in load_entries(graph_store, project)]
    assert "erasure" in kinds and "checkpoint" in kinds, worker.log_tail()
    report = verify_project(graph_store, project)
    assert report.ok, [f.describe() for f in report.failures]
    assert graph_store.session_graph(kept, SESSION).nodes  # no policy for it: untouched
    assert TASK_RETENTION in worker.log_path.read_text()


@pytest.fixture(autouse=True)
def _fast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROVGRAPH_RETENTION", raising=False)
