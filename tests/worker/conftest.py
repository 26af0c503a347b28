"""Fixtures of the worker tests: a real Redis, a real Neo4j and real worker processes.

* Redis: started here on a free port in a temporary folder (AOF on, so a Redis
  restart keeps queued messages), stopped at the end of the session.
* Neo4j: ``PROVGRAPH_TEST_NEO4J_URI`` (``deploy/test-services.sh``) when set,
  else started here with ``provgraph.ops.neo4j_server`` (auth off, small heap).
  The outage test needs to stop and start the server, so it uses the instance
  started here, or starts its own when the session one belongs to someone else.
* Workers: ``celery -A tests.worker.hooked_app worker -c 1`` (the production
  app with an injected pause, :mod:`tests.worker.hooked_app`) subprocesses in their
  own process group (SIGKILL reaches the pool child too), readiness by
  ``control.ping`` (what ``celery inspect ping`` does), stopped TERM then KILL.
  Timings are shortened through ``PROVGRAPH_WORKER_*`` so a killed worker's
  message comes back within seconds.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from provgraph.config import Settings
from provgraph.events import Event
from provgraph.store.port import GraphStore
from provgraph.store.types import Job, JobState

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "multi_agent_session.jsonl"
OUTPUT_ID = "coord.final"
SERVICE_TIMEOUT = 240.0
WORKER_START_TIMEOUT = 90.0

TEST_WORKER_ENV = {
    "PROVGRAPH_AUTO_VERIFY": "false",  # the lost-job pass is enabled by the test about it
    "PROVGRAPH_WORKER_VISIBILITY_TIMEOUT": "10",
    "PROVGRAPH_WORKER_UNACKED_RESTORE_INTERVAL": "1",
    "PROVGRAPH_WORKER_RETRY_BACKOFF": "0.5",
    "PROVGRAPH_WORKER_RETRY_BACKOFF_MAX": "4",
    "PROVGRAPH_WORKER_MAX_RETRIES": "6",
    "PROVGRAPH_WORKER_SOFT_TIME_LIMIT": "240",
    "PROVGRAPH_WORKER_HARD_TIME_LIMIT": "300",
}


def session_events() -> list[Event]:
    """The multi-agent fixture session (its final output cites sources)."""
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    return [Event.model_validate(json.loads(line)) for line in lines if line.strip()]


def wait_for_job(
    store: GraphStore,
    project: str,
    job_id: str,
    states: set[JobState],
    timeout: float,
    describe: Callable[[], str] = lambda: "",
) -> Job:
    """Poll the graph until the job is in one of ``states``; fail with its last state."""
    deadline = time.monotonic() + timeout
    job: Job | None = None
    while time.monotonic() < deadline:
        try:
            job = store.get_job(project, job_id)
        except Exception:  # the store may be restarting in the outage test
            job = None
        if job is not None and job.state in states:
            return job
        time.sleep(0.25)
    pytest.fail(f"job {job_id} not in {sorted(states)} after {timeout:.0f}s: {job}\n{describe()}")


# ---------------------------------------------------------------- services
@dataclass
class Neo4jService:
    uri: str
    data_dir: Path | None  # None: not ours, must not be stopped
    port: int
    password: str | None = None
    user: str = "neo4j"


@pytest.fixture(scope="session")
def redis_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from provgraph.ops import _process
    from provgraph.ops.redis_server import start_redis, stop_redis

    data = tmp_path_factory.mktemp("redis")
    try:
        handle = start_redis(data, _process.free_port(), persistent=True)
    except Exception as exc:
        pytest.skip(f"cannot start redis-server: {exc}")
    yield handle
    stop_redis(data, grace=10.0)


def _start_owned_neo4j(data: Path) -> Neo4jService:
    from provgraph.ops import _process
    from provgraph.ops.neo4j_server import start_neo4j

    port = _process.free_port()
    try:
        handle = start_neo4j(
            data, port, auth=False, heap="512m", pagecache="128m", timeout=SERVICE_TIMEOUT
        )
    except Exception as exc:
        pytest.skip(f"cannot start Neo4j: {exc}")
    return Neo4jService(uri=handle.uri, data_dir=data, port=port)


@pytest.fixture(scope="session")
def neo4j_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Neo4jService]:
    uri = os.environ.get("PROVGRAPH_TEST_NEO4J_URI")
    if uri:
        yield Neo4jService(
            uri=uri,
            data_dir=None,
            port=int(uri.rsplit(":", 1)[-1]),
            password=os.environ.get("PROVGRAPH_TEST_NEO4J_PASSWORD") or None,
            user=os.environ.get("PROVGRAPH_TEST_NEO4J_USER") or "neo4j",
        )
        return
    service = _start_owned_neo4j(tmp_path_factory.mktemp("neo4j"))
    yield service
    from provgraph.ops.neo4j_server import stop_neo4j

    assert service.data_dir is not None
    stop_neo4j(service.data_dir, grace=30.0)


def service_settings(redis: Any, neo4j: Neo4jService) -> Settings:
    return Settings(
        broker_url=redis.url,
        neo4j_uri=neo4j.uri,
        neo4j_user=neo4j.user,
        neo4j_password=neo4j.password,
    )


@pytest.fixture(scope="session")
def services_settings(redis_service: Any, neo4j_service: Neo4jService) -> Settings:
    return service_settings(redis_service, neo4j_service)


@pytest.fixture(scope="session")
def graph_store(services_settings: Settings) -> Iterator[GraphStore]:
    from provgraph.store.neo4j import open_neo4j_store

    store = open_neo4j_store(services_settings)
    yield store
    store.close()


@pytest.fixture
def project(graph_store: GraphStore) -> str:
    """A fresh project (tenant) holding the fixture session: tests never share data."""
    name = f"wk-{uuid.uuid4().hex[:10]}"
    result = graph_store.ingest(name, session_events())
    assert not result.rejected, result.rejected
    return name


# ---------------------------------------------------------------- workers
@dataclass
class WorkerProcess:
    """One ``celery worker`` subprocess (own process group) and its log file."""

    name: str
    popen: subprocess.Popen[bytes]
    log_path: Path
    stopped: bool = False

    def log_tail(self, lines: int = 60) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return f"--- worker {self.name} log ---\n" + "\n".join(text.splitlines()[-lines:])

    def kill(self) -> None:
        """SIGKILL the whole worker (main process and pool children) at once."""
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=30)
        self.stopped = True

    def stop(self, grace: float = 30.0) -> None:
        """TERM (warm shutdown), then KILL the group after ``grace`` seconds."""
        if self.stopped:
            return
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=grace)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)  # pool children left behind, if any
        if self.popen.poll() is None:
            self.popen.wait(timeout=30)
        self.stopped = True


@dataclass
class WorkerFactory:
    settings: Settings
    log_dir: Path
    started: list[WorkerProcess] = field(default_factory=list)

    def start(
        self,
        env: dict[str, str] | None = None,
        *,
        settings: Settings | None = None,
        queues: str = "light,heavy",
        extra_args: tuple[str, ...] = (),
    ) -> WorkerProcess:
        settings = settings or self.settings
        name = f"pgtest{len(self.started)}-{uuid.uuid4().hex[:6]}@localhost"
        log_path = self.log_dir / f"{name.split('@')[0]}.log"
        full_env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("PROVGRAPH_")},
            **TEST_WORKER_ENV,
            "PROVGRAPH_BROKER_URL": settings.broker_url or "",
            "PROVGRAPH_REDIS_SENTINEL_MASTER": settings.redis_sentinel_master or "",
            "PROVGRAPH_NEO4J_URI": settings.neo4j_uri or "",
            "PROVGRAPH_NEO4J_USER": settings.neo4j_user,
            "PROVGRAPH_NEO4J_PASSWORD": settings.neo4j_password or "",
            "PYTHONPATH": str(REPO),
            **(env or {}),
        }
        argv = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tests.worker.hooked_app",
            "worker",
            "-c",
            "1",
            "--without-gossip",
            "--without-mingle",
            "-Q",
            queues,
            "-l",
            "INFO",
            "-n",
            name,
            *extra_args,
        ]
        with log_path.open("wb") as log:
            popen = subprocess.Popen(
                argv,
                cwd=REPO,
                env=full_env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        worker = WorkerProcess(name, popen, log_path)
        self.started.append(worker)
        self._wait_ready(worker, settings)
        return worker

    def _wait_ready(self, worker: WorkerProcess, settings: Settings) -> None:
        from services.worker.dispatch import celery_app_for

        app = celery_app_for(settings)
        deadline = time.monotonic() + WORKER_START_TIMEOUT
        while time.monotonic() < deadline:
            if worker.popen.poll() is not None:
                pytest.fail(f"worker exited with {worker.popen.returncode}\n{worker.log_tail()}")
            try:
                replies = app.control.ping(destination=[worker.name], timeout=1.0) or []
            except Exception:  # e.g. a pooled connection from before a Redis restart
                replies = []
            if any(worker.name in reply for reply in replies):
                return
            time.sleep(0.5)
        worker.stop()
        pytest.fail(
            f"worker did not answer ping in {WORKER_START_TIMEOUT:.0f}s\n{worker.log_tail()}"
        )

    def logs(self) -> str:
        return "\n".join(w.log_tail() for w in self.started)

    def stop_all(self) -> None:
        for worker in self.started:
            worker.stop()


@pytest.fixture
def workers(services_settings: Settings, tmp_path: Path) -> Iterator[WorkerFactory]:
    factory = WorkerFactory(services_settings, tmp_path)
    yield factory
    factory.stop_all()


@pytest.fixture(autouse=True, scope="session")
def _no_leftover_inline_threads() -> Iterator[None]:
    yield
    from services.worker.dispatch import shutdown_inline_runners

    shutdown_inline_runners(wait=True)
