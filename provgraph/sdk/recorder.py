"""``SessionRecorder``: builds native events for one agent session and hands them to a sink.

Citation keys are allocated here, locally and synchronously, from one shared
counter per session (``d_1, a_2, d_3`` …, as the seed did), so an agent can
show ``[REF|d_3]`` to its model immediately, before any event has reached the
server. The counter is therefore owned by exactly one recorder per session;
two processes writing one session must not both allocate keys (the store
rejects a key bound to two nodes).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from provgraph.citations import AGENT_KEY_PREFIX, DATA_KEY_PREFIX, extract_file_path
from provgraph.events import MAX_LABEL_CHARS, EdgeSpec, ErrorInfo, Event
from provgraph.failures import error_from_exception
from provgraph.graph import EdgeLabel, NodeStatus, NodeType
from provgraph.sdk.sinks import EventSink


@dataclass(frozen=True)
class RecordedNode:
    """A node the recorder reported: its id and, for sources and outputs, its key."""

    node_id: str
    type: NodeType
    citation_key: str | None = None


def _new_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4()}"


def _label(text: str) -> str:
    return text if len(text) <= MAX_LABEL_CHARS else text[: MAX_LABEL_CHARS - 1] + "…"


def _parents(parents: str | Iterable[str] | None) -> list[str]:
    if parents is None:
        return []
    if isinstance(parents, str):
        return [parents]
    return list(dict.fromkeys(parents))


class SessionRecorder:
    """Reports the nodes of one session (runs, inputs, model calls, tools, reads, outputs).

    Every method builds one event with a fresh delivery id (retries resend the
    same id, so the server deduplicates) and sends it to ``sink`` at once.
    ``key_start`` continues a counter (e.g. when resuming a session whose last
    key was ``d_7``, pass 7).
    """

    def __init__(
        self,
        sink: EventSink,
        *,
        session_id: str | None = None,
        agent_name: str | None = None,
        key_start: int = 0,
    ) -> None:
        self.sink = sink
        self.session_id = session_id or f"session-{uuid.uuid4()}"
        self.agent_name = agent_name
        self._counter = key_start
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ keys
    def next_key(self, prefix: str) -> str:
        """The next session key with ``prefix`` (``d`` or ``a``); one counter for both."""
        with self._lock:
            self._counter += 1
            return f"{prefix}_{self._counter}"

    @property
    def keys_allocated(self) -> int:
        return self._counter

    # ------------------------------------------------------------------ generic
    def record(
        self,
        node_type: NodeType,
        *,
        node_id: str | None = None,
        label: str | None = None,
        parents: str | Iterable[str] | None = None,
        edges: Sequence[tuple[str, EdgeLabel]] = (),
        run_id: str | None = None,
        agent_name: str | None = None,
        content: str | None = None,
        citation_key: str | None = None,
        data: Mapping[str, Any] | None = None,
        timestamp: datetime | None = None,
        status: NodeStatus | None = None,
        error: ErrorInfo | None = None,
    ) -> RecordedNode:
        """Report one node; parents get the edge label the child's type implies."""
        node_id = node_id or _new_id(node_type.value)
        event = Event(
            id=_new_id("evt"),
            type=node_type,
            timestamp=timestamp or datetime.now(UTC),
            session_id=self.session_id,
            node_id=node_id,
            run_id=run_id,
            agent_name=agent_name or self.agent_name,
            label=_label(label) if label else None,
            parent_ids=[p for p in _parents(parents) if p != node_id],
            edges=[EdgeSpec(source_id=s, label=lbl) for s, lbl in edges],
            citation_key=citation_key,
            content=content,
            data={k: v for k, v in (data or {}).items() if v is not None},
            status=status,
            error=error,
        )
        self.sink.send([event])
        return RecordedNode(node_id, node_type, citation_key)

    def failure(
        self,
        node: RecordedNode,
        error: BaseException | ErrorInfo,
        *,
        run_id: str | None = None,
        agent_name: str | None = None,
    ) -> None:
        """Mark a reported node (a run, a model request, a tool call) as failed.

        A second event on the same node: ``status = error`` with the exception's
        type and bounded message; the traceback is never sent.
        """
        info = error if isinstance(error, ErrorInfo) else error_from_exception(error)
        self.record(
            node.type,
            node_id=node.node_id,
            run_id=run_id,
            agent_name=agent_name,
            status=NodeStatus.ERROR,
            error=info,
        )

    # ------------------------------------------------------------------ typed helpers
    def run(
        self,
        agent_name: str,
        *,
        run_id: str | None = None,
        delegated_by: str | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> RecordedNode:
        """An agent run; ``delegated_by`` (a tool-call or parent-run node) adds ``delegates_to``."""
        return self.record(
            NodeType.AGENT_RUN,
            label=f"Agent: {agent_name}",
            parents=delegated_by,
            run_id=run_id,
            agent_name=agent_name,
            data=data,
        )

    def input(
        self, run: str, prompt: str, *, run_id: str | None = None, agent_name: str | None = None
    ) -> RecordedNode:
        """The user input that starts a run (``starts_with``)."""
        return self.record(
            NodeType.INPUT,
            label="User input",
            parents=run,
            run_id=run_id,
            agent_name=agent_name,
            content=prompt,
        )

    def model_request(
        self,
        parents: str | Iterable[str],
        *,
        label: str = "Model request",
        run_id: str | None = None,
        agent_name: str | None = None,
        content: str | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> RecordedNode:
        return self.record(
            NodeType.MODEL_REQUEST,
            label=label,
            parents=parents,
            run_id=run_id,
            agent_name=agent_name,
            content=content,
            data=data,
        )

    def model_response(
        self,
        request: str,
        text: str | None,
        *,
        label: str = "Model response",
        run_id: str | None = None,
        agent_name: str | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> RecordedNode:
        """A model response; its ``[REF|…]`` tags become ``cited_in`` edges in the store."""
        return self.record(
            NodeType.MODEL_RESPONSE,
            label=label,
            parents=request,
            run_id=run_id,
            agent_name=agent_name,
            content=text,
            data=data,
        )

    def tool_call(
        self,
        parent: str | None,
        tool_name: str,
        args: Mapping[str, Any] | None = None,
        *,
        run_id: str | None = None,
        agent_name: str | None = None,
        tool_call_id: str | None = None,
    ) -> RecordedNode:
        return self.record(
            NodeType.TOOL_CALL,
            label=f"Tool: {tool_name}",
            parents=parent,
            run_id=run_id,
            agent_name=agent_name,
            data={
                "tool_name": tool_name,
                "tool_call_id": tool_call_id,
                "args": {k: str(v) for k, v in (args or {}).items()},
            },
        )

    def data_read(
        self,
        parent: str | None,
        tool_name: str,
        args: Mapping[str, Any] | None = None,
        *,
        run_id: str | None = None,
        agent_name: str | None = None,
        tool_call_id: str | None = None,
        content: str | None = None,
        file_path: str | None = None,
    ) -> RecordedNode:
        """A read from a data source, keyed ``d_N`` at once (before the read finishes).

        The key is known immediately so the tool's result can be shown to the
        model as ``[REF|d_N]`` and so a sub-agent started inside the tool can
        already resolve it.
        """
        args = dict(args or {})
        key = self.next_key(DATA_KEY_PREFIX)
        return self.record(
            NodeType.DATA_READ,
            label=f"[source] Tool: {tool_name}",
            parents=parent,
            run_id=run_id,
            agent_name=agent_name,
            citation_key=key,
            content=content,
            data={
                "tool_name": tool_name,
                "tool_call_id": tool_call_id,
                "args": {k: str(v) for k, v in args.items()},
                "file_path": file_path or extract_file_path(args),
            },
        )

    def source_content(self, read: RecordedNode, content: str) -> None:
        """Attach the text a data read returned (same node, same key; a second event)."""
        self.record(
            read.type, node_id=read.node_id, citation_key=read.citation_key, content=content
        )

    def tool_result(
        self,
        call: str,
        result: str,
        *,
        tool_name: str | None = None,
        run_id: str | None = None,
        agent_name: str | None = None,
        formatted: bool = False,
    ) -> RecordedNode:
        return self.record(
            NodeType.TOOL_RESULT,
            label=f"Result: {tool_name}" if tool_name else "Tool result",
            parents=call,
            run_id=run_id,
            agent_name=agent_name,
            content=result,
            data={"tool_name": tool_name, "formatted": formatted},
        )

    def delegation(self, caller: str, sub_run: str) -> None:
        """Mark ``sub_run`` as delegated by ``caller`` (an edge on an existing run node)."""
        self.record(NodeType.AGENT_RUN, node_id=sub_run, edges=[(caller, EdgeLabel.DELEGATES_TO)])

    def final_output(
        self,
        parents: str | Iterable[str],
        text: str,
        *,
        agent_name: str | None = None,
        run_id: str | None = None,
        citable: bool = True,
    ) -> RecordedNode:
        """A run's final output; ``citable`` gives it an ``a_N`` key for a parent agent to cite."""
        name = agent_name or self.agent_name
        key = self.next_key(AGENT_KEY_PREFIX) if citable else None
        return self.record(
            NodeType.FINAL_OUTPUT,
            label=f"Final output: {name}" if name else "Final output",
            parents=parents,
            run_id=run_id,
            agent_name=name,
            content=text,
            citation_key=key,
        )
