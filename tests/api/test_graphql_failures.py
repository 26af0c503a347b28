"""Failed steps through REST ingestion and GraphQL (memory and Neo4j stores)."""

from __future__ import annotations

from typing import Any

from tests.api.conftest import Env

SESSION = "fail-1"


def _event(n: int, node_type: str, node_id: str, parents: list[str], **extra: Any) -> Any:
    return {
        "id": f"fail-evt-{n}",
        "type": node_type,
        "timestamp": f"2026-03-01T10:00:0{n}Z",
        "session_id": SESSION,
        "node_id": node_id,
        "run_id": "run-1",
        "agent_name": "clerk",
        "parent_ids": parents,
        **extra,
    }


EVENTS = [
    _event(0, "agent_run", "f.run", []),
    _event(1, "input", "f.input", ["f.run"], content="What is a?"),
    _event(2, "model_request", "f.req1", ["f.input"]),
    _event(3, "model_response", "f.resp1", ["f.req1"]),
    _event(4, "tool_call", "f.call", ["f.resp1"], data={"tool_name": "lookup"}),
    # the tool raised: a second event on the same node with the failure
    _event(
        5,
        "tool_call",
        "f.call",
        [],
        error={"type": "ConnectionError", "message": "backend unreachable"},
    ),
    _event(6, "model_request", "f.req2", ["f.call"]),
    _event(7, "model_response", "f.resp2", ["f.req2"], content="a is unknown"),
    _event(8, "final_output", "f.out", ["f.resp2"], content="a is unknown", status="ok"),
]

NODE_QUERY = """query($id: ID!) {
  node(id: $id) { id status failed error { type message } }
}"""

ATTRIBUTION_QUERY = """query($id: ID!) {
  attribution(outputId: $id) {
    failedSteps { id error { type } }
    paths { nodeIds failedSteps { id } }
  }
}"""


def _data(body: dict[str, Any]) -> dict[str, Any]:
    assert "errors" not in body, body
    data: dict[str, Any] = body["data"]
    return data


async def test_failed_tool_call_in_node_and_attribution(env: Env) -> None:
    response = await env.post_events(EVENTS)
    assert response.json()["accepted"] == len(EVENTS), response.text

    call = _data(await env.gql(NODE_QUERY, {"id": "f.call"}))["node"]
    assert call == {
        "id": "f.call",
        "status": "ERROR",
        "failed": True,
        "error": {"type": "ConnectionError", "message": "backend unreachable"},
    }
    out = _data(await env.gql(NODE_QUERY, {"id": "f.out"}))["node"]
    assert (out["status"], out["failed"], out["error"]) == ("OK", False, None)
    unreported = _data(await env.gql(NODE_QUERY, {"id": "f.req1"}))["node"]
    assert (unreported["status"], unreported["error"]) == (None, None)

    attribution = _data(await env.gql(ATTRIBUTION_QUERY, {"id": "f.out"}))["attribution"]
    assert attribution["failedSteps"] == [{"id": "f.call", "error": {"type": "ConnectionError"}}]
    [path] = attribution["paths"]
    assert "f.call" in path["nodeIds"] and path["failedSteps"] == [{"id": "f.call"}]


async def test_a_later_success_clears_the_failure(env: Env) -> None:
    assert (await env.post_events(EVENTS)).json()["accepted"] == len(EVENTS)
    retry_ok = _event(9, "tool_call", "f.call", [], status="ok")
    assert (await env.post_events([retry_ok])).json()["accepted"] == 1
    call = _data(await env.gql(NODE_QUERY, {"id": "f.call"}))["node"]
    assert (call["status"], call["failed"], call["error"]) == ("OK", False, None)


async def test_bad_error_objects_are_rejected_with_their_path(env: Env) -> None:
    bad = [
        _event(0, "tool_call", "b.1", [], error={"message": "no type"}),
        _event(1, "tool_call", "b.2", [], status="ok", error={"type": "E", "message": "m"}),
        _event(2, "tool_call", "b.3", [], error={"type": "E", "message": "m" * 4_001}),
        _event(3, "tool_call", "b.4", [], status="crashed"),
    ]
    response = await env.post_events(bad)
    body = response.json()
    assert response.status_code == 207 and body["accepted"] == 0, body
    paths = [r["error"]["path"] for r in body["results"]]
    assert paths == ["error.type", "error", "error.message", "status"], body


async def test_session_lists_its_failed_steps(env: Env) -> None:
    assert (await env.post_events(EVENTS)).json()["accepted"] == len(EVENTS)
    query = """query($id: ID!) { session(id: $id) {
      failed: nodes(failed: true) { id error { message } }
      fine: nodes(failed: false) { id } } }"""
    session = _data(await env.gql(query, {"id": SESSION}))["session"]
    assert session["failed"] == [{"id": "f.call", "error": {"message": "backend unreachable"}}]
    assert len(session["fine"]) == len(EVENTS) - 2  # two events were about f.call
