"""POST /v1/events: status codes per error class, partial batches, duplicates, order."""

from __future__ import annotations

import gzip
import json
import random
from typing import Any

import httpx

from provgraph.errors import StoreUnavailableError
from provgraph.store.async_memory import AsyncMemoryGraphStore
from services.api.app import create_app
from tests.api.conftest import FINAL_ID, SESSION_ID, Env, session_events


def _event(i: int, **over: Any) -> dict[str, Any]:
    base = {
        "id": f"e-{i}",
        "type": "data_read",
        "timestamp": "2026-01-01T00:00:00Z",
        "session_id": "s-1",
        "node_id": f"n-{i}",
    }
    return {**base, **over}


async def test_whole_session_accepted_then_queryable(env: Env) -> None:
    response = await env.post_events(session_events())
    assert response.status_code == 207
    body = response.json()
    assert body["accepted"] == len(session_events()) and body["rejected"] == 0
    assert [r["index"] for r in body["results"]] == list(range(len(session_events())))
    assert all(r["status"] == "accepted" and r["error"] is None for r in body["results"])
    node = await env.store.get_node(env.project("acme"), FINAL_ID)
    assert node is not None and node.session_id == SESSION_ID


async def test_partially_bad_batch_applies_the_good_events(env: Env) -> None:
    batch = [
        _event(0),
        _event(1, timestamp="2026-01-01T00:00:00"),  # no offset
        "not an object",
        _event(3, type="spaceship"),
        _event(4, edges=[{"source_id": "n-0", "label": "teleports"}]),
        _event(5, unknown_field=1),
        _event(6),
    ]
    response = await env.post_events(batch)
    assert response.status_code == 207
    results = response.json()["results"]
    assert [r["status"] for r in results] == [
        "accepted",
        "rejected",
        "rejected",
        "rejected",
        "rejected",
        "rejected",
        "accepted",
    ]
    assert results[1]["error"]["path"] == "timestamp"
    assert "offset" in results[1]["error"]["reason"]
    assert results[2]["id"] is None and "JSON object" in results[2]["error"]["reason"]
    assert results[3]["error"]["path"] == "type" and results[3]["id"] == "e-3"
    assert results[4]["error"]["path"] == "edges[0].label"
    assert results[5]["error"]["path"] == "unknown_field"
    project = env.project("acme")
    assert await env.store.get_node(project, "n-0") is not None
    assert await env.store.get_node(project, "n-1") is None


async def test_duplicate_delivery_is_reported_and_changes_nothing(env: Env) -> None:
    events = session_events()[:10]
    first = await env.post_events(events)
    again = await env.post_events(events)
    assert first.json()["accepted"] == 10
    assert again.status_code == 207
    assert again.json()["duplicate"] == 10
    assert {r["status"] for r in again.json()["results"]} == {"duplicate"}
    # the same id twice in one batch: first accepted, second a duplicate
    twice = await env.post_events([_event(50), _event(50)])
    assert [r["status"] for r in twice.json()["results"]] == ["accepted", "duplicate"]


async def test_out_of_order_delivery_builds_the_same_graph(env: Env) -> None:
    events = session_events()
    shuffled = events[:]
    random.Random(7).shuffle(shuffled)
    ordered_project, shuffled_project = env.project("acme"), env.project("globex")
    assert (await env.post_events(events)).json()["accepted"] == len(events)
    assert (await env.post_events(shuffled, project="globex")).json()["accepted"] == len(events)
    a = await env.store.session_graph(ordered_project, SESSION_ID)
    b = await env.store.session_graph(shuffled_project, SESSION_ID)
    assert a.nodes == b.nodes
    assert sorted((e.source_id, e.target_id, e.label) for e in a.edges) == sorted(
        (e.source_id, e.target_id, e.label) for e in b.edges
    )


async def test_child_before_parent_creates_placeholder_then_fills_it(env: Env) -> None:
    events = {e["node_id"]: e for e in session_events()}
    child = events["de.data1"]
    await env.post_events([child])
    parent = await env.store.get_node(env.project("acme"), "de.call.read1")
    assert parent is not None and parent.is_placeholder
    await env.post_events([events["de.call.read1"]])
    parent = await env.store.get_node(env.project("acme"), "de.call.read1")
    assert parent is not None and not parent.is_placeholder


