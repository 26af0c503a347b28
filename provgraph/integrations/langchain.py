"""Record LangChain and LangGraph runs in provgraph: a callback handler that sends native events.

Pass it in the run config::

    handler = ProvgraphCallbackHandler(ProvgraphClient(url, key))
    graph.invoke(inputs, config={"callbacks": [handler], "configurable": {"thread_id": "t-1"}})

How callbacks map (``langchain_core.callbacks.BaseCallbackHandler``; the
ambiguous choices are in docs/integrations.md):

* the outermost run (no ``parent_run_id``: a compiled graph, a chain, an
  agent) is an agent run named after it, with its input; its outputs (the
  last AI message of ``messages``, or ``output``/``answer``) are the final
  output (``a_N``); the session is ``metadata`` ``provgraph_session_id``,
  ``session_id``, ``thread_id`` (LangGraph copies it from ``configurable``) or
  ``conversation_id``, else one per outermost run;
* a LangGraph node (a chain named like its ``metadata["langgraph_node"]``) is
  an agent run named after the node, delegated (``delegates_to``) by the run
  around it — one run per node per graph run, however often the node runs;
  other chains are steps without a node of their own;
* chat model / LLM start and end are a model request and response; tool
  start and end a tool call and result (a data read with a ``d_N`` key for a
  tool in ``source_tools``); retriever end is one data read per document, each
  keyed ``d_N`` and stamped into ``document.metadata["provgraph_citation_key"]``
  so a document prompt can show it to the model;
* ``on_*_error`` marks the node failed (``status = error``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from uuid import UUID

from provgraph.citations import extract_file_path
from provgraph.graph import NodeType
from provgraph.integrations._shared import (
    DEFAULT_MAX_SESSIONS,
    SessionRecorders,
    StepChain,
    content_text,
    field_of,
    first_text,
    missing_runtime,
)
from provgraph.integrations.langchain_payloads import (
    last_text,
    message_text,
    payload_text,
    runnable_name,
)
from provgraph.integrations.langchain_runs import AgentRun, GraphRun, RunInFlight
from provgraph.sdk.sinks import EventSink

try:
    from langchain_core.callbacks import BaseCallbackHandler
    from langchain_core.documents import Document
    from langchain_core.outputs import LLMResult
except ImportError as exc:  # pragma: no cover - depends on the install
    raise missing_runtime("langchain", "langchain-core", exc) from exc

__all__ = ["CITATION_METADATA_KEY", "ProvgraphCallbackHandler"]

CITATION_METADATA_KEY = "provgraph_citation_key"
"""Where a retrieved document's ``d_N`` key is written (``document.metadata``)."""

SESSION_METADATA_KEYS = ("provgraph_session_id", "session_id", "thread_id", "conversation_id")
"""Run metadata naming the session, first match wins."""


