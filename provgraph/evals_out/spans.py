"""A stored session as OpenTelemetry spans, with ids that are a function of provgraph's ids.

Shape (what Phoenix, Jaeger or any OTLP backend shows):

* one trace per session: trace id = the first 16 bytes of
  ``sha256(project, session)``; span id = 8 bytes of
  ``sha256(project, session, node_id)``, so re-sending a session yields the
  same ids and a span can be found again from its node (annotations);
* an ``AGENT`` span per agent run (``invoke_agent <agent>``), under the tool
  call that delegated to it; its ``input`` node becomes ``input.value``;
* an ``LLM`` span per model request (``chat``), its response as ``output.value``;
* a ``TOOL`` span per tool call (``execute_tool <tool>``), its result as
  ``output.value``; a ``RETRIEVER`` span per data read, the document as
  ``retrieval.documents.0.document.*`` with the citation key as its id;
* a ``CHAIN`` span per final output (``final_output <agent>``), the answer as
  ``output.value`` — the span verdicts are attached to;
* every span carries ``session.id``, ``provgraph.node_id`` and
  ``provgraph.node_type``; a failed step has status ``ERROR`` with its message.

Runs are built parents first (:func:`provgraph.lineage_out.runs.plan_runs`,
the same run plan the OpenLineage export uses).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from provgraph.graph import NodeStatus, NodeType, ProvenanceGraph, ProvenanceNode
from provgraph.lineage_out.runs import RunPlan, plan_runs, source_identity

MAX_VALUE_CHARS = 8_000
"""Text attributes are cut here (backends cap attribute sizes; the graph keeps the rest)."""

_TICK = timedelta(milliseconds=1)


def trace_id_for(project: str, session_id: str) -> int:
    digest = hashlib.sha256(f"{project}\x1f{session_id}".encode()).digest()
    return int.from_bytes(digest[:16], "big") or 1


def span_id_for(project: str, session_id: str, node_id: str) -> int:
    digest = hashlib.sha256(f"{project}\x1f{session_id}\x1f{node_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") or 1


def span_hex(span_id: int) -> str:
    """A span id as OTLP JSON and Phoenix write it (16 lowercase hex digits)."""
    return f"{span_id:016x}"


@dataclass
class SpanSpec:
    """One span to emit: ids, parent, name, times, attributes, outcome (pure data)."""

    node_id: str
    span_id: int
    parent_span_id: int | None
    name: str
    start: datetime
    end: datetime
    attributes: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


def _text(value: str | None) -> str:
    text = value or ""
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"


def _child_of_type(
    graph: ProvenanceGraph, node: ProvenanceNode, kind: NodeType
) -> ProvenanceNode | None:
    return next(
        (n for n in graph.successors(node.id) if n.type is kind and n.run_id == node.run_id), None
    )


def plan_spans(graph: ProvenanceGraph, project: str, session_id: str) -> list[SpanSpec]:
    """Every span of the session, parents before children (pure)."""
    sid = lambda node_id: span_id_for(project, session_id, node_id)  # noqa: E731
    specs: list[SpanSpec] = []
    emitted: dict[str, int] = {}
    for plan in plan_runs(graph, project, session_id):
        specs.extend(_run_spans(graph, plan, session_id, sid, emitted))
    return specs


def _run_spans(
    graph: ProvenanceGraph,
    plan: RunPlan,
    session_id: str,
    sid: Any,
    emitted: dict[str, int],
) -> list[SpanSpec]:
    nodes = sorted(
        (n for n in graph.nodes.values() if n.run_id == plan.run_id and n.type is not None),
        key=lambda n: (n.timestamp, n.id),
    )
    run_node = plan.run_node
    agent_key = run_node.id if run_node is not None else f"run:{plan.run_id}"
    parent_span = None
    if run_node is not None:
        parent_span = next(
            (emitted[p.id] for p in graph.predecessors(run_node.id) if p.id in emitted), None
        )
    first_input = next((n for n in nodes if n.type is NodeType.INPUT), None)
    agent = SpanSpec(
        node_id=agent_key,
        span_id=sid(agent_key),
        parent_span_id=parent_span,
        name=f"invoke_agent {plan.agent_name}",
        start=plan.started,
        end=plan.ended + _TICK,
        attributes={
            "openinference.span.kind": "AGENT",
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": plan.agent_name,
            "agent.name": plan.agent_name,
            "input.value": _text(first_input.content if first_input else ""),
        },
        error=_error(run_node),
    )
    emitted[agent_key] = agent.span_id
    specs = [agent]
    for index, node in enumerate(nodes):
        if node is run_node or node.type in (
            NodeType.INPUT,
            NodeType.MODEL_RESPONSE,
            NodeType.TOOL_RESULT,
        ):
            continue
        following = nodes[index + 1].timestamp if index + 1 < len(nodes) else node.timestamp
        spec = _node_span(graph, node, agent.span_id, sid(node.id), following)
        emitted[node.id] = spec.span_id
        specs.append(spec)
    for spec in specs:
        spec.attributes.update({"session.id": session_id, "provgraph.run_id": plan.run_id})
    return specs


def _node_span(
    graph: ProvenanceGraph, node: ProvenanceNode, parent: int, span_id: int, following: datetime
) -> SpanSpec:
    attributes: dict[str, Any] = {
        "provgraph.node_id": node.id,
        "provgraph.node_type": node.type.value if node.type else "",
    }
    end = max(following, node.timestamp + _TICK)
    name = node.label or (node.type.value if node.type else node.id)
    if node.type is NodeType.MODEL_REQUEST:
        response = _child_of_type(graph, node, NodeType.MODEL_RESPONSE)
        model = str(
            (response.data if response else {}).get("model_name")
            or node.data.get("model_name")
            or ""
        )
        name = f"chat {model}".strip()
        attributes.update({"openinference.span.kind": "LLM", "gen_ai.operation.name": "chat"})
        if model:
            attributes["llm.model_name"] = attributes["gen_ai.request.model"] = model
        if node.content:
            attributes["input.value"] = _text(node.content)
        if response is not None:
            attributes["output.value"] = _text(response.content)
            end = max(end, response.timestamp + _TICK)
    elif node.type is NodeType.TOOL_CALL:
        tool = str(node.data.get("tool_name") or node.label.removeprefix("Tool: "))
        name = f"execute_tool {tool}"
        attributes.update(
            {
                "openinference.span.kind": "TOOL",
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": tool,
                "tool.name": tool,
            }
        )
        args = node.data.get("args")
        if args is not None:
            attributes["input.value"] = _text(json.dumps(args, sort_keys=True, default=str))
        result = _child_of_type(graph, node, NodeType.TOOL_RESULT)
        if result is not None:
            attributes["output.value"] = _text(result.content)
            end = max(end, result.timestamp + _TICK)
    elif node.type is NodeType.DATA_READ:
        identity = source_identity(node)
        name = f"read {identity}"
        attributes.update(
            {
                "openinference.span.kind": "RETRIEVER",
                "retrieval.documents.0.document.id": node.citation_key or node.id,
                "retrieval.documents.0.document.content": _text(node.content),
                "retrieval.documents.0.document.metadata": json.dumps({"source": identity}),
            }
        )
    elif node.type is NodeType.FINAL_OUTPUT:
        name = f"final_output {node.agent_name}"
        attributes.update({"openinference.span.kind": "CHAIN", "output.value": _text(node.content)})
    if node.citation_key:
        attributes["provgraph.citation_key"] = node.citation_key
    return SpanSpec(node.id, span_id, parent, name, node.timestamp, end, attributes, _error(node))


def _error(node: ProvenanceNode | None) -> str | None:
    if node is None or node.status is not NodeStatus.ERROR:
        return None
    return f"{node.error.type}: {node.error.message}" if node.error else "error"
