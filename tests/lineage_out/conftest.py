"""A verified multi-agent session in a real store (embedded or Neo4j), and a lineage receiver.

The session is the shipped demo (a coordinator delegating to a researcher
and an analyst, who read four documents) plus one failed sub-agent run; the
coordinator's output is verified in-process (lexical stages) and the report
stored, so events carry real verdicts.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import provgraph.examples
from provgraph.cli.ingest import ingest_file
from provgraph.cli.verifying import verify_and_store
from provgraph.config import Settings
from provgraph.events import ErrorInfo, Event
from provgraph.graph import NodeStatus, NodeType
from provgraph.store.port import GraphStore

DEMO_EVENTS = Path(provgraph.examples.__file__).with_name("demo_session.jsonl")
SESSION = "demo-session-1"


@dataclass
class VerifiedSession:
    store: GraphStore
    project: str
    session_id: str
    output_id: str


def _failed_run(session_id: str) -> list[Event]:
    """A third sub-agent the coordinator delegated to, whose run failed."""
    when = datetime(2026, 11, 2, 9, 31, 20, tzinfo=UTC)
    common: dict[str, Any] = {
        "timestamp": when,
        "session_id": session_id,
        "run_id": "run-fact",
        "agent_name": "fact_checker",
    }
    return [
        Event(
            id="ol-evt-1",
            type=NodeType.TOOL_CALL,
            node_id="coord-call-fact",
            parent_ids=["coord-resp-1"],
            label="Tool: ask_fact_checker",
            **{**common, "run_id": "run-coord", "agent_name": "research_coordinator"},
        ),
        Event(
            id="ol-evt-2",
            type=NodeType.AGENT_RUN,
            node_id="fact-run",
            parent_ids=["coord-call-fact"],
            label="Agent: fact_checker",
            status=NodeStatus.ERROR,
            error=ErrorInfo(type="UnexpectedModelBehavior", message="retries exhausted"),
            **common,
        ),
    ]


@pytest.fixture
def verified_session(store: GraphStore, project: str) -> VerifiedSession:
    report = ingest_file(store, project, DEMO_EVENTS)
    assert report.failed == 0
    assert len(store.ingest(project, _failed_run(SESSION)).accepted) == 2
    output_id = "coord-output"
    verify_and_store(store, project, output_id, settings=Settings(), fast=True)
    return VerifiedSession(store, project, SESSION, output_id)


@dataclass
class Receiver:
    """What a real HTTP lineage endpoint on 127.0.0.1 received."""

    url: str
    status: int = 201
    bodies: list[dict[str, Any]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    auth: list[str | None] = field(default_factory=list)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A ``ThreadingHTTPServer`` that records every POST and answers ``receiver.status``."""
    state = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            state.paths.append(self.path)
            state.auth.append(self.headers.get("Authorization"))
            if state.status < 300:
                state.bodies.append(json.loads(body))
            self.send_response(state.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """A CLI runner on a fresh embedded store (``PROVGRAPH_HOME``) holding the demo session."""
    from provgraph.cli.main import _mount_sub_apps, app

    monkeypatch.setenv("PROVGRAPH_HOME", str(tmp_path))
    for name in ("PROVGRAPH_NEO4J_URI", "PROVGRAPH_BROKER_URL", "PROVGRAPH_PROJECT"):
        monkeypatch.delenv(name, raising=False)
    _mount_sub_apps()
    runner = CliRunner()
    ingested = runner.invoke(app, ["ingest", str(DEMO_EVENTS)])
    assert ingested.exit_code == 0, ingested.output
    return runner
