"""W3C PROV export (PROV-JSON through the ``prov`` package), following ``docs/interop.md``.

Mapping:

* ``agent_run``, ``tool_call``, ``model_request`` → ``prov:Activity`` (start
  time = the node's timestamp);
* every ``agent_name`` → one ``prov:Agent`` typed ``prov:SoftwareAgent``; a
  model named in a model node's ``data`` (``model``/``model_name``) → another
  SoftwareAgent;
* ``input``, ``data_read``, ``tool_result``, ``model_response``,
  ``final_output`` → ``prov:Entity``;
* activity ``wasAssociatedWith`` its agent (model requests with the model
  too); entity ``wasAttributedTo`` its agent (model responses to the model too);
* each edge by the kinds of its ends (data flows source → target):
  entity→activity ``used``, activity→entity ``wasGeneratedBy`` (but
  ``starts_with``, run → input, is the run having ``used`` its input),
  entity→entity ``wasDerivedFrom``, activity→activity ``wasInformedBy``;
  ``cited_in`` is the citing output ``wasDerivedFrom`` the cited source;
* ``delegates_to`` (tool call → sub-agent run) additionally makes the
  sub-agent ``actedOnBehalfOf`` the tool call's agent, for that run;
* a placeholder (type unknown) becomes an entity marked
  ``provgraph:placeholder``: PROV has no untyped element, and its edges use
  ``wasInfluencedBy``, the one relation PROV allows between any two elements.
  The same relation carries an edge whose ends admit no specific relation (a
  cited activity).

Every relation carries ``provgraph:edgeLabel``; node fields that PROV has no
slot for become ``provgraph:*`` attributes (``data`` as a JSON string).
Identifiers are made into valid qualified names by an injective escape (see
:func:`local_name`), so two node ids never share a PROV identifier.
"""

from __future__ import annotations

import json
from typing import Any

from prov.model import PROV_LABEL, PROV_TYPE, ProvDocument, QualifiedName

from provgraph.graph import EdgeLabel, NodeType, ProvenanceGraph, ProvenanceNode

PROVGRAPH_PREFIX = "provgraph"
PROVGRAPH_NAMESPACE = "https://provgraph.dev/ns#"

ACTIVITY_TYPES: frozenset[NodeType] = frozenset(
    {NodeType.AGENT_RUN, NodeType.TOOL_CALL, NodeType.MODEL_REQUEST}
)
ENTITY_TYPES: frozenset[NodeType] = frozenset(
    {
        NodeType.INPUT,
        NodeType.DATA_READ,
        NodeType.TOOL_RESULT,
        NodeType.MODEL_RESPONSE,
        NodeType.FINAL_OUTPUT,
    }
)
_MODEL_DATA_KEYS = ("model", "model_name")
_SAFE_LOCAL_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def local_name(kind: str, value: str) -> str:
    """A PROV-N-safe local name ``<kind>_<escaped value>``, injective in ``value``.

    Letters, digits, ``_`` and ``-`` are kept (so UUIDs stay readable); every
    other character is percent-encoded per UTF-8 byte (``%`` itself as
    ``%25``), the escape PROV-N and IRIs both define, so the name can be
    decoded and distinct ids stay distinct. ``.`` ``:`` and ``/`` never appear
    unencoded, which keeps the name valid as a PROV-N local part and in PROV-O.
    """
    out: list[str] = [kind, "_"]
    for char in value:
        if char in _SAFE_LOCAL_CHARS:
            out.append(char)
        else:
            out.extend(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))
    return "".join(out)


def model_name(node: ProvenanceNode) -> str | None:
    """The model a model request/response names in its ``data``, if any."""
    if node.type not in (NodeType.MODEL_REQUEST, NodeType.MODEL_RESPONSE):
        return None
    for key in _MODEL_DATA_KEYS:
        value = node.data.get(key)
        if isinstance(value, str) and value:
            return value
    return None


