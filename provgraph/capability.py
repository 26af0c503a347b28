"""``ProvenanceCapability``: records a pydantic-ai agent's run as a provenance graph.

Drop-in for ``pydantic_ai_provenance.capability.ProvenanceCapability`` (same
parameters and defaults): it hooks runs, model requests and responses, tool
calls, data reads from ``source_tools`` (keyed ``d_N``; the tool's result is
shown to the model as ``"[REF|d_N]\\n" + result``) and sub-agent runs, which
share the parent's session through a ContextVar, get ``a_N`` keys on their
final output and a ``delegates_to`` edge from the parent's tool call.
Failures stay on the record: a tool that raises (including ``ModelRetry``),
a model request that fails and a run that fails get ``status = error`` with
the exception's type and bounded message on their node; the exception then
propagates unchanged.

Events are built by :class:`~provgraph.sdk.recorder.SessionRecorder` (keys
are allocated locally, so the model sees them at once) and always written to a
local embedded store (``.store``, ``await .verify(text)``); pass ``client=``
(e.g. a :class:`~provgraph.sdk.client.ProvgraphClient`) to also send them to
the platform. One capability instance may serve many runs; the per-run state
lives on the copy returned by ``for_run`` (seed behaviour), and ``.store`` on
the template shows the most recent top-level session.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.exceptions import ApprovalRequired, CallDeferred, SkipToolExecution
from pydantic_ai.messages import ModelResponse, ToolCallPart
from pydantic_ai.tools import RunContext, ToolDefinition

from provgraph.citations import format_cited_content
from provgraph.graph import NodeType
from provgraph.provenance_store import ProvenanceStore
from provgraph.sdk.recorder import RecordedNode, SessionRecorder
from provgraph.sdk.sinks import DEFAULT_PROJECT, EmbeddedSink, EventSink, TeeSink
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import GraphStore

if TYPE_CHECKING:
    from pydantic_ai.capabilities.abstract import WrapRunHandler, WrapToolExecuteHandler
    from pydantic_ai.models import ModelRequestContext
    from pydantic_ai.run import AgentRunResult

_NOT_FAILURES: tuple[type[Exception], ...] = (CallDeferred, ApprovalRequired, SkipToolExecution)
"""Control flow a tool may raise: the call is deferred or skipped, not failed."""

CITATION_INSTRUCTIONS = """\
FORMAT:
- Single source: [REF|<key>]
- Multiple sources for one claim: [REF|key1|key2]
- Place the tag immediately after the claim it supports.
- Use ONLY keys from [REF|<key>] headers in provided sources.
- Never invent keys or use any other citation style.

WHEN TO CITE:
- Specific facts, numbers, dates, findings or definitions taken from a source.

WHEN NOT TO CITE:
- Your own reasoning, connective language, or common knowledge.
- A point already cited earlier in the same response.

