"""Pure tests: OTLP status ERROR and ``exception`` span events → node status and error."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from provgraph.events import Event
from provgraph.graph import NodeStatus, NodeType
from provgraph.otlp import (
    SpanEventRecord,
    SpanRecord,
    decode_export,
    node_id,
    span_failure,
    spans_to_events,
)
from provgraph.otlp.failure import MAX_STACKTRACE_CHARS

TRACE = "1af7651916cd43dd8448eb211c80319c"


def span(span_id: str, parent: str | None = None, start: int = 1, **attrs: Any) -> SpanRecord:
    return SpanRecord(
        TRACE,
        span_id.rjust(16, "0"),
        parent.rjust(16, "0") if parent else None,
        "span",
        start_time_unix_nano=start * 1_000_000_000,
        end_time_unix_nano=(start + 1) * 1_000_000_000,
        attributes={k.replace("__", "."): v for k, v in attrs.items()},
    )


def exception(kind: str, message: str, stacktrace: str = "") -> SpanEventRecord:
    attrs = {"exception.type": kind, "exception.message": message}
    if stacktrace:
        attrs["exception.stacktrace"] = stacktrace
    return SpanEventRecord("exception", 5, attrs)


def by_node(events: list[Event]) -> dict[str, Event]:
    return {e.node_id: e for e in events}


def test_status_and_exception_events_map_to_one_failure() -> None:
    base = span("1")
    assert span_failure(base) is None  # unset status, no exception: nothing said
    assert span_failure(replace(base, status_code=1)).status is NodeStatus.OK  # type: ignore[union-attr]

    only_status = span_failure(replace(base, status_code=2, status_message="quota exceeded"))
    assert only_status is not None and only_status.error is not None
    assert (only_status.error.type, only_status.error.message) == ("Error", "quota exceeded")

    trace = "Traceback (most recent call last):\n" + "  frame\n" * 2_000 + "KeyError: 'x'"
    raised = replace(
        base,
        status_code=2,
        status_message="KeyError: 'x'",
        events=(exception("ValueError", "first"), exception("KeyError", "'x'", trace)),
    )
    failure = span_failure(raised)
    assert failure is not None and failure.error is not None
    assert (failure.error.type, failure.error.message) == ("KeyError", "'x'")  # the last one
    assert failure.stacktrace_tail is not None
    assert len(failure.stacktrace_tail) == MAX_STACKTRACE_CHARS
    assert failure.stacktrace_tail.endswith("KeyError: 'x'")

    # an exception escaping a span whose status was never set is still a failure
    unset = span_failure(replace(base, events=(exception("OSError", "disk full"),)))
    assert unset is not None and unset.status is NodeStatus.ERROR
    # an explicit OK says the span handled what it recorded
    handled = span_failure(replace(base, status_code=1, events=(exception("OSError", "x"),)))
    assert handled is not None and handled.status is NodeStatus.OK and handled.error is None


def test_machine_paths_are_cut_to_module_paths_before_the_tail_is_kept() -> None:
    trace = (
        "Traceback (most recent call last):\n"
        '  File "/home/alice/proj/.venv/lib/python3.11/site-packages/httpx/_client.py", '
        "line 12, in send\n"
        '  File "/usr/lib/python3.11/asyncio/tasks.py", line 3, in run\n'
        '  File "/srv/app/src/app/agent.py", line 5, in go\n'
        '  File "/home/alice/agent.py", line 4, in main\n'
        '  File "C:\\Users\\bob\\venv\\Lib\\site-packages\\pkg\\m.py", line 1, in f\n'
        '  File "C:\\Users\\bob\\tool.py", line 2, in g\n'
        "    at handler (/Users/carol/app/server.js:10:5)\n"
        "ValueError: POST /v1/events to https://example.com/a/b/c failed"
    )
    failing = replace(span("1"), status_code=2, events=(exception("ValueError", "x", trace),))
    failure = span_failure(failing)
    assert failure is not None
    assert failure.stacktrace_tail == (
        "Traceback (most recent call last):\n"
        '  File "httpx/_client.py", line 12, in send\n'
        '  File "asyncio/tasks.py", line 3, in run\n'
        '  File "app/agent.py", line 5, in go\n'
        '  File "agent.py", line 4, in main\n'
        '  File "pkg/m.py", line 1, in f\n'
        '  File "tool.py", line 2, in g\n'
        "    at handler (app/server.js:10:5)\n"
        "ValueError: POST /v1/events to https://example.com/a/b/c failed"
    )


def test_failure_messages_are_bounded() -> None:
    failing = replace(
        span("1"), status_code=2, events=(exception("E" * 1_000, "m" * 100_000, "s" * 100_000),)
    )
    failure = span_failure(failing)
    assert failure is not None and failure.error is not None
    assert len(failure.error.type) == 256 and len(failure.error.message) == 1_000


def test_failed_tool_span_fails_its_call_and_has_no_result() -> None:
    agent = span("a", gen_ai__operation__name="invoke_agent", gen_ai__agent__name="bot")
    tool = replace(
        span("b", parent="a", start=2, gen_ai__tool__name="lookup", gen_ai__tool__call__id="c1"),
        status_code=2,
        status_message="ConnectionError: backend unreachable",
        events=(exception("ConnectionError", "backend unreachable", "Traceback …\nConnErr"),),
    )
    ok_tool = replace(
        span("c", parent="a", start=3, gen_ai__tool__name="lookup", gen_ai__tool__call__id="c2"),
        status_code=1,
    )
    conversion = spans_to_events([agent, tool, ok_tool])
    assert not conversion.rejections
    events = by_node(conversion.events)
    call = events[node_id(TRACE, tool.span_id)]
    assert call.type is NodeType.TOOL_CALL and call.status is NodeStatus.ERROR
    assert call.error is not None
    assert (call.error.type, call.error.message) == ("ConnectionError", "backend unreachable")
    assert call.data["error_stacktrace_tail"] == "Traceback …\nConnErr"
    assert node_id(TRACE, tool.span_id, "-result") not in events  # it returned nothing
    assert events[node_id(TRACE, ok_tool.span_id)].status is NodeStatus.OK
    assert events[node_id(TRACE, ok_tool.span_id, "-result")].error is None
    # the next step still follows from the failed call (the model saw the failure)
    assert node_id(TRACE, tool.span_id) in events[node_id(TRACE, ok_tool.span_id)].parent_ids
    assert events[node_id(TRACE, agent.span_id)].status is None


def test_failed_model_call_and_run_from_otlp_json() -> None:
    body = {
        "resourceSpans": [
            {
                "resource": {"attributes": []},
                "scopeSpans": [
                    {
                        "spans": [
                            {
                                "traceId": TRACE,
                                "spanId": "00000000000000a1",
                                "name": "invoke_agent bot",
                                "startTimeUnixNano": "1000000000",
                                "attributes": [
                                    _attr("gen_ai.operation.name", "invoke_agent"),
                                    _attr("gen_ai.agent.name", "bot"),
                                ],
                                "status": {"code": "STATUS_CODE_ERROR", "message": "boom"},
                            },
                            {
                                "traceId": TRACE,
                                "spanId": "00000000000000a2",
                                "parentSpanId": "00000000000000a1",
                                "name": "chat gpt",
                                "startTimeUnixNano": "2000000000",
                                "attributes": [
                                    _attr("gen_ai.operation.name", "chat"),
                                    _attr("gen_ai.request.model", "gpt"),
                                ],
                                "events": [
                                    {
                                        "name": "exception",
                                        "timeUnixNano": "2500000000",
                                        "attributes": [
                                            _attr("exception.type", "openai.RateLimitError"),
                                            _attr("exception.message", "429 Too Many Requests"),
                                        ],
                                    }
                                ],
                                "status": {"code": 2},
                            },
                        ]
                    }
                ],
            }
        ]
    }
    spans = decode_export(json.dumps(body).encode(), "application/json")
    events = by_node(spans_to_events(spans).events)
    run = events[node_id(TRACE, "00000000000000a1")]
    assert run.status is NodeStatus.ERROR and run.error is not None
    assert (run.error.type, run.error.message) == ("Error", "boom")
    request = events[node_id(TRACE, "00000000000000a2")]
    assert request.type is NodeType.MODEL_REQUEST and request.error is not None
    assert request.error.type == "openai.RateLimitError"
    assert node_id(TRACE, "00000000000000a2", "-response") not in events


def _attr(key: str, value: str) -> dict[str, Any]:
    return {"key": key, "value": {"stringValue": value}}
