"""GraphQL subscriptions over WebSocket (graphql-transport-ws) on a real uvicorn socket.

The key travels in ``connection_init`` (browsers cannot set WebSocket headers);
a bad key closes the socket with 4403; a key revoked mid-stream ends the
stream with an error; a read key cannot run the admin mutation over the
socket either.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from provgraph.config import Settings
from provgraph.store.async_memory import AsyncMemoryGraphStore
from provgraph.store.types import Job, JobState
from services.api.app import create_app

from .conftest import SESSION_ID, RecordingVerifier, free_port, sample_report

PROTOCOL = "graphql-transport-ws"


@dataclass
class Live:
    url: str
    app: Any
    store: AsyncMemoryGraphStore
    loop: asyncio.AbstractEventLoop
    project: str
    read: str
    read_id: str

    def run(self, coro: Any) -> Any:
        """Run a store call on the server's own event loop."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=10)


@pytest.fixture
def live(settings: Settings) -> Iterator[Live]:
    store = AsyncMemoryGraphStore(None)
    verifier = RecordingVerifier()
    verifier.store = store
    app = create_app(settings, store=store, verifier=verifier)
    project = settings.project
    record, token = app.state.provgraph.keys().create(project, "read")
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    loops: list[asyncio.AbstractEventLoop] = []

    async def serve() -> None:
        loops.append(asyncio.get_running_loop())
        await server.serve()

    thread = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    yield Live(f"ws://127.0.0.1:{port}/graphql", app, store, loops[0], project, token, record.id)
    server.should_exit = True
    thread.join(timeout=10)


@contextmanager
def _open(live: Live, token: str) -> Iterator[tuple[ClientConnection, dict[str, Any]]]:
    with connect(live.url, subprotocols=[PROTOCOL], open_timeout=10) as ws:  # type: ignore[list-item]
        init = {"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}}
        ws.send(json.dumps(init))
        yield ws, json.loads(ws.recv(timeout=10))


def _subscribe(ws: ClientConnection, op_id: str, query: str, variables: dict[str, Any]) -> None:
    ws.send(
        json.dumps(
            {"id": op_id, "type": "subscribe", "payload": {"query": query, "variables": variables}}
        )
    )


def _next(ws: ClientConnection, timeout: float = 15) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
        if message["type"] != "ping":
            return message
        ws.send(json.dumps({"type": "pong"}))


def test_a_bad_key_is_refused_at_connection_init(live: Live) -> None:
    with connect(live.url, subprotocols=[PROTOCOL], open_timeout=10) as ws:  # type: ignore[list-item]
        ws.send(
            json.dumps({"type": "connection_init", "payload": {"authorization": "Bearer nope"}})
        )
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403


def test_job_progress_streams_each_state_until_done(live: Live) -> None:
    now = datetime.now(UTC)
    job = Job(
        id="job-live-1",
        output_id="out",
        config_hash="cfg",
        state=JobState.QUEUED,
        created_at=now,
        updated_at=now,
    )
    live.run(live.store.save_job(live.project, job))
    with _open(live, live.read) as (ws, ack):
        assert ack == {
            "type": "connection_ack",
            "payload": {"project": live.project, "role": "read"},
        }
        _subscribe(
            ws,
            "1",
            "subscription($id: ID!) { jobProgress(jobId: $id) { state reportVersion } }",
            {"id": job.id},
        )
        assert _next(ws)["payload"]["data"]["jobProgress"]["state"] == "QUEUED"
        done = replace(job, state=JobState.DONE, report_version=3, updated_at=datetime.now(UTC))
        live.run(live.store.save_job(live.project, done))
        assert _next(ws)["payload"]["data"]["jobProgress"] == {"state": "DONE", "reportVersion": 3}
        assert _next(ws) == {"id": "1", "type": "complete"}


def test_report_added_sends_only_new_reports_of_the_session(live: Live) -> None:
    with _open(live, live.read) as (ws, _):
        _subscribe(
            ws,
            "r",
            "subscription($s: ID) { reportAdded(sessionId: $s) { outputId version } }",
            {"s": SESSION_ID},
        )
        time.sleep(0.3)  # let the subscription take its snapshot first
        live.run(live.store.save_report(live.project, sample_report()))
        message = _next(ws)
        assert message["payload"]["data"]["reportAdded"] == {
            "outputId": "coord.final",
            "version": 1,
        }


def test_unknown_job_is_an_error_message(live: Live) -> None:
    with _open(live, live.read) as (ws, _):
        _subscribe(ws, "x", 'subscription { jobProgress(jobId: "nope") { state } }', {})
        message = _next(ws)
        assert (
            message["type"] == "next"
            and "no job 'nope'" in message["payload"]["errors"][0]["message"]
        )


def test_a_revoked_key_ends_its_stream_and_a_read_key_cannot_mutate(live: Live) -> None:
    with _open(live, live.read) as (ws, _):
        _subscribe(ws, "m", 'mutation { requestVerification(outputId: "x") { id } }', {})
        refused = _next(ws)
        assert "admin" in refused["payload"]["errors"][0]["message"]
        _subscribe(ws, "s", "subscription { sessionUpdated { id } }", {})
        time.sleep(0.3)
        live.app.state.provgraph.keys().revoke(live.read_id)
        message = _next(ws)
        while message.get("id") != "s":
            message = _next(ws)
        assert "not recognised" in message["payload"]["errors"][0]["message"]