CITATION DEPTH:
- If a sub-agent result [REF|a_X] contains original-source keys [REF|d_X], cite those.
- Use [REF|a_X] only for a claim with no traceable original key; never [REF|a_X|d_Y].
"""


@dataclass
class _Session:
    """One provenance session: the recorder (keys, events) and the local store mirror."""

    recorder: SessionRecorder
    store: ProvenanceStore


@dataclass
class _Scope:
    """What a run started inside the current context inherits (ContextVar value).

    ``parent_call_id`` is the tool-call node a sub-agent run is delegated from;
    ``sub_outputs`` collects the final outputs of sub-agents run inside that call,
    so the caller can show their result to its model under the ``a_N`` key.
    """

    session: _Session
    parent_call_id: str | None = None
    sub_outputs: list[RecordedNode] = field(default_factory=list)


_SCOPE: ContextVar[_Scope | None] = ContextVar("provgraph_provenance_scope", default=None)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


@dataclass
class ProvenanceCapability(AbstractCapability[Any]):
    """Tracks an agent run (and its sub-agents) as a provenance DAG.

    ``source_tools`` name tools whose results are data sources: every call gets
    its own ``d_N`` key, so reading one file twice yields two traceable sources.
    ``inject_citation_instructions`` adds the citation rules to the system prompt.
    ``client`` also sends every event to the platform; ``graph_store``/``project``
    choose the embedded store (default: a fresh in-memory store per session);
    ``session_id`` pins all top-level runs to one session (keys keep counting).
    """

    source_tools: list[str] = field(default_factory=list)
    agent_name: str = "agent"
    inject_citation_instructions: bool = True
    client: EventSink | None = None
    graph_store: GraphStore | None = None
    project: str = DEFAULT_PROJECT
    session_id: str | None = None

    _session: _Session | None = field(default=None, init=False, repr=False)
    _parent_scope: _Scope | None = field(default=None, init=False, repr=False)
    _run_id: str = field(default="", init=False, repr=False)
    _run_node: str | None = field(default=None, init=False, repr=False)
    _last_node: str | None = field(default=None, init=False, repr=False)
    _pending_results: list[str] = field(default_factory=list, init=False, repr=False)
    _request_node: str | None = field(default=None, init=False, repr=False)

    # ------------------------------------------------------------------ public surface
    @property
    def store(self) -> ProvenanceStore:
        """The session's store; RuntimeError before the first run (seed behaviour)."""
        if self._session is None:
            raise RuntimeError("store is only available after the agent run starts")
        return self._session.store

    @property
    def recorder(self) -> SessionRecorder:
        """The session's recorder (keys, events); RuntimeError before the first run."""
        if self._session is None:
            raise RuntimeError("recorder is only available after the agent run starts")
        return self._session.recorder

    async def verify(self, text: str, **kwargs: Any) -> Any:
        """Verify ``text``'s citations against this session (``verify_citations`` options)."""
        from provgraph.verification import verify_citations

        return await verify_citations(text, self.store, **kwargs)

    def get_instructions(self) -> str | None:
        return CITATION_INSTRUCTIONS if self.inject_citation_instructions else None

    # ------------------------------------------------------------------ run lifecycle
    def _new_session(self) -> _Session:
        if self._session is not None and self.session_id is not None:
            return self._session  # pinned session: keep its store and key counter
        graph_store = self.graph_store or MemoryGraphStore()
        store = ProvenanceStore(graph_store, project=self.project, session_id=self.session_id)
        local = EmbeddedSink(graph_store, self.project)
        sink: EventSink = TeeSink(local, self.client) if self.client is not None else local
        recorder = SessionRecorder(
            sink,
            session_id=store.session_id,
            agent_name=self.agent_name,
            key_start=store.last_key_number,
        )
        return _Session(recorder, store)

    async def for_run(self, ctx: RunContext[Any]) -> ProvenanceCapability:
        scope = _SCOPE.get()
        session = scope.session if scope is not None else self._new_session()
        instance = replace(self)
        instance._session = session
        instance._parent_scope = scope
        instance._run_id = ctx.run_id or f"run-{id(instance)}"
        self._session = session  # seed: the template exposes the latest session's store
        return instance

    async def wrap_run(
        self, ctx: RunContext[Any], *, handler: WrapRunHandler
    ) -> AgentRunResult[Any]:
        # set and reset in this one coroutine: reset() must run in the context that set it
        token = _SCOPE.set(_Scope(self._require_session()))
        try:
            return await handler()
        finally:
            _SCOPE.reset(token)

    def _require_session(self) -> _Session:
        if self._session is None:
            raise RuntimeError("ProvenanceCapability hook called before for_run()")
        return self._session

    def _fields(self) -> dict[str, Any]:
        return {"run_id": self._run_id, "agent_name": self.agent_name}

    async def before_run(self, ctx: RunContext[Any]) -> None:
        rec = self._require_session().recorder
        parent = self._parent_scope.parent_call_id if self._parent_scope else None
        run = rec.run(
            self.agent_name,
            run_id=self._run_id,
            delegated_by=parent,
            data={"run_id": self._run_id, "conversation_id": ctx.conversation_id},
        )
        self._run_node = run.node_id
        prompt = ctx.prompt if isinstance(ctx.prompt, str) else _text(ctx.prompt or "")
        self._last_node = rec.input(run.node_id, prompt, **self._fields()).node_id

    async def on_run_error(
        self, ctx: RunContext[Any], *, error: BaseException
    ) -> AgentRunResult[Any]:
        if self._run_node is not None:
            rec = self._require_session().recorder
            run = RecordedNode(self._run_node, NodeType.AGENT_RUN)
            rec.failure(run, error, **self._fields())
        raise error

    async def after_run(
        self, ctx: RunContext[Any], *, result: AgentRunResult[Any]
    ) -> AgentRunResult[Any]:
        rec = self._require_session().recorder
        parents = self._pending_results or ([self._last_node] if self._last_node else [])
        output = rec.final_output(parents, _text(result.output), **self._fields())
        self._pending_results = []
        if self._parent_scope is not None and self._parent_scope.parent_call_id is not None:
            self._parent_scope.sub_outputs.append(output)
        return result

    # ------------------------------------------------------------------ model requests
    async def before_model_request(
        self, ctx: RunContext[Any], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        rec = self._require_session().recorder
        parents = self._pending_results or ([self._last_node] if self._last_node else [])
        node = rec.model_request(
            parents,
            label=f"Model request (step {ctx.run_step})",
            **self._fields(),
            data={"step": ctx.run_step, "message_count": len(request_context.messages)},
        )
        self._pending_results = []
        self._request_node = self._last_node = node.node_id
        return request_context

    async def after_model_request(
        self,
        ctx: RunContext[Any],
        *,
        request_context: ModelRequestContext,
        response: ModelResponse,
    ) -> ModelResponse:
        rec = self._require_session().recorder
        usage = response.usage
        node = rec.model_response(
            self._request_node or self._last_node or "",
            response.text or None,
            label=f"Model response (step {ctx.run_step})",
            **self._fields(),
            data={
                "step": ctx.run_step,
                "model_name": response.model_name,
                "tool_calls": [c.tool_name for c in response.tool_calls],
                "input_tokens": usage.input_tokens,
                "output_tokens": usage.output_tokens,
            },
        )
        self._last_node = node.node_id
        self._pending_results = []
        return response

    async def on_model_request_error(
        self,
        ctx: RunContext[Any],
        *,
        request_context: ModelRequestContext,
        error: Exception,
    ) -> ModelResponse:
        if self._request_node is not None:
            request = RecordedNode(self._request_node, NodeType.MODEL_REQUEST)
            self._require_session().recorder.failure(request, error, **self._fields())
        raise error

    # ------------------------------------------------------------------ tools
    async def wrap_tool_execute(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: Any,
        handler: WrapToolExecuteHandler,
    ) -> Any:
        session = self._require_session()
        rec = session.recorder
        arguments: dict[str, Any] = dict(args) if isinstance(args, dict) else {"args": args}
        is_source = call.tool_name in self.source_tools
        record = rec.data_read if is_source else rec.tool_call
        # the d_N key exists before the tool runs, so a sub-agent inside it can cite it
        node = record(
            self._last_node,
            call.tool_name,
            arguments,
            tool_call_id=call.tool_call_id,
            **self._fields(),
        )
        scope = _Scope(session, parent_call_id=node.node_id)
        token = _SCOPE.set(scope)
        try:
            result = await handler(args)
        except _NOT_FAILURES:
            raise
        except Exception as exc:
            rec.failure(node, exc, **self._fields())
            # the next model request sees the failure (a retry prompt or the run's end)
            self._pending_results.append(node.node_id)
            raise
        finally:
            _SCOPE.reset(token)
        shown: Any = result
        if is_source and node.citation_key:
            shown = format_cited_content(result, node.citation_key)
        elif scope.sub_outputs and scope.sub_outputs[-1].citation_key:
            # keep the sub-agent's inline d_N tags: the caller should cite the originals
            shown = f"[REF|{scope.sub_outputs[-1].citation_key}]\n{_text(result)}"
        outcome = rec.tool_result(
            node.node_id,
            _text(result),
            tool_name=call.tool_name,
            formatted=shown is not result,
            **self._fields(),
        )
        self._pending_results.append(outcome.node_id)
        return shown
