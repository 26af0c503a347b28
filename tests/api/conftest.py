"""Fixtures for the API tests: the app on a real store, keys per project and role, the session.

``api_store`` is parametrised: the embedded store always, Neo4j when the
Neo4j adapter and a server are available (``PROVGRAPH_TEST_NEO4J_URI`` or the
shared ``neo4j_settings`` fixture), so every test here runs on both.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from provgraph.config import Settings
from provgraph.store.async_memory import AsyncMemoryGraphStore
from provgraph.store.port import AsyncGraphStore
from provgraph.store.types import Job, JobState, StoredReport
from provgraph.verification.report import (
    CitationCheck,
    ClaimInfo,
    Evidence,
    JudgeUsage,
    ModelRef,
    SourceInfo,
    StageScore,
    StageStatus,
    VerificationReport,
    report_to_stored,
)
from provgraph.verification.verdicts import FusionWeights, Thresholds, Verdict
from services.api.app import create_app

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "multi_agent_session.jsonl"
SESSION_ID = "sess-energy-2026-03-14"
FINAL_ID = "coord.final"
BOOTSTRAP = "bootstrap-admin-key-for-tests-0123456789"
PROJECTS = ("acme", "globex")
ROLES = ("ingest", "read", "admin")


def session_events() -> list[dict[str, Any]]:
    return [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]


class RecordingVerifier:
    """Stands in for the worker dispatcher: records the request and stores a queued job."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.store: AsyncGraphStore | None = None

    async def request(self, project: str, output_id: str) -> Job:
        self.calls.append((project, output_id))
        now = datetime.now(UTC)
        job = Job(
            id=f"job-{uuid.uuid4().hex[:12]}",
            output_id=output_id,
            config_hash="cfg-test",
            state=JobState.QUEUED,
            created_at=now,
            updated_at=now,
        )
        assert self.store is not None
        return await self.store.save_job(project, job)


def _neo4j_store_or_skip(request: pytest.FixtureRequest) -> AsyncGraphStore:
    try:
        from provgraph.store import neo4j as adapter
    except ImportError:
        pytest.skip("Neo4j adapter not available yet")
    try:
        settings = request.getfixturevalue("neo4j_settings")
    except pytest.FixtureLookupError:
        import os

        uri = os.environ.get("PROVGRAPH_TEST_NEO4J_URI")
        if not uri:
            pytest.skip("no Neo4j server (set PROVGRAPH_TEST_NEO4J_URI)")
        settings = Settings(neo4j_uri=uri)
    return adapter.open_async_neo4j_store(settings)  # type: ignore[no-any-return]


@pytest.fixture(params=["memory", pytest.param("neo4j", marks=pytest.mark.neo4j)])
async def api_store(request: pytest.FixtureRequest) -> AsyncIterator[AsyncGraphStore]:
    if request.param == "memory":
        store: AsyncGraphStore = AsyncMemoryGraphStore(None)
    else:
        opened: Any = _neo4j_store_or_skip(request)
        store = await opened if hasattr(opened, "__await__") else opened
    yield store
    await store.close()


@pytest.fixture
def settings(tmp_path: Path, project_suffix: str) -> Settings:
    # the bootstrap key's project is unique per test too (a shared Neo4j keeps its data)
    return Settings(
        home=tmp_path,
        auth=True,
        bootstrap_admin_key=BOOTSTRAP,
        project=f"acme-{project_suffix}",
        keys_db=tmp_path / "keys.sqlite3",
        store_path=tmp_path / "events.jsonl",
        max_batch_events=100,
        max_body_bytes=256 * 1024,
        auto_verify=False,
    )


@pytest.fixture
def verifier() -> RecordingVerifier:
    return RecordingVerifier()


@pytest.fixture
def project_suffix() -> str:
    """Projects are unique per test so a shared Neo4j needs no cleaning between tests."""
    return uuid.uuid4().hex[:8]


@dataclass
class Env:
    app: Any
    client: httpx.AsyncClient
    store: AsyncGraphStore
    tokens: dict[tuple[str, str], str]
    projects: dict[str, str]
    verifier: RecordingVerifier

    def headers(self, project: str, role: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[(project, role)]}"}

    def project(self, name: str) -> str:
        return self.projects[name]

    async def post_events(
        self, events: Any, project: str = "acme", role: str = "ingest", **kwargs: Any
    ) -> httpx.Response:
        return await self.client.post(
            "/v1/events", json=events, headers=self.headers(project, role), **kwargs
        )

    async def gql(
        self,
        query: str,
        variables: dict[str, Any] | None = None,
        project: str = "acme",
        role: str = "read",
    ) -> dict[str, Any]:
        response = await self.client.post(
            "/graphql",
            json={"query": query, "variables": variables or {}},
            headers=self.headers(project, role),
        )
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body


