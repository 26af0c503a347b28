"""Fixtures for the runtime integrations (OpenAI Agents SDK, LangChain/LangGraph): the platform
they report to — the API on uvicorn over the real Neo4j, verifying final outputs inline as they
arrive — read back through GraphQL."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from provgraph.config import Settings
from provgraph.sdk import Backoff, ProvgraphClient
from provgraph.store.async_memory import ThreadedAsyncStore
from provgraph.store.port import GraphStore
from provgraph.verification.config import VerificationConfig

from ..conftest import API_KEY, LiveApi, free_port

LIGHT = VerificationConfig(embeddings=False, nli=False)
"""TF-IDF and the rule checks only: the verdicts need no model download."""

SESSION_QUERY = """
query($id: ID!) {
  session(id: $id) {
    id agentNames
    agents { name runIds delegatedBy }
    finalOutputs { id agentName content citationKey }
    nodes(first: 500) {
      id type label agentName runId citationKey content data status error { type message }
    }
    edges { sourceId targetId label }
  }
}
"""

REPORT_QUERY = """
query($id: ID!) {
  verificationReport(outputId: $id) {
    outputId citationsChecked citations { keys verdict sourceNodeId }
  }
}
"""


@dataclass
class Platform:
    """A running API (auth on, auto-verify on) and how a test talks to it."""

    api: LiveApi
    spill: Path

    def client(self) -> ProvgraphClient:
        """The SDK client an integration delivers through (small batches, fast retries)."""
        return ProvgraphClient(
            self.api.url,
            API_KEY,
            batch_size=20,
            flush_interval=0.05,
            spill_dir=self.spill,
            backoff=Backoff(initial=0.05, maximum=0.5, jitter=0.0),
        )

    def gql(self, query: str, variables: dict[str, Any]) -> dict[str, Any]:
        answer = httpx.post(
            f"{self.api.url}/graphql",
            json={"query": query, "variables": variables},
            headers={"Authorization": f"Bearer {API_KEY}"},
            timeout=60,
        )
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        assert "errors" not in body, body
        data: dict[str, Any] = body["data"]
        return data

    def session(self, session_id: str) -> dict[str, Any]:
        session: dict[str, Any] | None = self.gql(SESSION_QUERY, {"id": session_id})["session"]
        assert session is not None, f"session {session_id!r} did not land"
        return session

    def report(self, output_id: str, timeout: float = 180.0) -> dict[str, Any]:
        """The output's verification report, once the inline job has stored it."""
        deadline = time.monotonic() + timeout
        while True:
            report = self.gql(REPORT_QUERY, {"id": output_id})["verificationReport"]
            if report is not None:
                found: dict[str, Any] = report
                return found
            assert time.monotonic() < deadline, f"no verification report for {output_id}"
            time.sleep(0.2)


@pytest.fixture
def platform(neo4j_store: GraphStore, project: str, tmp_path: Path) -> Iterator[Platform]:
    api = pytest.importorskip("services.api.app")
    from services.api.verification import UseCaseDispatcher

    settings = Settings(
        home=tmp_path,
        auth=True,
        bootstrap_admin_key=API_KEY,
        project=project,
        keys_db=tmp_path / "keys.sqlite3",
        auto_verify=True,
        broker_url=None,
    )
    store = ThreadedAsyncStore(neo4j_store)

    async def current_store() -> ThreadedAsyncStore:
        return store

    dispatcher = UseCaseDispatcher(settings, current_store, config=LIGHT)
    live = LiveApi(api.create_app(settings, store=store, verifier=dispatcher), free_port())
    live.start()
    yield Platform(live, tmp_path / "spill")
    live.stop()


def nodes_of(session: dict[str, Any], node_type: str) -> list[dict[str, Any]]:
    return [n for n in session["nodes"] if n["type"] == node_type]


def edge_labels(session: dict[str, Any], source: str, target: str) -> set[str]:
    return {
        e["label"] for e in session["edges"] if e["sourceId"] == source and e["targetId"] == target
    }
