"""Under overload ``/v1/traces`` answers 429 with ``Retry-After``, ``/v1/events`` 503: one gate.

The API runs with one ingest slot and no admission wait. A client holds the
slot by sending headers and half a body over a raw socket (admission comes
before the body is read); ``/metrics`` shows it in flight. Then an OTLP export
is refused with 429 and a native batch with 503, both with ``Retry-After``;
the real OTel exporter backs off on the 429 and delivers once the slot frees.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from prometheus_client.parser import text_string_to_metric_families

from provgraph.store.async_memory import ThreadedAsyncStore
from provgraph.store.memory import MemoryGraphStore

from .conftest import API_KEY, LiveApi, api_settings, free_port

AUTH = {"Authorization": f"Bearer {API_KEY}"}
JSON = {**AUTH, "Content-Type": "application/json"}
SPAN = {
    "traceId": "5b8efff798038103d269b633813fc60c",
    "spanId": "eee19b7ec3c1b174",
    "name": "tool",
    "attributes": [{"key": "gen_ai.tool.name", "value": {"stringValue": "t"}}],
}
EXPORT = json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [SPAN]}]}]}).encode()


@pytest.fixture
def busy_api(project: str, tmp_path: Path) -> Iterator[tuple[LiveApi, MemoryGraphStore]]:
    api = pytest.importorskip("services.api.app")
    settings = api_settings(tmp_path, project, ingest_max_in_flight=1, ingest_admission_wait_s=0)
    memory = MemoryGraphStore()
    live = LiveApi(api.create_app(settings, store=ThreadedAsyncStore(memory)), free_port())
    live.start()
    yield live, memory
    live.stop()
    memory.close()


def _metric(live: LiveApi, name: str, **labels: str) -> float:
    text = httpx.get(f"{live.url}/metrics", timeout=10).text
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    return 0.0


def _wait_for(live: LiveApi, name: str, at_least: float, **labels: str) -> None:
    deadline = time.monotonic() + 30
    while _metric(live, name, **labels) < at_least:
        assert time.monotonic() < deadline, f"{name}{labels} never reached {at_least}"
        time.sleep(0.05)


class HeldRequest:
    """An OTLP POST whose body arrives in two halves: it holds the ingest slot in between."""

    def __init__(self, live: LiveApi) -> None:
        self.sock = socket.create_connection(("127.0.0.1", live.port), timeout=30)
        head = (
            "POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {API_KEY}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(EXPORT)}\r\nConnection: close\r\n\r\n"
        )
        self.sock.sendall(head.encode() + EXPORT[: len(EXPORT) // 2])

    def finish(self) -> str:
        self.sock.sendall(EXPORT[len(EXPORT) // 2 :])
        chunks = []
        while chunk := self.sock.recv(65536):
            chunks.append(chunk)
        self.sock.close()
        return b"".join(chunks).decode(errors="replace")


def test_overload_is_429_for_otlp_and_503_for_events_with_retry_after(
    busy_api: tuple[LiveApi, MemoryGraphStore],
) -> None:
    live, _ = busy_api
    held = HeldRequest(live)
    _wait_for(live, "provgraph_ingest_in_flight", 1)

    traces = httpx.post(f"{live.url}/v1/traces", content=EXPORT, headers=JSON)
    assert traces.status_code == 429, traces.text
    assert int(traces.headers["Retry-After"]) >= 1
    assert traces.json()["code"] == 429 and "PROVGRAPH_INGEST_MAX_IN_FLIGHT" in traces.text
    events = httpx.post(f"{live.url}/v1/events", json=[], headers=AUTH)
    assert events.status_code == 503 and int(events.headers["Retry-After"]) >= 1
    assert events.json()["error"]["code"] == "unavailable"

    assert held.finish().startswith("HTTP/1.1 200")
    again = httpx.post(
        f"{live.url}/v1/traces",
        content=EXPORT,
        headers={**AUTH, "Content-Type": "application/json"},
    )
    assert again.status_code == 200 and _metric(live, "provgraph_ingest_in_flight") == 0


def test_the_otel_exporter_backs_off_on_429_and_delivers(
    busy_api: tuple[LiveApi, MemoryGraphStore], project: str
) -> None:
    live, memory = busy_api
    exporter = OTLPSpanExporter(endpoint=f"{live.url}/v1/traces", headers=AUTH, timeout=60)
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    held = HeldRequest(live)
    _wait_for(live, "provgraph_ingest_in_flight", 1)

    def traced() -> None:
        with provider.get_tracer("t").start_as_current_span(
            "lookup", attributes={"gen_ai.tool.name": "lookup", "session.id": "busy-1"}
        ):
            pass

    worker = threading.Thread(target=traced)
    worker.start()  # SimpleSpanProcessor exports (and retries) in this thread
    labels = {"route": "/v1/traces", "status": "429"}
    _wait_for(live, "provgraph_http_requests_total", 1, **labels)
    assert held.finish().startswith("HTTP/1.1 200")
    worker.join(timeout=90)
    assert not worker.is_alive()
    provider.shutdown()
    graph = memory.session_graph(project, "busy-1")
    assert [n.type.value for n in graph.nodes.values() if n.type] == ["tool_call", "tool_result"]
