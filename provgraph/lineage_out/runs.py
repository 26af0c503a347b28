"""One session as OpenLineage runs: which runs, their parents, inputs and outputs (pure).

The mapping (documented in docs/integrations.md, "OpenLineage"):

* every ``run_id`` of the session is one OpenLineage **run** of the **job**
  named after its agent (``agent_name``), so a lineage tool groups the runs of
  one agent across sessions;
* the run id is a UUIDv5 of ``(project, session, run_id)``: exporting or
  pushing the same session twice yields the same ids (consumers deduplicate);
* a run whose ``agent_run`` node hangs from a node of another run (the tool
  call that delegated to it) gets that run as **parent**; the root is the
  top of that chain;
* **inputs** are the run's ``data_read`` nodes and the final outputs of the
  runs it delegated to; **outputs** are its ``final_output`` nodes;
* the run's state: ``FAIL`` when its ``agent_run`` node failed, ``COMPLETE``
  when it reported ``ok`` or produced a final output, otherwise only
  ``START`` (the run has not finished, as far as the graph knows).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime

from provgraph.graph import NodeError, NodeStatus, NodeType, ProvenanceGraph, ProvenanceNode
from provgraph.mapping import default_label

RUN_ID_NAMESPACE = uuid.UUID("6f1c1d52-5a0e-5b7e-9a55-70726f766772")
"""The UUIDv5 namespace of provgraph's OpenLineage run ids (fixed forever)."""

SOURCE_PREFIX = "[source] "
_IDENTITY_KEYS = ("file_path", "path", "url", "uri", "source", "document_id")


def run_uuid(project: str, session_id: str, run_id: str) -> str:
    """The stable OpenLineage run id of one agent run: UUIDv5 of its provgraph ids."""
    return str(uuid.uuid5(RUN_ID_NAMESPACE, f"{project}\x1f{session_id}\x1f{run_id}"))


def source_identity(node: ProvenanceNode) -> str:
    """What a data read read, as stable as the event allows.

    A path or URL the producer recorded (``data.file_path``, ``path``, ``url``
    …) names the same document across sessions; else the label without the
    capability's ``[source]`` prefix (unless it is the generic default label,
    which would merge every unnamed read into one dataset); else the tool name
    and node id.
    """
    for key in _IDENTITY_KEYS:
        value = node.data.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    label = node.label.removeprefix(SOURCE_PREFIX).strip()
    if label and label != default_label(NodeType.DATA_READ, node.agent_name):
        return label
    tool = node.data.get("tool_name")
    return f"{tool}/{node.id}" if isinstance(tool, str) and tool else node.id


@dataclass(frozen=True)
class DatasetRef:
    """A dataset of the plan: ``kind`` is ``source`` or ``output``; the node it came from."""

    kind: str
    name: str
    node: ProvenanceNode


@dataclass
class RunPlan:
    """One agent run of the session, ready to become OpenLineage events."""

    run_id: str
    uuid: str
    agent_name: str
    started: datetime
    ended: datetime
    run_node: ProvenanceNode | None
    parent: str | None = None
    root: str | None = None
    inputs: list[DatasetRef] = field(default_factory=list)
    outputs: list[DatasetRef] = field(default_factory=list)
    failed_steps: int = 0

    @property
    def state(self) -> str:
        """``FAIL``, ``COMPLETE`` or ``RUNNING`` (START only), from the run's status."""
        node = self.run_node
        if node is not None and node.status is NodeStatus.ERROR:
            return "FAIL"
        if (node is not None and node.status is NodeStatus.OK) or self.outputs:
            return "COMPLETE"
        return "RUNNING"

    @property
    def error(self) -> NodeError | None:
        return None if self.run_node is None else self.run_node.error


def output_name(session_id: str, node: ProvenanceNode) -> str:
    """Dataset name of a final output: ``<session>/<citation key or node id>``."""
    return f"{session_id}/{node.citation_key or node.id}"


def plan_runs(graph: ProvenanceGraph, project: str, session_id: str) -> list[RunPlan]:
    """The session's runs in start order, parents before children (pure).

    Placeholder nodes (their event has not arrived) carry no run and are skipped.
    """
    by_run: dict[str, list[ProvenanceNode]] = {}
    for node in graph.nodes.values():
        if node.type is not None and node.run_id:
            by_run.setdefault(node.run_id, []).append(node)
    plans: dict[str, RunPlan] = {}
    for run_id, nodes in by_run.items():
        run_node = next((n for n in nodes if n.type is NodeType.AGENT_RUN), None)
        times = [n.timestamp for n in nodes]
        plan = RunPlan(
            run_id=run_id,
            uuid=run_uuid(project, session_id, run_id),
            agent_name=(run_node or nodes[0]).agent_name or "agent",
            started=min(times),
            ended=max(times),
            run_node=run_node,
            failed_steps=sum(1 for n in nodes if n.failed and n is not run_node),
        )
        for node in sorted(nodes, key=lambda n: (n.timestamp, n.id)):
            if node.type is NodeType.DATA_READ:
                plan.inputs.append(DatasetRef("source", source_identity(node), node))
            elif node.type is NodeType.FINAL_OUTPUT:
                plan.outputs.append(DatasetRef("output", output_name(session_id, node), node))
        plans[run_id] = plan
    _link_parents(graph, plans)
    return sorted(plans.values(), key=lambda p: (_depth(plans, p), p.started, p.run_id))


def _link_parents(graph: ProvenanceGraph, plans: dict[str, RunPlan]) -> None:
    """Parent = the run of the node the ``agent_run`` hangs from; children feed their parent."""
    for plan in plans.values():
        if plan.run_node is None:
            continue
        for parent_node in graph.predecessors(plan.run_node.id):
            if parent_node.run_id == plan.run_id:
                continue
            if parent_node.run_id in plans:
                plan.parent = parent_node.run_id
                break
    for plan in plans.values():
        seen: set[str] = {plan.run_id}
        top = plan
        while top.parent is not None and top.parent not in seen:
            seen.add(top.parent)
            top = plans[top.parent]
        plan.root = top.run_id if top is not plan else None
        if plan.parent is not None:
            plans[plan.parent].inputs.extend(plan.outputs)


def _depth(plans: dict[str, RunPlan], plan: RunPlan) -> int:
    depth, seen, current = 0, {plan.run_id}, plan
    while current.parent is not None and current.parent not in seen:
        seen.add(current.parent)
        current = plans[current.parent]
        depth += 1
    return depth