class ProvgraphCallbackHandler(BaseCallbackHandler):
    """Turns LangChain/LangGraph callbacks into provgraph sessions, delivered through ``sink``.

    ``sink`` is any SDK sink (:class:`~provgraph.sdk.ProvgraphClient`,
    :class:`~provgraph.sdk.EmbeddedSink`, :class:`~provgraph.sdk.TeeSink`).
    ``source_tools`` names tools whose results are data sources (retrievers
    are sources already). ``session_id`` pins every run to one session.
    Thread-safe; runs inline (each callback only builds events and hands them
    to the sink).
    """

    run_inline = True

    def __init__(
        self,
        sink: EventSink,
        *,
        source_tools: Iterable[str] = (),
        session_id: str | None = None,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
    ) -> None:
        super().__init__()
        self.sink = sink
        self.source_tools: set[str] = set(source_tools)
        self.session_id = session_id
        self._recorders = SessionRecorders(sink, max_sessions=max_sessions)
        self._runs: dict[UUID, RunInFlight] = {}
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ structure
    def _start_root(
        self, run_id: UUID, name: str, metadata: Mapping[str, Any] | None, text: str | None
    ) -> RunInFlight:
        named = [(metadata or {}).get(k) for k in SESSION_METADATA_KEYS]
        session = first_text(self.session_id, *named) or f"langchain-{run_id}"
        recorder = self._recorders.for_session(session)
        node = recorder.run(name, run_id=str(run_id))
        agent = AgentRun(GraphRun(recorder, StepChain(node.node_id)), node, name, str(run_id))
        if text:
            agent.graph.chain.reset(recorder.input(node.node_id, text, **agent.fields()).node_id)
        run = RunInFlight(agent, name, is_root=True, is_agent=True)
        self._runs[run_id] = run
        return run

    def _enter(
        self,
        run_id: UUID,
        parent_run_id: UUID | None,
        name: str,
        metadata: Mapping[str, Any] | None,
        text: str | None = None,
    ) -> RunInFlight:
        parent = self._runs.get(parent_run_id) if parent_run_id is not None else None
        if parent is None:
            return self._start_root(run_id, name, metadata, text)
        run = RunInFlight(parent.agent, name)
        self._runs[run_id] = run
        return run

    def _close(self, run_id: UUID) -> RunInFlight | None:
        return self._runs.pop(run_id, None)

    def _finish_root(self, run: RunInFlight, text: str | None) -> None:
        agent = run.agent
        if text:
            agent.graph.recorder.final_output(agent.graph.chain.nodes, text, **agent.fields())

    def _anchor(self, agent: AgentRun) -> str:
        """What a tool call or read hangs from: the response that asked for it, else the run."""
        return agent.graph.last_response or agent.node.node_id

    # ------------------------------------------------------------------ chains and graph nodes
    def on_chain_start(
        self,
        serialized: dict[str, Any] | None,
        inputs: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        name = runnable_name(serialized, kwargs, "chain")
        with self._lock:
            parent = self._runs.get(parent_run_id) if parent_run_id is not None else None
            if parent is None:
                self._start_root(run_id, name, metadata, payload_text(inputs, ("human", "user")))
                return
            if (metadata or {}).get("langgraph_node") != name or parent.name == name:
                self._runs[run_id] = RunInFlight(parent.agent, name)
                return
            outer = parent.agent
            agent = outer.graph.nodes.get(name)
            if agent is None:
                rec = outer.graph.recorder
                node = rec.run(
                    name, run_id=f"{outer.run_id}/{name}", delegated_by=outer.node.node_id
                )
                agent = AgentRun(outer.graph, node, name, f"{outer.run_id}/{name}")
                outer.graph.nodes[name] = agent
            self._runs[run_id] = RunInFlight(agent, name, is_agent=True)

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            run = self._close(run_id)
            if run is not None and run.is_root:
                self._finish_root(run, payload_text(outputs, ("ai", "assistant")))

    def on_chain_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            run = self._close(run_id)
            if run is not None and run.is_agent:
                run.agent.graph.recorder.failure(run.agent.node, error, **run.agent.fields())

    # ------------------------------------------------------------------ models
    def _model_start(
        self,
        run_id: UUID,
        parent_run_id: UUID | None,
        name: str,
        metadata: Mapping[str, Any] | None,
        prompt: str | None,
        model: str,
    ) -> None:
        with self._lock:
            run = self._enter(run_id, parent_run_id, name, metadata, prompt)
            agent = run.agent
            run.node = agent.graph.recorder.model_request(
                agent.graph.chain.nodes, data={"model": model}, **agent.fields()
            )

    def on_chat_model_start(
        self,
        serialized: dict[str, Any] | None,
        messages: list[list[Any]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        name = runnable_name(serialized, kwargs, "chat_model")
        params = kwargs.get("invocation_params") or {}
        model = first_text(params.get("model"), params.get("model_name"), name) or name
        prompt = last_text(messages[0], ("human", "user")) if messages else None
        self._model_start(run_id, parent_run_id, name, metadata, prompt, model)

    def on_llm_start(
        self,
        serialized: dict[str, Any] | None,
        prompts: list[str],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        name = runnable_name(serialized, kwargs, "llm")
        prompt = prompts[-1] if prompts else None
        self._model_start(run_id, parent_run_id, name, metadata, prompt, name)

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        generation = (
            response.generations[0][0] if response.generations and response.generations[0] else None
        )
        message = getattr(generation, "message", None)
        text = first_text(
            content_text(field_of(message, "content")), getattr(generation, "text", None)
        )
        tools = [str(field_of(c, "name")) for c in (field_of(message, "tool_calls") or [])]
        usage = field_of(message, "usage_metadata") or {}
        with self._lock:
            run = self._close(run_id)
            if run is None or run.node is None:
                return
            agent = run.agent
            reply = agent.graph.recorder.model_response(
                run.node.node_id,
                text,
                data={
                    "tool_calls": tools or None,
                    **{k: v for k, v in dict(usage).items() if isinstance(v, int)},
                },
                **agent.fields(),
            )
            agent.graph.chain.reset(reply.node_id)
            agent.graph.last_response = reply.node_id
            if run.is_root:
                self._finish_root(run, text if not tools else None)

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            run = self._close(run_id)
            if run is not None and run.node is not None:
                run.agent.graph.recorder.failure(run.node, error, **run.agent.fields())
                run.agent.graph.chain.reset(run.node.node_id)

    # ------------------------------------------------------------------ tools
    def on_tool_start(
        self,
        serialized: dict[str, Any] | None,
        input_str: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        inputs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        name = runnable_name(serialized, kwargs, "tool")
        args = dict(inputs) if isinstance(inputs, Mapping) else {"input": input_str}
        call_id = kwargs.get("tool_call_id")
        with self._lock:
            run = self._enter(run_id, parent_run_id, name, metadata, input_str)
            agent, rec = run.agent, run.agent.graph.recorder
            parents = self._anchor(agent)
            record = rec.data_read if name in self.source_tools else rec.tool_call
            run.node = record(parents, name, args, tool_call_id=call_id, **agent.fields())

    def on_tool_end(self, output: Any, *, run_id: UUID, **kwargs: Any) -> None:
        text = message_text(output) if field_of(output, "content") is not None else None
        shown = text if text is not None else ("" if output is None else str(output))
        with self._lock:
            run = self._close(run_id)
            if run is None or run.node is None:
                return
            agent, rec, node = run.agent, run.agent.graph.recorder, run.node
            if node.type is NodeType.DATA_READ:
                rec.source_content(node, shown)
            result = rec.record(
                NodeType.TOOL_RESULT,
                label=f"Result: {run.name}",
                parents=[node.node_id, *run.reads],
                content=shown,
                data={"tool_name": run.name},
                **agent.fields(),
            )
            agent.graph.chain.add(result.node_id)

    def on_tool_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            run = self._close(run_id)
            if run is not None and run.node is not None:
                run.agent.graph.recorder.failure(run.node, error, **run.agent.fields())
                run.agent.graph.chain.add([*run.reads, run.node.node_id])

    # ------------------------------------------------------------------ retrievers
    def on_retriever_start(
        self,
        serialized: dict[str, Any] | None,
        query: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        name = runnable_name(serialized, kwargs, "retriever")
        with self._lock:
            run = self._enter(run_id, parent_run_id, name, metadata, query)
            run.query = query
            parent = self._runs.get(parent_run_id) if parent_run_id is not None else None
            run.node = parent.node if parent is not None and parent.node is not None else None

    def on_retriever_end(
        self,
        documents: Sequence[Document],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        with self._lock:
            run = self._close(run_id)
            if run is None:
                return
            agent, rec = run.agent, run.agent.graph.recorder
            anchor = run.node.node_id if run.node is not None else self._anchor(agent)
            reads = []
            for document in documents:
                source = document.metadata.get("source")
                args = (
                    {"query": run.query or "", "source": source}
                    if source
                    else {"query": run.query or ""}
                )
                read = rec.data_read(
                    anchor,
                    run.name,
                    args,
                    content=document.page_content,
                    file_path=str(source) if source else extract_file_path(document.metadata),
                    **agent.fields(),
                )
                document.metadata[CITATION_METADATA_KEY] = read.citation_key
                reads.append(read.node_id)
            tool = self._runs.get(parent_run_id) if parent_run_id is not None else None
            if tool is not None and tool.node is not None:
                tool.reads.extend(reads)
            else:
                agent.graph.chain.add(reads)

    def on_retriever_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            run = self._close(run_id)
            if run is None:
                return
            agent, rec = run.agent, run.agent.graph.recorder
            call = rec.tool_call(
                self._anchor(agent), run.name, {"query": run.query or ""}, **agent.fields()
            )
            rec.failure(call, error, **agent.fields())
            agent.graph.chain.add(call.node_id)
