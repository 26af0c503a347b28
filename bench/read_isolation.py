"""Ingest latency while a heavy GraphQL query runs (issue 16): real uvicorn + real Neo4j.

Usage::

    PROVGRAPH_TEST_NEO4J_URI=bolt://127.0.0.1:7687 python bench/read_isolation.py \\
        [--sessions 20] [--nodes 500] [--only pathological|heavy-allowed|cpu-heavy] [--repeat 1]

Starts the API as a uvicorn subprocess on the given Neo4j, seeds ``sessions`` ×
``nodes`` events (a chain with two parents per node), measures a 10-event ingest
alone, then runs each query while ingesting 10 events every 0.1 s and asking
``/healthz`` every 20 ms, and prints the query's time and answer, the concurrent
ingests' median and max latency (and how many finished before the query did), the
``/healthz`` latencies (the API's own responsiveness: no store call, so Neo4j's
CPU does not count), and the API's resident memory at the end. ``--repeat N``
runs each query N times (fresh ingests each time) and reports all of them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from typing import Any

import httpx

KEY = "bench-admin-key-0123456789abcdef0123"
QUERIES = {
    "pathological": "{ sessions(first:100){ edges{ node{ id nodes(first:1000){ id "
    "parents{ id } children{ id } } } } } }",
    "heavy-allowed": "{ sessions(first:20){ edges{ node{ id nodes(first:100){ id "
    "parents{ id } children{ id } } } } } }",
    # The same 5 sessions under 15 aliases: read once (the request's loaders cache the
    # graphs), then ~500,000 fields resolved in the API: CPU, hardly any store time.
    "cpu-heavy": "{ "
    + " ".join(
        f"a{i}: sessions(first:5){{ edges{{ node{{ id nodes(first:500){{ id type label "
        "agentName runId timestamp sessionId content citationKey data isPlaceholder status "
        "failed } } } }"
        for i in range(15)
    )
    + " }",
}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _events(session: str, count: int, prefix: str) -> list[dict[str, Any]]:
    out = []
    for i in range(count):
        event: dict[str, Any] = {
            "id": f"{prefix}-{session}-{i}",
            "type": "model_request" if i % 2 else "data_read",
            "timestamp": f"2026-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}Z",
            "session_id": session,
            "node_id": f"{session}-n{i}",
        }
        if i:
            event["parent_ids"] = [f"{session}-n{j}" for j in (i - 1, i - 2) if j >= 0]
        out.append(event)
    return out


async def _ingest(client: httpx.AsyncClient) -> tuple[float, int]:
    events = _events(f"live-{uuid.uuid4().hex[:8]}", 10, "live")
    started = time.perf_counter()
    response = await client.post("/v1/events", json=events)
    return time.perf_counter() - started, response.status_code


async def _probe(client: httpx.AsyncClient, running: asyncio.Task[Any]) -> list[float]:
    """``/healthz`` latencies while ``running`` is not done (one at a time, every 20 ms)."""
    out = []
    while not running.done():
        started = time.perf_counter()
        await client.get("/healthz")
        out.append(time.perf_counter() - started)
        await asyncio.sleep(0.02)
    return out


def _ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms"


async def _during(client: httpx.AsyncClient, name: str, query: str) -> None:
    started = time.perf_counter()
    task = asyncio.create_task(client.post("/graphql", json={"query": query}))
    probe = asyncio.create_task(_probe(client, task))
    await asyncio.sleep(0.3)
    during: list[tuple[float, int, bool]] = []
    while not task.done():
        took, status = await _ingest(client)
        during.append((took, status, not task.done()))
        await asyncio.sleep(0.1)
    answer = await task
    took = time.perf_counter() - started
    health = await probe
    print(f"{name}: {took:.2f}s, HTTP {answer.status_code}, {answer.text[:120]!r}")
    if during:
        statuses = sorted({s for _, s, _ in during})
        before = sum(1 for _, _, first in during if first)
        print(
            f"  {len(during)} ingests meanwhile: {_ms([t for t, _, _ in during])}, "
            f"statuses {statuses}, {before} finished before the query"
        )
    if health:
        print(f"  {len(health)} /healthz meanwhile: {_ms(health)}")


async def _run(args: argparse.Namespace, base: str, pid: int) -> None:
    async with httpx.AsyncClient(
        base_url=base, timeout=300, headers={"Authorization": f"Bearer {KEY}"}
    ) as client:
        for _ in range(300):
            try:
                if (await client.get("/healthz")).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
        started = time.perf_counter()
        for s in range(args.sessions):
            events = _events(f"s{s}", args.nodes, "seed")
            for k in range(0, len(events), 1000):
                response = await client.post("/v1/events", json=events[k : k + 1000])
                assert response.status_code == 207, response.text
        print(f"seeded {args.sessions * args.nodes} events in {time.perf_counter() - started:.1f}s")
        alone = [(await _ingest(client))[0] for _ in range(10)]
        print(f"10-event ingest alone: {_ms(alone)}")
        health = []
        for _ in range(20):
            began = time.perf_counter()
            await client.get("/healthz")
            health.append(time.perf_counter() - began)
        print(f"/healthz alone: {_ms(health)}")
        for name, query in QUERIES.items():
            if not args.only or name == args.only:
                for _ in range(args.repeat):
                    await _during(client, name, query)
        rss = subprocess.run(["ps", "-o", "rss=", "-p", str(pid)], capture_output=True, text=True)
        print(f"API RSS: {int(rss.stdout.strip()) // 1024} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--nodes", type=int, default=500)
    parser.add_argument("--only", choices=sorted(QUERIES))
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    port = _free_port()
    env = dict(
        os.environ,
        PROVGRAPH_NEO4J_URI=os.environ["PROVGRAPH_TEST_NEO4J_URI"],
        PROVGRAPH_BOOTSTRAP_ADMIN_KEY=KEY,
        PROVGRAPH_PROJECT=f"bench-{uuid.uuid4().hex[:6]}",
        PROVGRAPH_AUTO_VERIFY="false",
        PROVGRAPH_HOME=tempfile.mkdtemp(prefix="provgraph-bench-"),
        PROVGRAPH_LOG_LEVEL="WARNING",
    )
    argv = [sys.executable, "-m", "uvicorn", "--factory", "services.api.app:create_app"]
    argv += ["--port", str(port), "--log-level", "warning", "--no-access-log"]
    api = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        asyncio.run(_run(args, f"http://127.0.0.1:{port}", api.pid))
    finally:
        api.terminate()
        api.wait(10)


if __name__ == "__main__":
    main()
