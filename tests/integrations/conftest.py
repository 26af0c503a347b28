"""Fixtures for the integration tests: a real API on a real uvicorn socket that can be
stopped and restarted on the same port (the SDK's outage tests), over the embedded
store or Neo4j, with the OTLP router mounted."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from provgraph.config import Settings
from provgraph.store.async_memory import ThreadedAsyncStore
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import GraphStore
from provgraph.verification.config import VerificationConfig

API_KEY = "integration-bootstrap-key-0123456789abcdef"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class LiveApi:
    """``services.api`` (plus the OTLP router) served by uvicorn in a thread; restartable."""

    def __init__(self, app: FastAPI, port: int) -> None:
        self.app = app
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            access_log=False,
            lifespan="on",
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)
        self._server = self._thread = None


@pytest.fixture(params=["memory", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def graph_store(request: pytest.FixtureRequest) -> Iterator[GraphStore]:
    """The embedded store, or the session's real Neo4j (isolated by ``project``)."""
    if request.param == "memory":
        memory = MemoryGraphStore()
        yield memory
        memory.close()
    else:
        yield request.getfixturevalue("neo4j_store")


def api_settings(tmp_path: Path, project: str, **overrides: Any) -> Settings:
    """Settings of a test API: auth on with the bootstrap key, no auto-verification."""
    values: dict[str, Any] = {
        "home": tmp_path,
        "auth": True,
        "bootstrap_admin_key": API_KEY,
        "project": project,
        "keys_db": tmp_path / "keys.sqlite3",
        "auto_verify": False,
        **overrides,
    }
    return Settings(**values)


@pytest.fixture
def live_api(graph_store: GraphStore, project: str, tmp_path: Path) -> Iterator[LiveApi]:
    api = pytest.importorskip("services.api.app")
    app = api.create_app(api_settings(tmp_path, project), store=ThreadedAsyncStore(graph_store))
    live = LiveApi(app, free_port())
    live.start()
    yield live
    live.stop()


LIGHT_VERIFICATION = VerificationConfig(embeddings=False, nli=False)
"""The lexical stages only: fast, and no model weights."""


@pytest.fixture
def verifying_api(neo4j_store: GraphStore, project: str, tmp_path: Path) -> Iterator[LiveApi]:
    """The API on the real Neo4j, verifying every final output inline (lexical stages)."""
    api = pytest.importorskip("services.api.app")
    from services.api.verification import UseCaseDispatcher

    settings = api_settings(tmp_path, project, auto_verify=True)
    store = ThreadedAsyncStore(neo4j_store)

    async def getter() -> ThreadedAsyncStore:
        return store

    dispatcher = UseCaseDispatcher(settings, getter, config=LIGHT_VERIFICATION)
    live = LiveApi(api.create_app(settings, store=store, verifier=dispatcher), free_port())
    live.start()
    yield live
    live.stop()


def graphql(live: LiveApi, query: str, **variables: Any) -> dict[str, Any]:
    """One GraphQL query over HTTP with the bootstrap key; fails the test on any error."""
    answer = httpx.post(
        f"{live.url}/graphql",
        json={"query": query, "variables": variables},
        headers={"Authorization": f"Bearer {API_KEY}"},
        timeout=60,
    )
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    assert not body.get("errors"), body["errors"]
    data: dict[str, Any] = body["data"]
    return data


def wait_for_report(live: LiveApi, output_id: str, fields: str) -> dict[str, Any]:
    """An output's newest report (``fields`` of it), once the inline job wrote it (bounded)."""
    query = f"query ($id: ID!) {{ verificationReport(outputId: $id) {{ {fields} }} }}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        report = graphql(live, query, id=output_id)["verificationReport"]
        if report is not None:
            return dict(report)
        time.sleep(0.25)
    raise AssertionError(f"no verification report for {output_id} within 120 s")