async def test_json_lines_and_gzip(env: Env) -> None:
    lines = "\n".join(json.dumps(e) for e in session_events()[:5]) + "\n\n{broken\n"
    response = await env.client.post(
        "/v1/events",
        content=gzip.compress(lines.encode()),
        headers={
            **env.headers("acme", "ingest"),
            "Content-Type": "application/x-ndjson",
            "Content-Encoding": "gzip",
        },
    )
    assert response.status_code == 207, response.text
    results = response.json()["results"]
    assert [r["status"] for r in results] == ["accepted"] * 5 + ["rejected"]
    assert "line 7" in results[-1]["error"]["reason"]


async def test_error_classes(env: Env) -> None:
    h = env.headers("acme", "ingest")
    post = env.client.post
    assert (await post("/v1/events", json=[])).status_code == 401
    assert (
        await post("/v1/events", json=[], headers={"Authorization": "Bearer pgk_nope"})
    ).status_code == 401
    assert (await env.post_events([], role="read")).status_code == 403
    r = await post("/v1/events", content=b"[]", headers={**h, "Content-Type": "text/plain"})
    assert r.status_code == 415 and r.json()["error"]["code"] == "unsupported_media_type"
    r = await post(
        "/v1/events",
        content=b"[]",
        headers={**h, "Content-Type": "application/json", "Content-Encoding": "br"},
    )
    assert r.status_code == 415
    r = await post("/v1/events", content=b"[{,", headers={**h, "Content-Type": "application/json"})
    assert r.status_code == 422 and "line 1" in r.json()["error"]["message"]
    json_h = {**h, "Content-Type": "application/json"}
    r = await post("/v1/events", content=b'{"id": 1}', headers=json_h)
    assert r.status_code == 422 and "JSON array" in r.json()["error"]["message"]
    r = await post("/v1/events", content=b"\xff\xfe", headers=json_h)
    assert r.status_code == 422
    r = await post(
        "/v1/events",
        content=b"not gzip",
        headers={**h, "Content-Type": "application/json", "Content-Encoding": "gzip"},
    )
    assert r.status_code == 422
    too_many = [_event(i) for i in range(101)]
    r = await env.post_events(too_many)
    assert r.status_code == 413 and "PROVGRAPH_MAX_BATCH_EVENTS" in r.json()["error"]["message"]
    big = b"[" + b" " * (300 * 1024) + b"]"
    r = await post("/v1/events", content=big, headers={**h, "Content-Type": "application/json"})
    assert r.status_code == 413
    bomb = gzip.compress(b"[" + b" " * (2 * 1024 * 1024) + b"]")
    r = await post(
        "/v1/events",
        content=bomb,
        headers={**h, "Content-Type": "application/json", "Content-Encoding": "gzip"},
    )
    assert r.status_code == 413 and "decompression" in r.json()["error"]["message"]
    for response in (r,):
        assert "Traceback" not in response.text


class _DownStore(AsyncMemoryGraphStore):
    async def ingest(self, project: str, events: Any) -> Any:
        raise StoreUnavailableError("graph store is restarting", retry_after=7.2)


async def test_store_unavailable_is_503_with_retry_after(env: Env, settings: Any) -> None:
    app = create_app(settings, store=_DownStore(None))
    _, token = app.state.provgraph.keys().create("acme", "ingest")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        auth = {"Authorization": f"Bearer {token}"}
        r = await c.post("/v1/events", json=[_event(1)], headers=auth)
    assert r.status_code == 503
    assert r.headers["Retry-After"] == "8"
    assert r.json()["error"]["code"] == "unavailable"
    assert r.headers["X-Request-ID"] == r.json()["request_id"]


async def test_timestamps_the_store_cannot_order_are_rejected_not_500(env: Env) -> None:
    batch = [
        _event(1, timestamp="0258-11-10T16:07:54.6Z"),
        _event(2, timestamp="0001-01-01T00:00:00+01:00"),
        _event(3),
    ]
    r = await env.post_events(batch)
    assert r.status_code == 207
    assert [x["status"] for x in r.json()["results"]] == ["rejected", "rejected", "accepted"]
    assert r.json()["results"][0]["error"]["path"] == "timestamp"


async def test_auto_verify_requests_each_new_final_output_once(
    settings: Any, verifier: Any
) -> None:
    store = AsyncMemoryGraphStore(None)
    verifier.store = store
    app = create_app(
        settings.model_copy(update={"auto_verify": True}), store=store, verifier=verifier
    )
    _, token = app.state.provgraph.keys().create("acme", "ingest")
    auth = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        assert (await c.post("/v1/events", json=session_events(), headers=auth)).status_code == 207
        await c.post("/v1/events", json=session_events(), headers=auth)  # duplicates: no new job
    assert verifier.calls == [("acme", FINAL_ID)]
