"""The console shows failed steps: outlined and marked in the graph, explained in the detail."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from .conftest import Console, shot, sign_in

pytestmark = pytest.mark.neo4j


def _events(session: str) -> list[dict[str, Any]]:
    def event(n: int, kind: str, node: str, parents: list[str], **extra: Any) -> dict[str, Any]:
        return {
            "id": f"{session}-e{n}",
            "type": kind,
            "timestamp": f"2026-04-01T10:00:0{n}Z",
            "session_id": session,
            "node_id": f"{session}-{node}",
            "agent_name": "clerk",
            "run_id": "r1",
            "parent_ids": [f"{session}-{p}" for p in parents],
            **extra,
        }

    failure = {"type": "ConnectionError", "message": "backend unreachable"}
    return [
        event(0, "agent_run", "run", []),
        event(1, "input", "in", ["run"], content="What is a?"),
        event(2, "model_request", "req", ["in"]),
        event(3, "tool_call", "call", ["req"], label="Tool: lookup"),
        event(4, "tool_call", "call", [], error=failure),
        event(5, "final_output", "out", ["call"], content="a is unknown"),
    ]


def test_failed_step_in_graph_detail_and_attribution(page: Any, console: Console) -> None:
    session = f"fail-{uuid.uuid4().hex[:6]}"
    answer = httpx.post(
        f"{console.base}/v1/events",
        json=_events(session),
        headers={"Authorization": f"Bearer {console.admin}"},
        timeout=60,
    )
    assert answer.status_code == 207 and answer.json()["rejected"] == 0
    sign_in(page, console, console.read, f"#/session/{session}")
    page.wait_for_selector("#graph[data-rendered='true']")
    failed = page.evaluate(
        "() => window.__provgraph.view.cy.nodes('.failed').map(n => [n.id(), n.data('label')])"
    )
    assert failed == [[f"{session}-call", "✗ Tool: lookup"]]
    page.fill("#node-search", f"{session}-call")
    page.press("#node-search", "Enter")
    page.wait_for_selector("#detail .notice.failed")
    detail = page.locator("#detail").inner_text()
    assert "✗ failed" in detail and "Failed: ConnectionError — backend unreachable" in detail
    shot(page, "10-failed-step")
    page.goto(f"{console.base}/ui/#/output/{session}-out")  # signed in already
    marked = page.locator("#paths .failed")
    marked.first.wait_for()
    assert "1 failed step" in marked.first.inner_text()
