"""Two API processes and two workers on one Neo4j and one Redis behave as one service.

Real processes end to end: two ``uvicorn`` API replicas (different ports, the
routing ``neo4j://`` scheme) and two Celery workers. A key created through one
replica works on the other at once, and one revoked through a replica is
refused by the other within the key cache's TTL. OTLP exports of unkeyed
source reads into one session, sent through both replicas at once, get
distinct keys with none rejected (a key one replica takes while the other
allocates it is re-allocated). Several sessions are then
ingested through both replicas at once, each event sent to both (so every
event is a duplicate somewhere): each event must be accepted exactly once,
the graph must equal the embedded store's for the same events, and every final
output must get exactly one verification report (auto-verify, lexical config
so the jobs run in seconds on the light queue).
"""

from __future__ import annotations

import json
import os
import random
import secrets
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from provgraph.config import Settings
from provgraph.events import Event
from provgraph.graph import NodeType
from provgraph.otlp import SOURCE_TOOLS_HEADER
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import GraphStore
from provgraph.store.types import JobState
from tests.api.conftest import free_port
from tests.integrations.test_otlp_source_keys_live import source_read_export
from tests.worker.conftest import (
    FIXTURE,
    REPO,
    Neo4jService,
    WorkerFactory,
)

pytestmark = [pytest.mark.neo4j, pytest.mark.redis, pytest.mark.slow]

SESSIONS = 6
CHUNK = 4
API_START_TIMEOUT = 120.0
REPORT_TIMEOUT = 240.0
KEY_CACHE_TTL_S = 1.0


@dataclass
class ApiProcess:
    url: str
    popen: subprocess.Popen[bytes]
    log_path: Path

    def log_tail(self) -> str:
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return f"--- {self.url} ---\n" + "\n".join(text.splitlines()[-40:])


def routing_uri(neo4j: Neo4jService) -> str:
    """The server's URI with the routing scheme (Community answers it as a one-member cluster)."""
    return "neo4j://" + neo4j.uri.split("://", 1)[1]


def _start_api(env: dict[str, str], log_path: Path) -> ApiProcess:
    port = free_port()
    argv = [sys.executable, "-m", "uvicorn", "tests.worker.lexical_api:app"]
    argv += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    with log_path.open("wb") as log:
        popen = subprocess.Popen(
            argv, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    api = ApiProcess(f"http://127.0.0.1:{port}", popen, log_path)
    deadline = time.monotonic() + API_START_TIMEOUT
    while time.monotonic() < deadline:
        if popen.poll() is not None:
            pytest.fail(f"API exited with {popen.returncode}\n{api.log_tail()}")
        try:
            if httpx.get(api.url + "/healthz", timeout=2).status_code == 200:
                return api
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    popen.kill()
    pytest.fail(f"API did not answer /healthz in {API_START_TIMEOUT:.0f}s\n{api.log_tail()}")


@pytest.fixture
def platform(
    services_settings: Settings, neo4j_service: Neo4jService, tmp_path: Path
) -> Iterator[tuple[list[ApiProcess], WorkerFactory, str, str]]:
    """Two API replicas and two workers; yields (apis, workers, project, bootstrap key)."""
    project = f"scale-{uuid.uuid4().hex[:8]}"
    bootstrap = "pgk_" + secrets.token_urlsafe(32)
    routed = services_settings.model_copy(update={"neo4j_uri": routing_uri(neo4j_service)})
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("PROVGRAPH_")},
        "PYTHONPATH": str(REPO),
        "PROVGRAPH_HOME": str(tmp_path / "home"),
        "PROVGRAPH_NEO4J_URI": routed.neo4j_uri or "",
        "PROVGRAPH_NEO4J_USER": routed.neo4j_user,
        "PROVGRAPH_NEO4J_PASSWORD": routed.neo4j_password or "",
        "PROVGRAPH_NEO4J_BATCH_SIZE": "3",  # several transactions per request
        "PROVGRAPH_BROKER_URL": routed.broker_url or "",
        "PROVGRAPH_PROJECT": project,
        "PROVGRAPH_BOOTSTRAP_ADMIN_KEY": bootstrap,
        "PROVGRAPH_AUTO_VERIFY": "true",
        "PROVGRAPH_KEY_CACHE_TTL_S": str(KEY_CACHE_TTL_S),
    }
    workers = WorkerFactory(routed, tmp_path)
    apis: list[ApiProcess] = []
    try:
        for name in ("a", "b"):
            apis.append(_start_api(env, tmp_path / f"api-{name}.log"))
        workers.start(queues="light")
        workers.start(queues="light")
        yield apis, workers, project, bootstrap
    finally:
        for api in apis:
            if api.popen.poll() is None:
                api.popen.terminate()
                try:
                    api.popen.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    api.popen.kill()
        workers.stop_all()


def session_copies(count: int) -> list[dict[str, Any]]:
    """``count`` copies of the fixture session, every id made unique per copy."""
    lines = [json.loads(x) for x in FIXTURE.read_text(encoding="utf-8").splitlines() if x.strip()]
    events: list[dict[str, Any]] = []
    for n in range(count):
        tag = f"s{n}"

        def rename(value: str, tag: str = tag) -> str:
            return f"{tag}.{value}"

        for line in lines:
            event = dict(line)
            event["id"] = rename(event["id"])
            event["session_id"] = rename(event["session_id"])
            event["node_id"] = rename(event["node_id"])
            event["parent_ids"] = [rename(p) for p in event.get("parent_ids") or []]
            event["edges"] = [
                {**e, "source_id": rename(e["source_id"])} for e in event.get("edges") or []
            ]
            events.append(event)
    return events


