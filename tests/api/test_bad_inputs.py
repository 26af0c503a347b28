"""Inputs that used to answer 500: now a 4xx (or a rejected event) saying what and where.

Each case was found by the load and bad-input campaign (issue 16): 100,000-deep
JSON (body, ``data``, JSON Lines, GraphQL variables), a 4,301-digit integer, a
lone surrogate in an id, NaN/Infinity in ``data``, an integer timestamp, a
citation key outside the grammar, and a project header naming another tenant.
Runs on the embedded store and on Neo4j; nothing a rejection names is stored.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.api.conftest import Env

DEEP = "[" * 100_000 + "]" * 100_000


def _event(node: str = "n1", **extra: Any) -> dict[str, Any]:
    event = {
        "id": f"e-{node}",
        "type": "data_read",
        "timestamp": "2026-01-01T00:00:00Z",
        "session_id": "s-bad",
        "node_id": node,
    }
    event.update(extra)
    return event


def _with_raw_data(node: str, raw_data: str) -> str:
    head = json.dumps(_event(node))[:-1]
    return f'{head}, "data": {{"a": {raw_data}}}}}'


async def _post(env: Env, body: str, kind: str = "application/json") -> httpx.Response:
    headers = {**env.headers("acme", "ingest"), "Content-Type": kind}
    return await env.client.post(
        "/v1/events", content=body.encode("utf-8", "surrogatepass"), headers=headers
    )


async def _stored(env: Env, node: str) -> bool:
    return await env.store.get_node(env.project("acme"), node) is not None


async def test_deep_body_is_422_naming_line_column_and_element(env: Env) -> None:
    response = await _post(env, DEEP)
    assert response.status_code == 422
    message = response.json()["error"]["message"]
    assert "deeper" in message and "line 1 column" in message and "element [0]" in message


async def test_deep_data_field_is_422_and_nothing_of_the_batch_is_stored(env: Env) -> None:
    body = f"[{json.dumps(_event('ok-1'))}, {_with_raw_data('deep-1', DEEP)}]"
    response = await _post(env, body)
    assert response.status_code == 422
    assert "element [1]" in response.json()["error"]["message"]
    assert not await _stored(env, "ok-1")


async def test_deep_json_lines_line_is_rejected_alone(env: Env) -> None:
    body = f"{json.dumps(_event('ok-2'))}\n{DEEP}\n"
    response = await _post(env, body, "application/x-ndjson")
    assert response.status_code == 207
    results = response.json()["results"]
    assert [r["status"] for r in results] == ["accepted", "rejected"]
    assert "line 2" in results[1]["error"]["reason"] and "deeper" in results[1]["error"]["reason"]
    assert await _stored(env, "ok-2")


async def test_moderately_deep_data_is_rejected_with_its_path(env: Env) -> None:
    response = await _post(env, f"[{_with_raw_data('deep-2', '[' * 200 + ']' * 200)}]")
    assert response.status_code == 207
    error = response.json()["results"][0]["error"]
    assert error["path"].startswith("data.a[0]") and "deeper than 64" in error["reason"]
    assert not await _stored(env, "deep-2")


async def test_huge_integer_is_rejected_with_its_path(env: Env) -> None:
    response = await _post(env, f"[{_with_raw_data('big-1', '9' * 4301)}]")
    assert response.status_code == 207
    result = response.json()["results"][0]
    assert result["status"] == "rejected"
    assert result["error"]["path"] == "data.a" and "4301 digits" in result["error"]["reason"]
    assert not await _stored(env, "big-1")


async def test_lone_surrogate_id_is_rejected_and_echoed_printably(env: Env) -> None:
    body = json.dumps([_event("sur-1", id="R-\udc00")])  # json.dumps writes the \udc00 escape
    response = await _post(env, body)
    assert response.status_code == 207
    result = response.json()["results"][0]
    assert result["id"] == "R-\\udc00"
    assert result["error"]["path"] == "id" and "surrogate" in result["error"]["reason"]
    assert not await _stored(env, "sur-1")


async def test_nan_and_infinity_rejected_and_never_served(env: Env) -> None:
    for node, literal in (("nan-1", "NaN"), ("inf-1", "Infinity"), ("inf-2", "-Infinity")):
        response = await _post(env, f"[{_with_raw_data(node, literal)}]")
        assert response.status_code == 207
        result = response.json()["results"][0]
        assert result["status"] == "rejected" and result["error"]["path"] == "data.a"
        assert literal in result["error"]["reason"]
        assert not await _stored(env, node)
    overflow = await _post(env, f"[{_with_raw_data('inf-3', '1e400')}]")
    assert overflow.json()["results"][0]["error"]["path"] == "data.a"


async def test_integer_timestamp_and_bad_citation_key_rejected(env: Env) -> None:
    response = await env.post_events(
        [_event("ts-1", timestamp=1_700_000_000), _event("key-1", citation_key="zz")]
    )
    results = response.json()["results"]
    assert [r["status"] for r in results] == ["rejected", "rejected"]
    assert results[0]["error"]["path"] == "timestamp"
    assert "seconds since 1970" in results[0]["error"]["reason"]
    assert results[1]["error"]["path"] == "citation_key" and "d_N" in results[1]["error"]["reason"]


async def test_graphql_deep_or_huge_variables_are_422(env: Env) -> None:
    headers = {**env.headers("acme", "read"), "Content-Type": "application/json"}
    deep = '{"query": "{ __typename }", "variables": {"a": ' + DEEP + "}}"
    response = await env.client.post("/graphql", content=deep, headers=headers)
    assert response.status_code == 422
    assert "deeper" in response.json()["error"]["message"]
    huge = '{"query": "{ __typename }", "variables": {"n": ' + "9" * 4301 + "}}"
    response = await env.client.post("/graphql", content=huge, headers=headers)
    assert response.status_code == 422
    body = response.json()["error"]
    assert body["path"] == "variables.n" and "4301 digits" in body["message"]


async def test_project_header_naming_another_project_is_403_on_events(env: Env) -> None:
    other = env.project("globex")
    headers = {**env.headers("acme", "ingest"), "X-Provgraph-Project": other}
    response = await env.client.post("/v1/events", json=[_event("hdr-1")], headers=headers)
    assert response.status_code == 403
    error = response.json()["error"]
    assert error["path"] == "X-Provgraph-Project" and other in error["message"]
    assert not await _stored(env, "hdr-1")
    same = {**env.headers("acme", "ingest"), "X-Provgraph-Project": env.project("acme")}
    ok = await env.client.post("/v1/events", json=[_event("hdr-2")], headers=same)
    assert ok.status_code == 207 and ok.json()["accepted"] == 1


async def test_project_header_naming_another_project_is_403_on_traces(env: Env) -> None:
    headers = {
        **env.headers("acme", "ingest"),
        "X-Provgraph-Project": env.project("globex"),
        "Content-Type": "application/json",
    }
    response = await env.client.post(
        "/v1/traces", content=b'{"resourceSpans": []}', headers=headers
    )
    assert response.status_code == 403
    assert env.project("globex") in response.json()["error"]["message"]


async def test_a_non_finite_value_stored_before_the_rule_is_served_as_null(env: Env) -> None:
    from datetime import UTC, datetime

    from provgraph.events import Event
    from provgraph.graph import NodeType

    legacy = Event.model_construct(  # bypasses validation, as data stored by older versions
        id="e-legacy",
        type=NodeType.DATA_READ,
        timestamp=datetime(2026, 1, 1, tzinfo=UTC),
        session_id="s-bad",
        node_id="legacy-nan",
        run_id=None,
        agent_name=None,
        label=None,
        parent_ids=[],
        edges=[],
        citation_key=None,
        content=None,
        data={"score": float("nan"), "ok": 1.5},
    )
    await env.store.ingest(env.project("acme"), [legacy])
    response = await env.client.post(
        "/graphql",
        json={"query": '{ node(id: "legacy-nan") { data } }'},
        headers=env.headers("acme", "read"),
    )
    assert "NaN" not in response.text
    assert json.loads(response.text)["data"]["node"]["data"] == {"score": None, "ok": 1.5}


async def test_deep_otlp_json_is_400_not_500(env: Env) -> None:
    headers = {**env.headers("acme", "ingest"), "Content-Type": "application/json"}
    body = '{"resourceSpans": ' + DEEP + "}"
    response = await env.client.post("/v1/traces", content=body, headers=headers)
    assert response.status_code == 400
    assert "deeper" in response.json()["message"]
