"""The API's own verification adapter, for real: OTLP ingestion auto-verifies through the
use case and the embedded inline runner (no worker imported, no broker)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from provgraph.store.async_memory import AsyncMemoryGraphStore
from provgraph.store.types import JobState
from provgraph.verification.config import VerificationConfig
from services.api.app import create_app
from services.api.verification import UseCaseDispatcher

LIGHT = VerificationConfig(embeddings=False, nli=False)
DOC = "The Eiffel Tower is 330 metres tall and was completed in 1889."
ANSWER = "The tower is 330 metres tall. [REF|d_1]"


def _attr(key: str, value: Any) -> dict[str, Any]:
    if isinstance(value, float):
        return {"key": key, "value": {"doubleValue": value}}
    return {"key": key, "value": {"stringValue": str(value)}}


def _otlp_body() -> dict[str, Any]:
    trace = "4bf92f3577b34da6a3ce929d0e0e4736"
    agent = {
        "traceId": trace,
        "spanId": "00f067aa0ba902b7",
        "name": "agent",
        "startTimeUnixNano": "1700000000000000000",
        "endTimeUnixNano": "1700000002000000000",
        "attributes": [
            _attr("openinference.span.kind", "AGENT"),
            _attr("agent.name", "rag-bot"),
            _attr("session.id", "otlp-auto"),
            _attr("input.value", "How tall is the tower?"),
            _attr("output.value", ANSWER),
        ],
    }
    retrieve = {
        "traceId": trace,
        "spanId": "00f067aa0ba902b8",
        "parentSpanId": "00f067aa0ba902b7",
        "name": "retrieve",
        "startTimeUnixNano": "1700000000500000000",
        "endTimeUnixNano": "1700000000600000000",
        "attributes": [
            _attr("openinference.span.kind", "RETRIEVER"),
            _attr("input.value", "tower height"),
            _attr("retrieval.documents.0.document.id", "d_1"),
            _attr("retrieval.documents.0.document.content", DOC),
            _attr("retrieval.documents.0.document.score", 0.9),
        ],
    }
    return {"resourceSpans": [{"scopeSpans": [{"spans": [retrieve, agent]}]}]}


async def test_otlp_final_outputs_are_verified_inline_through_the_use_case(
    settings: Any,
) -> None:
    store = AsyncMemoryGraphStore(None)
    on = settings.model_copy(update={"auto_verify": True, "broker_url": None})

    async def getter() -> AsyncMemoryGraphStore:
        return store

    dispatcher = UseCaseDispatcher(on, getter, config=LIGHT)
    app = create_app(on, store=store, verifier=dispatcher)
    _, token = app.state.provgraph.keys().create(on.project, "ingest")
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        answer = await c.post("/v1/traces", json=_otlp_body(), headers=headers)
    assert answer.status_code == 200, answer.text
    assert await asyncio.to_thread(dispatcher.wait_idle, 120)
    jobs = await store.list_jobs(on.project)
    assert len(jobs) == 1 and jobs[0].state is JobState.DONE, jobs
    report = await store.get_report(on.project, jobs[0].output_id)
    assert report is not None and report.report["citations_checked"] >= 1
    await dispatcher.close()
    await store.close()
