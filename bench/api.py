"""API benchmark: HTTP ingestion vs the store adapter called directly, and GraphQL latency.

Usage::

    python bench/api.py [--json] [--store memory|neo4j] [--neo4j-uri bolt://…]
        [--nodes 100000] [--events 20000] [--requests 200]

Starts the API as a uvicorn subprocess (``services.api.app:create_app``,
embedded store or Neo4j) unless ``.provgraph/up.env`` names a running platform
(``PROVGRAPH_API_URL``/``PROVGRAPH_API_KEY``; then only HTTP figures are
taken against it). With ``--store neo4j`` and no URI it starts a throwaway
Neo4j (``provgraph.ops``).

* **Ingestion**: ``--events`` fresh events through ``POST /v1/events`` in
  batches of 100 and of 1,000 (4 requests in flight, bodies pre-serialised),
  against the same events passed to the adapter's ``ingest`` in this process
  (batches of 1,000). ``ratio`` = best HTTP / direct; the target is ≥ 0.7.
* **GraphQL**: a graph of ``--nodes`` nodes (copies of the fixture session)
  loaded over HTTP, one real verification report produced through the
  ``requestVerification`` mutation, then ``--requests`` sequential queries each
  of ``attribution``, ``citationSummary`` and ``verificationReport``: p50/p99.
  The target is p50 ≤ 30 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from provgraph.config import Settings  # noqa: E402
from provgraph.events import Event  # noqa: E402
from provgraph.store.port import AsyncGraphStore  # noqa: E402
from provgraph.store.types import AttributionQuery  # noqa: E402

FIXTURE = REPO / "tests" / "fixtures" / "multi_agent_session.jsonl"
KEY = "bench-admin-key-" + uuid.uuid4().hex
IN_FLIGHT = 4


def template() -> list[dict[str, Any]]:
    return [json.loads(x) for x in FIXTURE.read_text().splitlines() if x.strip()]


def copy_session(events: list[dict[str, Any]], tag: str) -> list[dict[str, Any]]:
    """The fixture session with every id prefixed: a new session of the same shape."""
    out = []
    for raw in events:
        e = dict(raw)
        e["id"] = f"{tag}:{e['id']}"
        e["node_id"] = f"{tag}:{e['node_id']}"
        e["session_id"] = f"{tag}:{e['session_id']}"
        if e.get("run_id"):
            e["run_id"] = f"{tag}:{e['run_id']}"
        if e.get("parent_ids"):
            e["parent_ids"] = [f"{tag}:{p}" for p in e["parent_ids"]]
        out.append(e)
    return out


def fresh_events(n: int, tag: str) -> list[dict[str, Any]]:
    base = template()
    out: list[dict[str, Any]] = []
    copy = 0
    while len(out) < n:
        out += copy_session(base, f"{tag}{copy}")
        copy += 1
    return out[:n]


def batches(events: list[dict[str, Any]], size: int) -> list[bytes]:
    return [json.dumps(events[i : i + size]).encode() for i in range(0, len(events), size)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def post_all(client: httpx.AsyncClient, bodies: list[bytes]) -> float:
    """Events/s for posting every body with ``IN_FLIGHT`` requests outstanding."""
    queue = list(bodies)
    count = 0
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {KEY}"}

    async def worker() -> None:
        nonlocal count
        while queue:
            body = queue.pop()
            r = await client.post("/v1/events", content=body, headers=headers)
            if r.status_code != 207:
                raise RuntimeError(f"ingest failed: {r.status_code} {r.text[:300]}")
            count += r.json()["accepted"]

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(IN_FLIGHT)))
    return count / (time.perf_counter() - started)


async def direct_rate(
    store: AsyncGraphStore, project: str, events: list[dict[str, Any]], *, validate: bool
) -> float:
    """Adapter ``ingest`` in batches of 1,000 with ``IN_FLIGHT`` calls outstanding (as the
    HTTP run has); ``validate`` also times building the events from JSON."""
    started = time.perf_counter()
    parsed = [Event.model_validate(e) for e in events]
    if not validate:
        started = time.perf_counter()
    chunks = [parsed[i : i + 1000] for i in range(0, len(parsed), 1000)]

    async def worker() -> None:
        while chunks:
            await store.ingest(project, chunks.pop())

    await asyncio.gather(*(worker() for _ in range(IN_FLIGHT)))
    return len(parsed) / (time.perf_counter() - started)


async def adapter_p50(
    store: AsyncGraphStore, project: str, output_id: str, session_id: str, n: int
) -> dict[str, float]:
    """The store calls behind each query, timed alone: what the API adds is the difference."""
    calls: dict[str, Callable[[], Awaitable[object]]] = {
        "attribution": lambda: store.attribution(project, AttributionQuery(output_id, 32, 100)),
        "citationSummary": lambda: store.citation_summary(project, session_id),
        "verificationReport": lambda: store.get_report(project, output_id),
    }
    out = {}
    for name, call in calls.items():
        samples = []
        for _ in range(n):
            started = time.perf_counter()
            await call()
            samples.append((time.perf_counter() - started) * 1000)
        out[name] = round(statistics.median(samples), 2)
    return out


async def gql(client: httpx.AsyncClient, query: str, variables: dict[str, Any]) -> Any:
    r = await client.post(
        "/graphql",
        json={"query": query, "variables": variables},
        headers={"Authorization": f"Bearer {KEY}"},
    )
    body = r.json()
    if body.get("errors"):
        raise RuntimeError(f"GraphQL error: {body['errors'][0]['message']}")
    return body["data"]


QUERIES = {
    "attribution": (
        "query($o: ID!) { attribution(outputId: $o, maxDepth: 32, maxPaths: 100) "
        "{ truncated sources { id label } paths { nodeIds } } }"
    ),
    "citationSummary": (
        "query($s: ID!) { citationSummary(sessionId: $s) { key node { id label } "
        "citedInIds latestVerdicts { verdict confidence } } }"
    ),
    "verificationReport": (
        "query($o: ID!) { verificationReport(outputId: $o) { version "
        "citationsChecked supportRate verdictCounts { verdict count } "
        "citations { keys verdict confidence evidence { start end } } } }"
    ),
}


async def latency(
    client: httpx.AsyncClient, name: str, variables: dict[str, Any], n: int
) -> dict[str, float]:
    for _ in range(10):
        await gql(client, QUERIES[name], variables)
    samples = []
    for _ in range(n):
        started = time.perf_counter()
        await gql(client, QUERIES[name], variables)
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return {
        "p50_ms": round(statistics.median(samples), 2),
        "p99_ms": round(samples[min(len(samples) - 1, int(len(samples) * 0.99))], 2),
    }


async def produce_report(client: httpx.AsyncClient, output_id: str) -> dict[str, Any]:
    mutation = "mutation($o: ID!) { requestVerification(outputId: $o) { id state } }"
    job = (await gql(client, mutation, {"o": output_id}))["requestVerification"]
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        found = (
            await gql(client, "query($j: ID!) { job(id: $j) { state error } }", {"j": job["id"]})
        )["job"]
        if found["state"] in ("DONE", "FAILED"):
            return dict(found)
        await asyncio.sleep(0.5)
    raise RuntimeError("verification job did not finish in 10 minutes")


async def run(
    args: argparse.Namespace, base_url: str, store: AsyncGraphStore | None
) -> dict[str, Any]:
    result: dict[str, Any] = {}
    limits = httpx.Limits(max_connections=IN_FLIGHT + 2)
    async with httpx.AsyncClient(base_url=base_url, timeout=600, limits=limits) as client:
        tag = uuid.uuid4().hex[:6]
        base = template()
        copies = max(1, args.nodes // 35)
        load = [e for c in range(copies) for e in copy_session(base, f"g{tag}-{c}")]
        load_rate = await post_all(client, batches(load, 1000))
        result["graph"] = {
            "sessions": copies,
            "events": len(load),
            "load_events_per_s": round(load_rate),
        }
        http: dict[str, float] = {}
        for size in (100, 1000):
            events = fresh_events(args.events, f"h{size}{tag}-")
            http[str(size)] = round(await post_all(client, batches(events, size)))
        result["http_events_per_s"] = http
        if store is not None:
            direct = await direct_rate(
                store, f"direct-{tag}", fresh_events(args.events, "d-"), validate=False
            )
            validated = await direct_rate(
                store, f"directv-{tag}", fresh_events(args.events, "v-"), validate=True
            )
            result["direct_events_per_s"] = round(direct)
            result["direct_with_validation_events_per_s"] = round(validated)
            result["ratio"] = round(max(http.values()) / direct, 3)
        mid = copies // 2
        output_id, session_id = f"g{tag}-{mid}:coord.final", f"g{tag}-{mid}:sess-energy-2026-03-14"
        started = time.perf_counter()
        result["verification_job"] = await produce_report(client, output_id)
        result["verification_job"]["seconds"] = round(time.perf_counter() - started, 1)
        result["graphql"] = {
            "attribution": await latency(client, "attribution", {"o": output_id}, args.requests),
            "citationSummary": await latency(
                client, "citationSummary", {"s": session_id}, args.requests
            ),
            "verificationReport": await latency(
                client, "verificationReport", {"o": output_id}, args.requests
            ),
        }
        if store is not None and args.store == "neo4j":  # the API's own store is shared
            result["adapter_p50_ms"] = await adapter_p50(
                store, "bench", output_id, session_id, min(args.requests, 50)
            )
    return result


async def run_with_store(args: argparse.Namespace, url: str, settings: Settings) -> dict[str, Any]:
    """One event loop for the whole run: an async driver must not cross loops."""
    from services.api.state import open_async_store

    store = await open_async_store(settings)
    try:
        return await run(args, url, store)
    finally:
        await store.close()


def start_api(env: dict[str, str], log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "uvicorn",
        "--factory",
        "services.api.app:create_app",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--no-access-log",
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"API exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(url + "/readyz", timeout=5).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise RuntimeError("API did not become ready")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--store", choices=("memory", "neo4j"), default="memory")
    parser.add_argument("--neo4j-uri", default=os.environ.get("PROVGRAPH_TEST_NEO4J_URI"))
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    global KEY
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="provgraph-bench-")))
        up_env = REPO / ".provgraph" / "up.env"
        env = {k: v for k, v in os.environ.items() if not k.startswith("PROVGRAPH_")}
        env.update(
            {
                "PROVGRAPH_HOME": str(tmp / "api"),
                "PROVGRAPH_BOOTSTRAP_ADMIN_KEY": KEY,
                "PROVGRAPH_PROJECT": "bench",
                "PROVGRAPH_AUTO_VERIFY": "false",
            }
        )
        settings = Settings(home=tmp / "direct")
        if args.store == "neo4j":
            uri = args.neo4j_uri
            if not uri:
                from provgraph.ops.neo4j_server import start_neo4j, stop_neo4j

                handle = start_neo4j(tmp / "neo4j", bolt_port=free_port(), auth=False)
                stack.callback(stop_neo4j, tmp / "neo4j")
                uri = str(handle.uri)
            env["PROVGRAPH_NEO4J_URI"] = uri
            settings = Settings(neo4j_uri=uri)
        if up_env.exists() and not args.neo4j_uri:
            lines = up_env.read_text().splitlines()
            values = dict(line.split("=", 1) for line in lines if "=" in line)
            url, KEY = values["PROVGRAPH_API_URL"], values["PROVGRAPH_API_KEY"]
        else:
            proc, url = start_api(env, tmp / "api.log")
            stack.callback(proc.wait, 30)
            stack.callback(proc.terminate)
        result = asyncio.run(run_with_store(args, url, settings))
    result["store"] = args.store
    result["machine"] = (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"HTTP ingestion events/s: {result['http_events_per_s']}  direct: "
            f"{result.get('direct_events_per_s')}  ratio: {result.get('ratio')}"
        )
        for name, figures in result["graphql"].items():
            print(f"{name}: p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
