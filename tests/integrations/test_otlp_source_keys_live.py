"""Concurrent exports of source-tool reads into one session get distinct keys, none rejected."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from provgraph.otlp import SOURCE_TOOLS_HEADER
from provgraph.store.port import GraphStore

from .conftest import API_KEY, LiveApi

HEADERS = {
    "Authorization": f"Bearer {API_KEY}",
    "Content-Type": "application/json",
    SOURCE_TOOLS_HEADER: "read_document",
}


def source_read_export(n: int) -> dict[str, Any]:
    """An OTLP/JSON export of one unkeyed ``read_document`` read (trace ``n``) into one session."""

    def attr(key: str, value: str) -> dict[str, Any]:
        return {"key": key, "value": {"stringValue": value}}

    span = {
        "traceId": f"{n + 1:032x}",
        "spanId": f"{n + 1:016x}",
        "name": "execute_tool read_document",
        "startTimeUnixNano": str(1_700_000_000_000_000_000 + n),
        "attributes": [
            attr("gen_ai.operation.name", "execute_tool"),
            attr("gen_ai.tool.name", "read_document"),
            attr("gen_ai.tool.call.result", f"Document number {n}."),
            attr("session.id", "shared-session"),
        ],
    }
    return {"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}


async def test_concurrent_exports_take_distinct_keys(
    live_api: LiveApi, graph_store: GraphStore, project: str
) -> None:
    async with httpx.AsyncClient(base_url=live_api.url, timeout=60) as client:
        posts = (
            client.post("/v1/traces", json=source_read_export(n), headers=HEADERS) for n in range(6)
        )
        answers = await asyncio.gather(*posts)
    assert [a.status_code for a in answers] == [200] * 6
    assert all("partialSuccess" not in a.json() for a in answers), [a.json() for a in answers]
    keys = sorted(e.key for e in graph_store.citation_summary(project, "shared-session"))
    assert keys == [f"d_{i}" for i in range(1, 7)]