@pytest.fixture
async def env(
    settings: Settings,
    api_store: AsyncGraphStore,
    verifier: RecordingVerifier,
    project_suffix: str,
) -> AsyncIterator[Env]:
    verifier.store = api_store
    app = create_app(settings, store=api_store, verifier=verifier)
    keys = app.state.provgraph.keys()
    projects = {name: f"{name}-{project_suffix}" for name in PROJECTS}
    tokens = {(p, r): keys.create(projects[p], r)[1] for p in PROJECTS for r in ROLES}
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        yield Env(app, client, api_store, tokens, projects, verifier)
    keys.close()


def _check(
    tag: int,
    key: str,
    node: str,
    claim: str,
    verdict: Verdict,
    confidence: float,
    evidence: str | None,
) -> CitationCheck:
    found = None
    if evidence:
        found = Evidence(source_key=key, start=0, end=len(evidence), text=evidence)
    return CitationCheck(
        tag_index=tag,
        key=key,
        claim=ClaimInfo(text=claim, start=0, end=len(claim), mode="sentence"),
        source=SourceInfo(key=key, node_id=node, node_type="data_read", label=node, chars=200),
        scores={"tfidf": StageScore(stage="tfidf", score=0.42, raw={"cosine": 0.42})},
        evidence=found,
        support_score=confidence,
        contradiction_score=0.02,
        verdict=verdict,
        confidence=confidence,
        kept_in_text=verdict is not Verdict.UNSUPPORTED,
    )


def sample_report(output_id: str = FINAL_ID, config_hash: str = "cfg-a") -> StoredReport:
    """A report built with the verification engine's own models (so the shape is real)."""
    germany = "In Germany renewables reached 52.5% of electricity consumption"
    checks = [
        _check(
            0,
            "a_1",
            "de.resp2",
            germany,
            Verdict.SUPPORTED,
            0.91,
            "Renewables supplied 52.5% of German electricity consumption in 2023",
        ),
        _check(
            0,
            "d_1",
            "de.data1",
            germany,
            Verdict.SUPPORTED,
            0.88,
            "In 2023 renewable sources supplied 52.5 percent",
        ),
        _check(
            4,
            "d_1",
            "de.data1",
            "falling fossil generation explains part of the rise",
            Verdict.WEAK,
            0.41,
            None,
        ),
    ]
    report = VerificationReport(
        text_with_verified_citations="(text)",
        tags=[],
        checks=checks,
        unresolvable_keys=[],
        totals={"supported": 2, "weak": 1},
        citations_checked=3,
        support_rate=2 / 3,
        coverage=[],
        stages=[
            StageStatus(name="tfidf", status="ran", seconds=0.01),
            StageStatus(
                name="llm_judge",
                status="ran",
                model="judge-model",
                seconds=1.5,
                usage=JudgeUsage(
                    max_calls=8,
                    calls=3,
                    requests=4,
                    input_tokens=360,
                    output_tokens=45,
                    estimated_cost=0.00135,
                ),
            ),
        ],
        models=[
            ModelRef(stage="nli", name="provgraph/nli/model", sha256="ab" * 32),
            ModelRef(stage="fusion", name="provgraph/verification/combiner.json", sha256="cd" * 32),
        ],
        thresholds=Thresholds(),
        fusion=FusionWeights(),
        config={},
        config_hash=config_hash,
        seconds=0.1,
    )
    return report_to_stored(report, output_id, SESSION_ID)


@pytest.fixture
async def seeded(env: Env) -> Env:
    """The multi-agent session ingested into project acme over HTTP, plus one stored report."""
    response = await env.post_events(session_events())
    assert response.status_code == 207, response.text
    assert response.json()["accepted"] == len(session_events())
    await env.store.save_report(env.project("acme"), sample_report())
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def live_server(settings: Settings) -> Iterator[str]:
    """The app on a real uvicorn socket in a thread (embedded store, real lifespan)."""
    port = free_port()
    config = uvicorn.Config(
        create_app(settings),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
