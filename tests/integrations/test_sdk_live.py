"""The SDK against the real API on a uvicorn socket: batching, outage, spill, no loss, no dupes."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from provgraph.graph import NodeType
from provgraph.sdk import AsyncProvgraphClient, Backoff, ProvgraphClient, SessionRecorder
from provgraph.store.port import GraphStore

from .conftest import API_KEY, LiveApi

FAST = Backoff(initial=0.05, maximum=0.3, jitter=0.0)


def record_session(recorder: SessionRecorder, reads: int) -> list[str]:
    """A small agent session: run, input, request, ``reads`` data reads, response, output."""
    run = recorder.run("agent", run_id="r1")
    prompt = recorder.input(run.node_id, "question")
    request = recorder.model_request(prompt.node_id)
    response = recorder.model_response(request.node_id, "calling tools")
    keys = [
        recorder.data_read(
            response.node_id, "read_file", {"path": f"f{i}"}, content=f"text {i}"
        ).citation_key
        or ""
        for i in range(reads)
    ]
    recorder.final_output(response.node_id, "answer " + " ".join(f"[REF|{k}]" for k in keys))
    return keys


def session_nodes(store: GraphStore, project: str, session_id: str) -> dict[str, NodeType | None]:
    graph = store.session_graph(project, session_id)
    return {n.id: n.type for n in graph.nodes.values()}


def test_batches_reach_the_api(
    live_api: LiveApi, graph_store: GraphStore, project: str, tmp_path: Path
) -> None:
    client = ProvgraphClient(
        live_api.url,
        API_KEY,
        batch_size=7,
        flush_interval=0.05,
        spill_dir=tmp_path / "spill",
        backoff=FAST,
    )
    recorder = SessionRecorder(client)
    keys = record_session(recorder, reads=10)
    assert keys[0] == "d_1" and keys[-1] == "d_10"  # allocated locally, before delivery
    assert client.flush(timeout=30)
    client.close()
    nodes = session_nodes(graph_store, project, recorder.session_id)
    assert len(nodes) == 15 and None not in nodes.values()
    assert graph_store.resolve_citation_key(project, recorder.session_id, "d_3") is not None
    assert client.stats.sent == 15 and client.stats.rejected == 0  # one event per node


def test_outage_then_recovery_loses_and_duplicates_nothing(
    live_api: LiveApi, graph_store: GraphStore, project: str, tmp_path: Path
) -> None:
    spill = tmp_path / "spill"
    live_api.stop()
    client = ProvgraphClient(
        live_api.url,
        API_KEY,
        batch_size=5,
        flush_interval=0.05,
        max_buffer=10,
        block_timeout=0.05,
        spill_dir=spill,
        backoff=FAST,
    )
    recorder = SessionRecorder(client)
    record_session(recorder, reads=20)  # 25 events: more than the buffer holds
    time.sleep(0.5)
    assert client.stats.retries > 0
    assert client.stats.spilled > 0 and list(spill.glob("spill-*.jsonl"))
    assert session_nodes(graph_store, project, recorder.session_id) == {}
    live_api.start()
    assert client.flush(timeout=30)
    client.close()
    nodes = session_nodes(graph_store, project, recorder.session_id)
    assert len(nodes) == 25 and None not in nodes.values()
    keys = [e.key for e in graph_store.citation_summary(project, recorder.session_id)]
    assert keys == [f"d_{i}" for i in range(1, 21)] + ["a_21"]
    assert not list(spill.glob("*-*.jsonl"))  # spill files resent and removed
    assert not (spill / "dead-letter.jsonl").exists()
    assert client.stats.resent_from_spill == client.stats.spilled


def test_leftovers_at_close_are_spilled_and_resent_by_the_next_client(
    live_api: LiveApi, graph_store: GraphStore, project: str, tmp_path: Path
) -> None:
    spill = tmp_path / "spill"
    live_api.stop()
    first = ProvgraphClient(
        live_api.url, API_KEY, flush_interval=0.05, spill_dir=spill, backoff=FAST, close_timeout=0.3
    )
    recorder = SessionRecorder(first)
    record_session(recorder, reads=3)
    first.close()
    lines = sum(len(p.read_text().splitlines()) for p in spill.glob("spill-*.jsonl"))
    assert lines == 8  # one event per node: nothing dropped at exit
    live_api.start()
    second = ProvgraphClient(
        live_api.url, API_KEY, flush_interval=0.05, spill_dir=spill, backoff=FAST
    )
    assert second.flush(timeout=30)
    second.close()
    assert len(session_nodes(graph_store, project, recorder.session_id)) == 8


def test_refused_events_go_to_the_dead_letter_file(live_api: LiveApi, tmp_path: Path) -> None:
    spill = tmp_path / "spill"
    client = ProvgraphClient(
        live_api.url, "wrong-key", flush_interval=0.05, spill_dir=spill, backoff=FAST
    )
    SessionRecorder(client).run("agent")
    assert client.flush(timeout=10)
    client.close()
    (record,) = [json.loads(x) for x in (spill / "dead-letter.jsonl").read_text().splitlines()]
    assert record["reason"].startswith("HTTP 401") and record["event"]["type"] == "agent_run"


def test_async_client(
    live_api: LiveApi, graph_store: GraphStore, project: str, tmp_path: Path
) -> None:
    async def scenario() -> str:
        client = AsyncProvgraphClient(
            live_api.url,
            API_KEY,
            batch_size=4,
            flush_interval=0.05,
            spill_dir=tmp_path / "spill",
            backoff=FAST,
        )
        recorder = SessionRecorder(client)
        record_session(recorder, reads=5)
        assert await client.flush(timeout=30)
        await client.aclose()
        return recorder.session_id

    session_id = asyncio.run(scenario())
    assert len(session_nodes(graph_store, project, session_id)) == 10


@pytest.mark.parametrize("value", ["2", "0.5"])
def test_retry_after_is_honoured(value: str) -> None:
    from provgraph.sdk.delivery import judge_response

    verdict = judge_response(429, {"retry-after": value}, b"", [])
    assert verdict.retry and verdict.retry_after == float(value)
    assert Backoff(maximum=30).delay(5, verdict.retry_after) == float(value)
