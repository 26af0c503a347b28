"""`make up` / `make down` end to end: real Neo4j, Redis, worker and API on free ports.

An agent session posted as events becomes queryable (attribution, citation summary)
and gets a verification report from the worker without anyone asking (auto-verify).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from provgraph.ops._process import free_port, is_alive, read_pid
from provgraph.ops.platform import PlatformPaths, down, up

DEMO = Path(__file__).parents[2] / "provgraph" / "examples" / "demo_session.jsonl"
pytestmark = [pytest.mark.neo4j, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def platform(tmp_path: Path) -> Iterator[tuple[PlatformPaths, dict[str, str]]]:
    paths = PlatformPaths(tmp_path / "pg")
    ports = {"api_port": free_port(), "bolt_port": free_port(), "redis_port": free_port()}
    try:
        env = up(paths, **ports)
        yield paths, env
    finally:
        down(paths)


def _gql(client: httpx.Client, query: str) -> dict[str, Any]:
    response = client.post("/graphql", json={"query": query})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert "errors" not in body, body
    return body["data"]


def test_up_ingest_verify_query_down(platform: tuple[PlatformPaths, dict[str, str]]) -> None:
    paths, env = platform
    assert paths.up_env.read_text().count("PROVGRAPH_API_KEY=") == 1
    pids = {s: read_pid(paths.pid_file(s)) for s in ("neo4j", "redis", "worker", "api")}
    assert all(pid is not None and is_alive(pid) for pid in pids.values()), pids

    events = [json.loads(line) for line in DEMO.read_text().splitlines() if line.strip()]
    headers = {"Authorization": f"Bearer {env['PROVGRAPH_API_KEY']}"}
    with httpx.Client(base_url=env["PROVGRAPH_API_URL"], headers=headers, timeout=60) as client:
        posted = client.post("/v1/events", json=events)
        assert posted.status_code == 207
        assert posted.json()["accepted"] == len(events)

        data = _gql(client, '{ attribution(outputId: "coord-output") { sources { id } } }')
        assert {s["id"] for s in data["attribution"]["sources"]} >= {"res-read-1", "ana-read-1"}
        summary = _gql(client, '{ citationSummary(sessionId: "demo-session-1") { key } }')
        assert [e["key"] for e in summary["citationSummary"]] == ["d_1", "d_2", "a_3", "d_4", "a_5"]

        report = None
        deadline = time.monotonic() + 240
        while report is None and time.monotonic() < deadline:
            report = _gql(
                client, '{ verificationReport(outputId: "coord-output") { citationsChecked } }'
            )["verificationReport"]
            time.sleep(2)
        assert report is not None, "the worker produced no report within 240 s"
        assert report["citationsChecked"] == 7

    again = up(
        paths,
        api_port=int(env["PROVGRAPH_API_URL"].rsplit(":", 1)[1]),
        bolt_port=int(env["PROVGRAPH_NEO4J_URI"].rsplit(":", 1)[1]),
        redis_port=int(env["PROVGRAPH_BROKER_URL"].rsplit(":", 1)[1].split("/")[0]),
    )
    assert again["PROVGRAPH_API_KEY"] == env["PROVGRAPH_API_KEY"]
    assert {s: read_pid(paths.pid_file(s)) for s in pids} == pids  # nothing restarted

    assert set(down(paths)) == {"api", "worker", "redis", "neo4j"}
    assert not any(is_alive(pid) for pid in pids.values() if pid is not None)