class _Exporter:
    """Builds one :class:`ProvDocument` from one graph (single use)."""

    def __init__(self, graph: ProvenanceGraph) -> None:
        self.graph = graph
        self.doc = ProvDocument()
        self.ns = self.doc.add_namespace(PROVGRAPH_PREFIX, PROVGRAPH_NAMESPACE)
        self.agents: dict[str, QualifiedName] = {}

    def qn(self, kind: str, value: str) -> QualifiedName:
        return self.ns[local_name(kind, value)]

    def node_qn(self, node_id: str) -> QualifiedName:
        return self.qn("node", node_id)

    def agent(self, kind: str, name: str) -> QualifiedName:
        key = f"{kind}:{name}"
        if key not in self.agents:
            identifier = self.qn(kind, name)
            self.doc.agent(
                identifier,
                {
                    PROV_TYPE: self.doc.valid_qualified_name("prov:SoftwareAgent"),
                    PROV_LABEL: name,
                    self.ns["agentKind"]: kind,
                },
            )
            self.agents[key] = identifier
        return self.agents[key]

    def node_attributes(self, node: ProvenanceNode) -> dict[Any, Any]:
        attrs: dict[Any, Any] = {
            PROV_LABEL: node.label,
            self.ns["nodeId"]: node.id,
            self.ns["nodeType"]: "placeholder" if node.type is None else node.type.value,
            self.ns["agentName"]: node.agent_name,
            self.ns["runId"]: node.run_id,
        }
        optional = {
            "sessionId": node.session_id,
            "citationKey": node.citation_key,
            "content": node.content,
            "data": json.dumps(node.data, sort_keys=True, default=str) if node.data else None,
            "status": node.status.value if node.status is not None else None,
            "errorType": node.error.type if node.error is not None else None,
            "errorMessage": node.error.message if node.error is not None else None,
        }
        attrs.update({self.ns[k]: v for k, v in optional.items() if v is not None})
        if node.type is None:
            attrs[self.ns["placeholder"]] = True
        return attrs

    def add_node(self, node: ProvenanceNode) -> None:
        identifier = self.node_qn(node.id)
        attrs = self.node_attributes(node)
        model = model_name(node)
        if node.type in ACTIVITY_TYPES:
            self.doc.activity(identifier, startTime=node.timestamp, other_attributes=attrs)
            if node.agent_name:
                self.doc.wasAssociatedWith(identifier, self.agent("agent", node.agent_name))
            if model:
                self.doc.wasAssociatedWith(identifier, self.agent("model", model))
            return
        attrs[self.ns["timestamp"]] = node.timestamp
        self.doc.entity(identifier, attrs)
        if node.type is not None and node.agent_name:
            self.doc.wasAttributedTo(identifier, self.agent("agent", node.agent_name))
        if model:
            self.doc.wasAttributedTo(identifier, self.agent("model", model))

    def add_edge(self, source: ProvenanceNode, target: ProvenanceNode, label: str) -> None:
        src, dst = self.node_qn(source.id), self.node_qn(target.id)
        attrs = {self.ns["edgeLabel"]: label}
        src_act, dst_act = source.type in ACTIVITY_TYPES, target.type in ACTIVITY_TYPES
        src_ent, dst_ent = source.type in ENTITY_TYPES, target.type in ENTITY_TYPES
        if label == EdgeLabel.CITED_IN and src_ent and dst_ent:
            self.doc.wasDerivedFrom(dst, src, other_attributes=attrs)
        elif label == EdgeLabel.STARTS_WITH and src_act and dst_ent:
            self.doc.used(src, dst, other_attributes=attrs)
        elif src_ent and dst_act:
            self.doc.used(dst, src, other_attributes=attrs)
        elif src_act and dst_ent:
            self.doc.wasGeneratedBy(dst, src, other_attributes=attrs)
        elif src_ent and dst_ent:
            self.doc.wasDerivedFrom(dst, src, other_attributes=attrs)
        elif src_act and dst_act:
            self.doc.wasInformedBy(dst, src, other_attributes=attrs)
        else:
            self.doc.wasInfluencedBy(dst, src, other_attributes=attrs)
        if (
            label == EdgeLabel.DELEGATES_TO
            and target.type == NodeType.AGENT_RUN
            and source.agent_name
            and target.agent_name
            and source.agent_name != target.agent_name
        ):
            self.doc.actedOnBehalfOf(
                self.agent("agent", target.agent_name),
                self.agent("agent", source.agent_name),
                activity=dst,
            )

    def build(self) -> ProvDocument:
        for node in self.graph.nodes.values():
            self.add_node(node)
        for edge in self.graph.edges:
            source = self.graph.nodes.get(edge.source_id)
            target = self.graph.nodes.get(edge.target_id)
            if source is not None and target is not None:
                self.add_edge(source, target, edge.label)
        return self.doc


def graph_to_prov_document(graph: ProvenanceGraph) -> ProvDocument:
    """The graph as a PROV document (see the module docstring for the mapping).

    Edges to nodes not in the graph are left out: PROV relations need both ends
    and the missing end's kind (activity or entity) is unknown.
    """
    return _Exporter(graph).build()


def graph_to_prov_json(graph: ProvenanceGraph) -> dict[str, Any]:
    """The graph as PROV-JSON data (``json.loads`` of the ``prov`` package's serialisation)."""
    text = graph_to_prov_document(graph).serialize(format="json")
    if text is None:  # only when serialising to a destination, which this call never does
        raise RuntimeError("prov returned no PROV-JSON text")
    result: dict[str, Any] = json.loads(text)
    return result
