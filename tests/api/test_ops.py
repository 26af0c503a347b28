"""Operations and exports: health, readiness, metrics, request ids, logs, exports, a real socket."""

from __future__ import annotations

import json
import logging

import httpx
import pytest

from provgraph.config import Settings
from provgraph.store.async_memory import AsyncMemoryGraphStore
from services.api.app import create_app
from services.api.rest.health import ping_redis
from tests.api.conftest import BOOTSTRAP, SESSION_ID, Env, session_events


async def test_health_ready_metrics(seeded: Env) -> None:
    assert (await seeded.client.get("/healthz")).json() == {"status": "ok"}
    ready = await seeded.client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["checks"] == {"store": "ok"}
    metrics = (await seeded.client.get("/metrics")).text
    assert 'provgraph_events_total{status="accepted"} 38.0' in metrics
    assert 'provgraph_http_requests_total{method="POST",route="/v1/events",status="207"}' in metrics
    assert "provgraph_http_request_duration_seconds_bucket" in metrics
    await seeded.gql("{ __typename }")
    metrics = (await seeded.client.get("/metrics")).text
    assert 'route="/graphql",status="200"' in metrics
    assert 'provgraph_jobs{state="queued"}' in metrics
    await seeded.post_events(session_events()[:2])
    await seeded.post_events([{"id": "bad"}])
    metrics = (await seeded.client.get("/metrics")).text
    assert 'provgraph_events_total{status="duplicate"} 2.0' in metrics
    assert 'provgraph_events_total{status="rejected"} 1.0' in metrics


async def test_readyz_reports_an_unreachable_broker(settings: Settings) -> None:
    broken = settings.model_copy(update={"broker_url": "redis://127.0.0.1:1/0"})
    app = create_app(broken, store=AsyncMemoryGraphStore(None))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        r = await c.get("/readyz")
    assert r.status_code == 503 and r.json()["checks"]["broker"].startswith("unreachable")
    assert r.json()["checks"]["store"] == "ok" and r.headers["Retry-After"] == "5"
    assert await ping_redis("http://x") == "unsupported broker scheme 'http'"


async def test_request_id_is_echoed_or_generated_and_logged(
    seeded: Env, caplog: pytest.LogCaptureFixture
) -> None:
    logger = logging.getLogger("provgraph")
    logger.addHandler(caplog.handler)
    try:
        r = await seeded.client.get("/healthz", headers={"X-Request-ID": "abc-123"})
        assert r.headers["X-Request-ID"] == "abc-123"
        generated = await seeded.client.get("/healthz", headers={"X-Request-ID": "bad id\n"})
        assert len(generated.headers["X-Request-ID"]) == 32
        await seeded.post_events(session_events()[:1])
    finally:
        logger.removeHandler(caplog.handler)
    access = [rec for rec in caplog.records if rec.name == "provgraph.api.access"]
    assert any(
        getattr(rec, "route", None) == "/v1/events" and rec.__dict__.get("project")
        for rec in access
    )
    from services.api.logs import JsonFormatter

    line = json.loads(JsonFormatter().format(access[-1]))
    assert line["msg"] == "request" and line["status"] == 207 and "duration_ms" in line


@pytest.mark.parametrize(
    ("fmt", "media", "marker"),
    [
        ("json", "application/json", '"nodes"'),
        ("mermaid", "text/plain", "flowchart"),
        ("dot", "text/vnd.graphviz", "digraph"),
        ("html", "text/html", "<html"),
        ("prov", "application/json", '"entity"'),
    ],
)
async def test_exports(seeded: Env, fmt: str, media: str, marker: str) -> None:
    r = await seeded.client.get(
        f"/v1/sessions/{SESSION_ID}/export",
        params={"format": fmt},
        headers=seeded.headers("acme", "read"),
    )
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith(media)
    assert marker in r.text
    assert "coord.final" in r.text or "coord_final" in r.text or fmt == "html"


async def test_export_errors(seeded: Env) -> None:
    h = seeded.headers("acme", "read")
    assert (await seeded.client.get("/v1/sessions/nope/export", headers=h)).status_code == 404
    bad = await seeded.client.get(f"/v1/sessions/{SESSION_ID}/export?format=pdf", headers=h)
    assert bad.status_code == 422 and bad.json()["error"]["path"] == "query.format"


async def test_graphiql_page_served_without_a_key(seeded: Env) -> None:
    r = await seeded.client.get("/graphql", headers={"Accept": "text/html"})
    assert r.status_code == 200 and "graphiql" in r.text.lower()


def test_through_a_real_uvicorn_socket(live_server: str) -> None:
    """The app under uvicorn with its lifespan: the embedded store opened from settings."""
    headers = {"Authorization": f"Bearer {BOOTSTRAP}"}
    with httpx.Client(base_url=live_server, timeout=10) as client:
        assert client.get("/healthz").status_code == 200
        assert client.get("/readyz").status_code == 200
        r = client.post("/v1/events", json=session_events(), headers=headers)
        assert r.status_code == 207 and r.json()["accepted"] == len(session_events())
        q = {
            "query": "query($id: ID!) { session(id: $id) { runCount } }",
            "variables": {"id": SESSION_ID},
        }
        assert client.post("/graphql", json=q, headers=headers).json() == {
            "data": {"session": {"runCount": 3}}
        }
        assert (
            client.post(
                "/v1/events", content=b"{", headers={**headers, "Content-Type": "application/json"}
            ).status_code
            == 422
        )
