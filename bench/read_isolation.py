"""Ingest latency while a heavy GraphQL query runs (issue 16): real uvicorn + real Neo4j.

Usage::

    PROVGRAPH_TEST_NEO4J_URI=bolt://127.0.0.1:7687 python bench/read_isolation.py \\
        [--sessions 20] [--nodes 500] [--only pathological|heavy-allowed]

Starts the API as a uvicorn subprocess on the given Neo4j, seeds ``sessions`` ×
``nodes`` events (a chain with two parents per node), measures a 10-event ingest
alone, then runs each query while ingesting 10 events every 0.1 s, and prints the
query's time and answer and the concurrent ingests' median and max latency, and
the API's resident memory at the end.
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
        print(f"10-event ingest alone: median {statistics.median(alone) * 1000:.0f} ms")
        for name, query in QUERIES.items():
            if args.only and name != args.only:
                continue
            started = time.perf_counter()
            task = asyncio.create_task(client.post("/graphql", json={"query": query}))
            await asyncio.sleep(0.3)
            during: list[tuple[float, int]] = []
            while not task.done():
                during.append(await _ingest(client))
                await asyncio.sleep(0.1)
            answer = await task
            took = time.perf_counter() - started
            print(f"{name}: {took:.2f}s, HTTP {answer.status_code}, {answer.text[:120]!r}")
            if during:
                times = [t for t, _ in during]
                median, worst = statistics.median(times) * 1000, max(times) * 1000
                statuses = sorted({s for _, s in during})
                print(
                    f"  {len(during)} ingests meanwhile: median {median:.0f} ms, "
                    f"max {worst:.0f} ms, statuses {statuses}"
                )
        rss = subprocess.run(["ps", "-o", "rss=", "-p", str(pid)], capture_output=True, text=True)
        print(f"API RSS: {int(rss.stdout.strip()) // 1024} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--nodes", type=int, default=500)
    parser.add_argument("--only", choices=sorted(QUERIES))
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
