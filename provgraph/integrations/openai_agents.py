"""Record OpenAI Agents SDK runs in provgraph: a ``TracingProcessor`` that sends native events.

Register it next to (or instead of) the SDK's own exporter::

    processor = ProvgraphTracingProcessor(ProvgraphClient(url, key), source_tools=["read_doc"])
    agents.add_trace_processor(processor)

How spans map (``agents.tracing.span_data``; the ambiguous choices are in
docs/integrations.md):

* a trace is a session (``metadata["session_id"]``, else ``group_id``, else
  the trace id); ``task`` and ``turn`` spans are structure only;
* an ``agent`` span is an agent run named after the agent; it is delegated
  (``delegates_to``) by the ``handoff`` span that named it, or by the
  ``function`` span it runs inside (an agent used as a tool);
* ``generation`` and ``response`` spans are a model request and its response;
* a ``function`` span is a tool call and its result, or a data read with a
  ``d_N`` key when the tool is a source (``source_tools`` or
  :meth:`ProvgraphTracingProcessor.source_tool`);
* a ``guardrail`` span is a checked step of its run (``status = error`` when
  its tripwire fired); span errors become ``status = error`` on the node;
* an agent span whose last model response is text with no tool call or
  handoff ends with a final output (``a_N``) holding that text.
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from provgraph.citations import extract_file_path, format_cited_content
from provgraph.failures import error_info
from provgraph.graph import NodeStatus, NodeType
from provgraph.integrations._shared import (
    DEFAULT_MAX_SESSIONS,
    RunFields,
    SessionRecorders,
    StepChain,
    first_text,
    flush_sink,
    missing_runtime,
)
from provgraph.integrations.openai_agents_spans import (
    ModelCall,
    from_generation,
    from_response,
    span_error,
    tool_args,
)
from provgraph.sdk.recorder import RecordedNode, SessionRecorder
from provgraph.sdk.sinks import EventSink

try:
    from agents.tracing import Span, Trace, TracingProcessor, get_current_span
except ImportError as exc:  # pragma: no cover - depends on the install
    raise missing_runtime("openai_agents", "openai-agents", exc) from exc

__all__ = ["ProvgraphTracingProcessor"]

F = TypeVar("F", bound=Callable[..., Any])

SESSION_METADATA_KEYS = ("provgraph.session_id", "session_id", "conversation_id")
"""Trace metadata naming the session, first match wins (then ``group_id``, then the trace id)."""


@dataclass
class _Run:
    """An ``agent`` span in flight: its run node, its step chain, its last model call."""

    recorder: SessionRecorder
    node: RecordedNode
    agent_name: str
    run_id: str
    chain: StepChain
    delegated: bool
    caller: _Span | None = None
    last_call: ModelCall | None = None
    last_response: str | None = None

    def fields(self) -> RunFields:
        return {"run_id": self.run_id, "agent_name": self.agent_name}

    @property
    def anchor(self) -> str:
        """What a tool call or handoff of this run hangs from: the response that asked for it."""
        return self.last_response or self.node.node_id


@dataclass
class _Span:
    """Any span seen (kept until its trace ends: the parent walk needs the structure spans)."""

    trace_id: str
    parent_id: str | None
    kind: str
    data: Any = None
    run: _Run | None = None
    node: RecordedNode | None = None
    sub_outputs: list[str] = field(default_factory=list)


class ProvgraphTracingProcessor(TracingProcessor):
    """Turns Agents SDK traces into provgraph sessions, delivered through ``sink``.

    ``sink`` is any SDK sink: :class:`~provgraph.sdk.ProvgraphClient` (the
    platform), :class:`~provgraph.sdk.EmbeddedSink` (no server) or a
    :class:`~provgraph.sdk.TeeSink`. ``source_tools`` names function tools
    whose results are data sources (each call gets its own ``d_N`` key).
    ``session_id`` pins every trace to one session. Thread-safe; each span
    callback does a bounded amount of work and hands events to the sink.
    """

    def __init__(
        self,
        sink: EventSink,
        *,
        source_tools: Iterable[str] = (),
        session_id: str | None = None,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
    ) -> None:
        self.sink = sink
        self.source_tools: set[str] = set(source_tools)
        self.session_id = session_id
        self._recorders = SessionRecorders(sink, max_sessions=max_sessions)
        self._sessions: dict[str, str] = {}
        self._spans: dict[str, _Span] = {}
        self._handoffs: dict[tuple[str, str], str] = {}
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ source tools
    def source_tool(self, func: F) -> F:
        """Mark a tool function as a data source and show its key to the model.

        Use under ``@function_tool``. The tool's name joins ``source_tools`` and
        its result is returned as ``"[REF|d_N]\\n" + result`` (the key of the data
        read recorded for this call), so the model can cite it. With tracing
        disabled the result is returned unchanged.
        """
        self.source_tools.add(func.__name__)
        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def cite_async(*args: Any, **kwargs: Any) -> Any:
                return self._cite(await func(*args, **kwargs))

            return cast(F, cite_async)

        @functools.wraps(func)
        def cite(*args: Any, **kwargs: Any) -> Any:
            return self._cite(func(*args, **kwargs))

        return cast(F, cite)

    def _cite(self, result: Any) -> Any:
        span = get_current_span()
        with self._lock:
            entry = self._spans.get(span.span_id) if span is not None else None
        key = entry.node.citation_key if entry and entry.node else None
        return format_cited_content(result, key) if key else result

    # ------------------------------------------------------------------ traces
    def on_trace_start(self, trace: Trace) -> None:
        exported = trace.export() or {}
        metadata = exported.get("metadata") or {}
        named = [metadata.get(k) for k in SESSION_METADATA_KEYS]
        session = first_text(self.session_id, *named, exported.get("group_id"), trace.trace_id)
        with self._lock:
            self._sessions[trace.trace_id] = session or trace.trace_id

    def on_trace_end(self, trace: Trace) -> None:
        with self._lock:
            self._sessions.pop(trace.trace_id, None)
            for span_id in [k for k, v in self._spans.items() if v.trace_id == trace.trace_id]:
                del self._spans[span_id]
            for pending in [k for k in self._handoffs if k[0] == trace.trace_id]:
                del self._handoffs[pending]

    def shutdown(self) -> None:
        self.force_flush()

    def force_flush(self) -> None:
        flush_sink(self.sink)

    # ------------------------------------------------------------------ spans
    def on_span_start(self, span: Span[Any]) -> None:
        kind = span.span_data.type
        with self._lock:
            entry = _Span(span.trace_id, span.parent_id, kind, span.span_data)
            self._spans[span.span_id] = entry
            if kind == "agent":
                entry.run = self._start_run(span)
            elif kind == "function":
                entry.node = self._start_tool(span)

    def on_span_end(self, span: Span[Any]) -> None:
        kind = span.span_data.type
        with self._lock:
            entry = self._spans.get(span.span_id)
            if entry is None:  # started before this processor was registered
                return
            if kind == "agent" and entry.run is not None:
                self._end_run(span, entry.run)
            elif kind in ("generation", "response"):
                self._model_call(span, kind)
            elif kind == "function" and entry.node is not None:
                self._end_tool(span, entry.node)
            elif kind == "handoff":
                self._handoff(span)
            elif kind == "guardrail":
                self._guardrail(span)

    # ------------------------------------------------------------------ helpers
    def _recorder(self, trace_id: str) -> SessionRecorder:
        session = self._sessions.get(trace_id) or self.session_id or trace_id
        return self._recorders.for_session(session)

    def _ancestors(self, span_id: str | None) -> Iterable[_Span]:
        seen: set[str] = set()
        while span_id is not None and span_id not in seen:
            seen.add(span_id)
            entry = self._spans.get(span_id)
            if entry is None:
                return
            yield entry
            span_id = entry.parent_id

    def _owner(self, span: Span[Any]) -> _Run | None:
        """The agent run a span belongs to: its nearest ``agent`` ancestor."""
        return next((e.run for e in self._ancestors(span.parent_id) if e.run is not None), None)

    def _start_run(self, span: Span[Any]) -> _Run:
        name = str(getattr(span.span_data, "name", None) or "agent")
        recorder = self._recorder(span.trace_id)
        delegator = self._handoffs.pop((span.trace_id, name), None)
        caller_tool: _Span | None = None
        if delegator is None:
            for entry in self._ancestors(span.parent_id):
                if entry.kind == "agent":
                    break
                if entry.kind == "function" and entry.node is not None:
                    caller_tool, delegator = entry, entry.node.node_id
                    break
        node = recorder.run(name, run_id=span.span_id, delegated_by=delegator)
        run = _Run(
            recorder, node, name, span.span_id, StepChain(node.node_id), delegator is not None
        )
        run.caller = caller_tool
        if caller_tool is not None:  # an agent used as a tool: the call's arguments are its input
            args = getattr(caller_tool.data, "input", None)
            if isinstance(args, str) and args:
                run.chain.reset(recorder.input(node.node_id, args, **run.fields()).node_id)
        return run

    def _model_call(self, span: Span[Any], kind: str) -> None:
        run = self._owner(span)
        if run is None:
            return
        rec = run.recorder
        call = (
            from_generation(span.span_data)
            if kind == "generation"
            else from_response(span.span_data)
        )
        if call.prompt and not run.delegated and run.last_call is None:
            run.chain.reset(rec.input(run.node.node_id, call.prompt, **run.fields()).node_id)
        request = rec.model_request(
            run.chain.nodes, data={"model": call.model, "span_id": span.span_id}, **run.fields()
        )
        run.last_call = call
        error = span_error(span, kind)
        if error is not None:
            rec.failure(request, error, **run.fields())
            run.chain.reset(request.node_id)
            return
        response = rec.model_response(
            request.node_id,
            call.text,
            data={"tool_calls": list(call.tool_calls) or None, **call.usage},
            **run.fields(),
        )
        run.last_response = response.node_id
        run.chain.reset(response.node_id)

    def _start_tool(self, span: Span[Any]) -> RecordedNode | None:
        run = self._owner(span)
        if run is None:
            return None
        name = str(getattr(span.span_data, "name", None) or "tool")
        if name in self.source_tools:
            return run.recorder.data_read(run.anchor, name, **run.fields())
        return run.recorder.tool_call(run.anchor, name, **run.fields())

    def _end_tool(self, span: Span[Any], node: RecordedNode) -> None:
        run = self._owner(span)
        if run is None:
            return
        rec, data = run.recorder, span.span_data
        name = str(getattr(data, "name", None) or "tool")
        args = tool_args(getattr(data, "input", None))
        output = getattr(data, "output", None)
        shown = None if output is None else str(output)
        details = {"tool_name": name, "args": {k: str(v) for k, v in args.items()}}
        error = span_error(span, "function")
        if node.type is NodeType.DATA_READ:
            header = f"[REF|{node.citation_key}]\n"
            body = shown[len(header) :] if shown and shown.startswith(header) else shown
            rec.record(
                NodeType.DATA_READ,
                node_id=node.node_id,
                citation_key=node.citation_key,
                content=None if error else body,
                data={**details, "file_path": extract_file_path(args)},
                **run.fields(),
            )
        else:
            rec.record(NodeType.TOOL_CALL, node_id=node.node_id, data=details, **run.fields())
        if error is not None:  # what the model saw was the SDK's error text, not a result
            rec.failure(node, error, **run.fields())
            run.chain.add(node.node_id)
            return
        entry = self._spans.get(span.span_id)
        sub_outputs = entry.sub_outputs if entry is not None else []
        result = rec.record(  # an agent used as a tool: its answer is what the call returned
            NodeType.TOOL_RESULT,
            label=f"Result: {name}",
            parents=[node.node_id, *sub_outputs],
            content=shown or "",
            data={"tool_name": name, "formatted": node.type is NodeType.DATA_READ},
            **run.fields(),
        )
        run.chain.add(result.node_id)

    def _handoff(self, span: Span[Any]) -> None:
        run = self._owner(span)
        target = getattr(span.span_data, "to_agent", None)
        if run is None or not target:
            return
        node = run.recorder.record(
            NodeType.TOOL_CALL,
            label=f"Handoff to {target}",
            parents=run.anchor,
            data={"tool_name": "handoff", "from_agent": run.agent_name, "to_agent": target},
            **run.fields(),
        )
        error = span_error(span, "handoff")
        if error is not None:
            run.recorder.failure(node, error, **run.fields())
            return
        self._handoffs[(span.trace_id, str(target))] = node.node_id

    def _guardrail(self, span: Span[Any]) -> None:
        run = self._owner(span)
        if run is None:
            return
        name = str(getattr(span.span_data, "name", None) or "guardrail")
        triggered = bool(getattr(span.span_data, "triggered", False))
        run.recorder.record(
            NodeType.TOOL_CALL,
            label=f"Guardrail: {name}",
            parents=run.node.node_id,
            data={"tool_name": name, "guardrail": True, "triggered": triggered},
            status=NodeStatus.ERROR if triggered else NodeStatus.OK,
            error=error_info("GuardrailTripwireTriggered", f"guardrail {name!r} tripped")
            if triggered
            else None,
            **run.fields(),
        )

    def _end_run(self, span: Span[Any], run: _Run) -> None:
        error = span_error(span, "agent")
        if error is not None:
            run.recorder.failure(run.node, error, **run.fields())
            return
        call = run.last_call
        if call is not None and call.is_final and call.text and run.last_response:
            output = run.recorder.final_output(run.last_response, call.text, **run.fields())
            if run.caller is not None:
                run.caller.sub_outputs.append(output.node_id)
