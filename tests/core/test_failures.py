"""Failures on the record, pure part: the event fields, their mapping, bounded error info."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from provgraph.events import Event, parse_events
from provgraph.failures import (
    DEFAULT_MESSAGE_CHARS,
    error_from_exception,
    error_info,
    status_fields,
    status_from_fields,
)
from provgraph.graph import NodeError, NodeStatus
from provgraph.mapping import VERSIONED_FIELDS, map_event
from provgraph.sdk import ListSink, SessionRecorder
from provgraph.sdk.delivery import encode_batch
from provgraph.store.memory import MemoryGraphStore

DEMO = Path(__file__).resolve().parents[2] / "provgraph" / "examples" / "demo_session.jsonl"


def _raw(**overrides: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "id": "e1",
        "type": "tool_call",
        "timestamp": "2026-01-01T00:00:00Z",
        "session_id": "s1",
        "node_id": "n1",
    }
    raw.update(overrides)
    return raw


def test_events_without_the_new_fields_are_still_valid() -> None:
    lines = [json.loads(line) for line in DEMO.read_text("utf-8").splitlines() if line.strip()]
    good, bad = parse_events(lines)
    assert bad == [] and len(good) == len(lines)
    assert all(e.status is None and e.error is None for _, e in good)


@pytest.mark.parametrize(
    ("overrides", "path"),
    [
        ({"error": {"message": "no type"}}, "error.type"),
        ({"error": {"type": ""}}, "error.type"),
        ({"error": {"type": "E", "stack": "…"}}, "error.stack"),
        ({"error": {"type": "E", "message": "m" * 4_001}}, "error.message"),
        ({"error": "boom"}, "error"),
        ({"status": "ok", "error": {"type": "E"}}, "error"),
        ({"status": "failed"}, "status"),
    ],
)
def test_bad_failure_fields_report_their_path(overrides: dict[str, Any], path: str) -> None:
    good, bad = parse_events([_raw(**overrides)])
    assert good == [] and [e.path for e in bad] == [path]


def test_an_error_alone_implies_status_error() -> None:
    event = Event.model_validate(_raw(error={"type": "ValueError", "message": "bad"}))
    assert event.effective_status is NodeStatus.ERROR
    fields = map_event(event).node.fields
    assert (fields["status"], fields["error_type"], fields["error_message"]) == (
        "error",
        "ValueError",
        "bad",
    )


def test_status_fields_are_written_together_or_not_at_all() -> None:
    assert {"status", "error_type", "error_message"} <= set(VERSIONED_FIELDS)
    silent = map_event(Event.model_validate(_raw())).node.fields
    assert (silent["status"], silent["error_type"], silent["error_message"]) == (None,) * 3
    ok = map_event(Event.model_validate(_raw(status="ok"))).node.fields
    assert (ok["status"], ok["error_type"], ok["error_message"]) == ("ok", "", "")  # clears
    bare = map_event(Event.model_validate(_raw(status="error"))).node.fields
    assert (bare["status"], bare["error_type"]) == ("error", "")


def test_stored_fields_decode_back() -> None:
    info = error_info("KeyError", "'x'")
    assert status_from_fields(status_fields(NodeStatus.ERROR, info)) == (
        NodeStatus.ERROR,
        NodeError("KeyError", "'x'"),
    )
    assert status_from_fields(status_fields(NodeStatus.OK, None)) == (NodeStatus.OK, None)
    assert status_from_fields({}) == (None, None)


def test_error_from_exception_keeps_type_and_bounded_message_only() -> None:
    class QuotaError(RuntimeError):
        pass

    try:
        secret = "hunter2"
        raise QuotaError("quota exceeded " + "!" * 5_000) from KeyError(secret)
    except QuotaError as exc:
        info = error_from_exception(exc)
    assert info.type.startswith(__name__) and info.type.endswith("<locals>.QuotaError")
    assert len(info.message) == DEFAULT_MESSAGE_CHARS and info.message.endswith("…")
    assert "hunter2" not in info.model_dump_json() and "Traceback" not in info.message
    assert error_from_exception(ValueError("x")).type == "ValueError"
    assert error_info("  ", "m").type == "Error"


def test_recorder_marks_a_reported_node_failed() -> None:
    sink = ListSink()
    recorder = SessionRecorder(sink, session_id="s1", agent_name="bot")
    call = recorder.tool_call(None, "lookup", {"key": "a"})
    recorder.failure(call, ConnectionError("backend unreachable"))
    first, second = sink.events
    assert first.status is None and first.error is None
    assert (second.node_id, second.type, second.status) == (
        call.node_id,
        call.type,
        NodeStatus.ERROR,
    )
    assert second.error is not None and second.error.type == "ConnectionError"
    assert second.data == {} and second.label is None  # the failure touches nothing else


def test_embedded_log_replays_the_failure(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    failed = Event.model_validate(_raw(error={"type": "TimeoutError", "message": "slow"}))
    first = MemoryGraphStore(path)
    first.ingest("p", [Event.model_validate(_raw(id="e0", label="Tool: slow")), failed])
    first.close()
    reopened = MemoryGraphStore(path)
    node = reopened.get_node("p", "n1")
    assert node is not None and node.failed and node.label == "Tool: slow"
    assert node.error == NodeError("TimeoutError", "slow")
    reopened.close()


def test_sdk_batches_leave_unset_fields_out() -> None:
    """A server that predates the failure fields still accepts events that do not use them."""
    plain = Event.model_validate(_raw())
    failed = Event.model_validate(_raw(id="e2", error={"type": "E", "message": "m"}))
    sent = json.loads(encode_batch([plain, failed]))
    assert "status" not in sent[0] and "error" not in sent[0] and "run_id" not in sent[0]
    assert sent[1]["error"] == {"type": "E", "message": "m"}
    assert [Event.model_validate(raw) for raw in sent] == [plain, failed]
