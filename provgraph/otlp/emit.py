"""Emitting the nodes of each classified span, one method per kind of span (pure).

Inside one agent span, children are chained in start-time order the way the
seed capability chains a run (input → request → response → tool call → result
→ next request …), so attribution walks from a final output back to the
documents and tool results that fed it. Every method returns the nodes that
feed the next step of the enclosing run. Spans that name no agent inherit the
enclosing agent span's name.
"""

from __future__ import annotations

from dataclasses import replace

from provgraph.events import is_citation_key
from provgraph.graph import NodeStatus, NodeType
from provgraph.otlp.builder import SpanEventBuilder, cap_content, node_id
from provgraph.otlp.classify import AGENT, LLM, NATIVE, RETRIEVAL, STEP, TOOL, SpanInfo
from provgraph.otlp.decode import SpanRecord
from provgraph.otlp.failure import span_failure
from provgraph.otlp.native import native_node
from provgraph.otlp.sessions import SpanKey
from provgraph.otlp.sources import CITATION_KEY_ATTR, is_source_tool, read_key
from provgraph.otlp.tree import SpanTree


def _failed_empty(span: SpanRecord, output: str | None) -> bool:
    """A failed span with no output produced nothing: no response or result node."""
    failure = span_failure(span)
    return not output and failure is not None and failure.status is NodeStatus.ERROR


class SpanEmitter:
    """Walks a :class:`SpanTree` from its roots, adding events to the builder."""

    def __init__(self, b: SpanEventBuilder, tree: SpanTree, source_tools: frozenset[str]) -> None:
        self.b = b
        self.tree = tree
        self.source_tools = source_tools

    def emit_all(self) -> None:
        for root in self.tree.roots():
            self.emit(root, [])
        for parent, kids in self.tree.orphans():
            for kid in kids:
                self.emit(kid, [node_id(*parent)])

    def emit(self, key: SpanKey, entry: list[str], agent: str | None = None) -> list[str]:
        """One span's nodes; ``entry`` = its parents; returns what feeds the next step."""
        span, info, session = self.tree.spans[key], self.tree.infos[key], self.tree.session_of(key)
        if info.agent_name is None and agent is not None:
            info = replace(info, agent_name=agent)
        if info.kind == NATIVE:
            return native_node(self.b, span, info, session, entry)
        if info.kind in (AGENT, STEP):
            return self._agent(key, span, info, session, entry)
        if info.kind == LLM:
            return self._llm(key, span, info, session, entry)
        if info.kind == TOOL:
            return self._tool(key, span, info, session, entry)
        if info.kind == RETRIEVAL:
            return self._retrieval(span, info, session, entry)
        return []

    def _children(self, key: SpanKey, entry: list[str], agent: str | None) -> None:
        for child in self.tree.children.get(key, []):
            self.emit(child, entry, agent)

    def _agent(
        self, key: SpanKey, span: SpanRecord, info: SpanInfo, session: str, entry: list[str]
    ) -> list[str]:
        b = self.b
        if info.graph_parent_id and info.graph_parent_id in self.tree.graph_nodes:
            entry = [*entry, node_id(*self.tree.graph_nodes[info.graph_parent_id])]
        label = f"Agent: {info.agent_name}" if info.agent_name else None
        run = b.add(span, info, session, "", NodeType.AGENT_RUN, entry, label=label)
        if info.agent_name and not self.tree.children.get(key):
            b.out.lonely_agents[key] = (info.agent_name, session)
        last = [run]
        if info.input_text:
            content = cap_content(info.input_text)
            last = [b.add(span, info, session, "-input", NodeType.INPUT, [run], content=content)]
        for child in self.tree.children.get(key, []):
            last = self.emit(child, last, info.agent_name) or last
        if info.output_text:
            key_attr = span.attributes.get(CITATION_KEY_ATTR)
            b.add(
                span,
                info,
                session,
                "-output",
                NodeType.FINAL_OUTPUT,
                last,
                content=cap_content(info.output_text),
                citation_key=key_attr if isinstance(key_attr, str) else None,
            )
        return []

    def _llm(
        self, key: SpanKey, span: SpanRecord, info: SpanInfo, session: str, entry: list[str]
    ) -> list[str]:
        request = self.b.add(
            span,
            info,
            session,
            "",
            NodeType.MODEL_REQUEST,
            entry,
            label=f"Model request: {info.model_name}" if info.model_name else None,
            content=cap_content(info.input_text),
            data={"model_name": info.model_name},
        )
        response = (
            request
            if _failed_empty(span, info.output_text)
            else self.b.add(
                span,
                info,
                session,
                "-response",
                NodeType.MODEL_RESPONSE,
                [request],
                content=cap_content(info.output_text),
                data={
                    "model_name": info.model_name,
                    "tool_calls": list(info.tool_calls) or None,
                    "usage": info.usage or None,
                },
            )
        )
        self._children(key, [response], info.agent_name)
        return [response]

    def _tool(
        self, key: SpanKey, span: SpanRecord, info: SpanInfo, session: str, entry: list[str]
    ) -> list[str]:
        """A tool call and its result; a data read when the tool read a source (sources.py)."""
        cite = read_key(span, info.output_text)
        source = cite is not None or is_source_tool(span, info.tool_name, self.source_tools)
        call = self.b.add(
            span,
            info,
            session,
            "",
            NodeType.DATA_READ if source else NodeType.TOOL_CALL,
            entry[-1:],
            label=f"Tool: {info.tool_name}",
            citation_key=cite,
            data={
                "tool_name": info.tool_name,
                "tool_call_id": info.tool_call_id,
                "args": info.input_text,
            },
        )
        if source and cite is None:
            self.b.out.unkeyed_reads.append((session, call))
        self._children(key, [call], info.agent_name)  # e.g. a sub-agent run: delegates_to
        if _failed_empty(span, info.output_text):
            return [call]
        result = self.b.add(
            span,
            info,
            session,
            "-result",
            NodeType.TOOL_RESULT,
            [call],
            label=f"Result: {info.tool_name}",
            content=cap_content(info.output_text),
            data={"tool_name": info.tool_name},
        )
        return [result]

    def _retrieval(
        self, span: SpanRecord, info: SpanInfo, session: str, entry: list[str]
    ) -> list[str]:
        """One keyed data read per retrieved document."""
        reads = []
        for i, doc in enumerate(info.documents):
            meta_key = doc.metadata.get(CITATION_KEY_ATTR)
            cite = (
                meta_key
                if isinstance(meta_key, str)
                else (doc.id if doc.id and is_citation_key(doc.id) else None)
            )
            reads.append(
                self.b.add(
                    span,
                    info,
                    session,
                    f"-doc-{i}",
                    NodeType.DATA_READ,
                    entry[-1:],
                    label=f"Document {doc.id}" if doc.id else "Retrieved document",
                    content=cap_content(doc.content),
                    citation_key=cite,
                    data={"document_id": doc.id, "score": doc.score, "query": info.input_text},
                )
            )
        return reads