def _post(url: str, token: str, batch: list[dict[str, Any]]) -> dict[str, Any]:
    response = httpx.post(
        url + "/v1/events", json=batch, headers={"Authorization": f"Bearer {token}"}, timeout=120
    )
    assert response.status_code == 207, response.text
    body: dict[str, Any] = response.json()
    return body


def _keys_across_replicas(apis: list[ApiProcess], bootstrap: str) -> str:
    """Create through A, use on B; revoke through B, refused by A within the TTL."""
    a, b = apis
    http = httpx.Client(timeout=60)  # a replica's first request opens its store
    admin = {"Authorization": f"Bearer {bootstrap}"}
    made = http.post(a.url + "/v1/keys", json={"role": "ingest", "name": "ci"}, headers=admin)
    assert made.status_code == 201, made.text
    ingest_token = str(made.json()["token"])
    reader = http.post(b.url + "/v1/keys", json={"role": "read"}, headers=admin).json()
    read_headers = {"Authorization": f"Bearer {reader['token']}"}
    query = {"query": "{ __typename }"}
    assert http.post(a.url + "/graphql", json=query, headers=read_headers).status_code == 200
    listed = http.get(a.url + "/v1/keys", headers=admin).json()["keys"]
    assert {k["id"] for k in listed} >= {made.json()["id"], reader["id"]}
    revoked = http.post(b.url + f"/v1/keys/{reader['id']}/revoke", headers=admin)
    assert revoked.status_code == 200 and revoked.json()["revoked_at"]
    assert http.post(b.url + "/graphql", json=query, headers=read_headers).status_code == 401
    deadline = time.monotonic() + KEY_CACHE_TTL_S + 10
    status = 200
    while status != 401 and time.monotonic() < deadline:
        status = http.post(a.url + "/graphql", json=query, headers=read_headers).status_code
        time.sleep(0.2)
    http.close()
    assert status == 401, "replica A still accepts a key revoked through replica B"
    return ingest_token


def _otlp_reads_across_replicas(
    apis: list[ApiProcess], token: str, store: GraphStore, project: str, count: int = 12
) -> None:
    """Concurrent source-read exports into one session, alternating replicas: keys 1..count."""
    headers = {"Authorization": f"Bearer {token}", SOURCE_TOOLS_HEADER: "read_document"}

    def send(n: int) -> httpx.Response:
        url = apis[n % len(apis)].url + "/v1/traces"
        return httpx.post(url, json=source_read_export(n), headers=headers, timeout=120)

    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(send, range(count)))
    assert [a.status_code for a in answers] == [200] * count, [a.text for a in answers]
    assert all("partialSuccess" not in a.json() for a in answers), [a.json() for a in answers]
    keys = sorted(e.key for e in store.citation_summary(project, "shared-session"))
    assert keys == sorted(f"d_{i}" for i in range(1, count + 1))


def _wait_for_reports(store: GraphStore, project: str, outputs: set[str]) -> None:
    deadline = time.monotonic() + REPORT_TIMEOUT
    missing = set(outputs)
    while missing and time.monotonic() < deadline:
        missing = {o for o in missing if store.get_report(project, o) is None}
        time.sleep(1.0)
    assert not missing, f"no report after {REPORT_TIMEOUT:.0f}s for {sorted(missing)}"
    while time.monotonic() < deadline:
        open_jobs = [
            j
            for j in store.list_jobs(project, limit=1000)
            if j.state not in (JobState.DONE, JobState.FAILED)
        ]
        if not open_jobs:
            return
        time.sleep(1.0)
    pytest.fail(f"jobs still open after {REPORT_TIMEOUT:.0f}s")


def test_two_apis_two_workers_behave_as_one_service(
    platform: tuple[list[ApiProcess], WorkerFactory, str, str], graph_store: GraphStore
) -> None:
    apis, workers, project, bootstrap = platform
    token = _keys_across_replicas(apis, bootstrap)
    _otlp_reads_across_replicas(apis, token, graph_store, project)

    events = session_copies(SESSIONS)
    batches = [events[i : i + CHUNK] for i in range(0, len(events), CHUNK)]
    sends = [(api.url, batch) for batch in batches for api in apis]  # every event to both
    random.Random(15).shuffle(sends)
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda s: _post(s[0], token, s[1]), sends))

    outcomes: dict[str, Counter[str]] = {e["id"]: Counter() for e in events}
    for answer in answers:
        for result in answer["results"]:
            outcomes[result["id"]][result["status"]] += 1
    wrong = {i: dict(c) for i, c in outcomes.items() if c != Counter(accepted=1, duplicate=1)}
    assert not wrong, f"events not accepted exactly once: {wrong}\n{apis[0].log_tail()}"

    reference = MemoryGraphStore(None)
    reference.ingest(project, [Event.model_validate(e) for e in events])
    for n in range(SESSIONS):
        session = f"s{n}.{events[0]['session_id'].split('.', 1)[1]}"
        got, want = (
            graph_store.session_graph(project, session),
            reference.session_graph(project, session),
        )
        assert got.nodes == want.nodes, session
        assert sorted(map(str, got.edges)) == sorted(map(str, want.edges)), session

    outputs = {e["node_id"] for e in events if e["type"] == NodeType.FINAL_OUTPUT.value}
    assert len(outputs) >= SESSIONS
    _wait_for_reports(graph_store, project, outputs)
    reports = graph_store.list_reports(project, first=500).items
    per_output = Counter(r.output_id for r in reports)
    assert per_output == Counter(dict.fromkeys(outputs, 1)), (per_output, workers.logs())
    jobs = Counter(j.output_id for j in graph_store.list_jobs(project, limit=1000))
    assert jobs == Counter(dict.fromkeys(outputs, 1)), jobs
