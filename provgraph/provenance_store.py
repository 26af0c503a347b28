"""``ProvenanceStore``: the seed library's store, as a facade over one session of a GraphStore.

Code written for ``pydantic_ai_provenance.store.ProvenanceStore`` keeps working:
``add_node``/``add_edge``, one shared key counter (``d_1, a_2, d_3`` …),
``resolve_citation``, ``citation_summary`` and the exports. Every write becomes
a native event, so the same graph lands in the embedded store (and its log) or
in Neo4j, and the platform's attribution, lineage and verification see it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from provgraph.citations import AGENT_KEY_PREFIX, DATA_KEY_PREFIX
from provgraph.errors import ValidationError
from provgraph.events import MAX_DATA_BYTES, EdgeSpec, ErrorInfo, Event
from provgraph.graph import EdgeLabel, NodeType, ProvenanceEdge, ProvenanceGraph, ProvenanceNode
from provgraph.mapping import EDGE_LABEL_BY_CHILD_TYPE
from provgraph.seed_registry import CitationRegistryView
from provgraph.seed_view import seed_graph, seed_node
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import GraphStore
from provgraph.store.types import IngestResult

if TYPE_CHECKING:
    from provgraph.verification.sources import SourceResolver

_SUMMARY_NODE_DATA_KEYS = frozenset({"file_path", "output", "tool_name"})
_CONTENT_DATA_KEYS = ("output", "result", "text", "content", "prompt")
_MAX_DATA_VALUE_CHARS = 4_000
DEFAULT_PROJECT = "default"


class ProvenanceStore:
    """The graph of one agent session, with its citation-key registry."""

    def __init__(
        self,
        graph_store: GraphStore | None = None,
        *,
        project: str = DEFAULT_PROJECT,
        session_id: str | None = None,
        path: str | Path | None = None,
    ) -> None:
        if graph_store is not None and path is not None:
            raise ValueError("pass either graph_store or path, not both")
        self.graph_store: GraphStore = graph_store or MemoryGraphStore(path)
        self.project = project
        self.session_id = session_id or f"session-{uuid.uuid4()}"
        self._pending_edges: dict[str, list[ProvenanceEdge]] = {}
        self._pending_keys: dict[str, str] = {}  # node id -> key handed out before add_node
        self._counter = self._highest_key_number()

    # ------------------------------------------------------------------ writes
    def ingest(self, events: Sequence[Event]) -> IngestResult:
        """Send native events for this store's project (they may name any session)."""
        return self.graph_store.ingest(self.project, events)

    def _send(self, event: Event) -> None:
        result = self.graph_store.ingest(self.project, [event])
        if result.rejected:
            error = result.rejected[0]
            raise ValidationError(error.reason, path=error.path)

    def _emit(self, node: ProvenanceNode, *, edges: Sequence[ProvenanceEdge] = ()) -> None:
        """Record the whole node (its first report)."""
        if node.type is None:
            raise ValidationError("a node needs a type to be recorded", path="type")
        content, data = _split_content(node)
        self._send(
            Event(
                id=f"evt-{uuid.uuid4()}",
                type=node.type,
                timestamp=_aware(node.timestamp),
                session_id=node.session_id or self.session_id,
                node_id=node.id,
                run_id=node.run_id or None,
                agent_name=node.agent_name or None,
                label=node.label,
                edges=_edge_specs(node.type, edges),
                citation_key=node.citation_key,
                content=content,
                data=data,
                status=node.status,
                error=ErrorInfo(type=node.error.type, message=node.error.message)
                if node.error is not None
                else None,
            )
        )

    def _amend(
        self,
        node: ProvenanceNode,
        *,
        edges: Sequence[ProvenanceEdge] = (),
        citation_key: str | None = None,
    ) -> None:
        """Add edges or a key to a recorded node without re-sending its content.

        Fields an event leaves out are not touched (per-field last-writer-wins), so
        an amendment carries only the type, the session and what it adds.
        """
        assert node.type is not None
        self._send(
            Event(
                id=f"evt-{uuid.uuid4()}",
                type=node.type,
                timestamp=_aware(node.timestamp),
                session_id=node.session_id or self.session_id,
                node_id=node.id,
                edges=_edge_specs(node.type, edges),
                citation_key=citation_key,
            )
        )

    def add_node(self, node: ProvenanceNode) -> None:
        """Record a node (with any edges, or a key, that were waiting for it)."""
        waiting = self._pending_edges.pop(node.id, [])
        key = self._pending_keys.pop(node.id, None)
        if key is not None and node.citation_key is None:
            node = replace(node, citation_key=key)
        self._emit(node, edges=waiting)

    def add_edge(self, source_id: str, target_id: str, label: str = "") -> None:
        """Record an edge; if the target is not known yet it is kept until it is.

        An empty label is inferred from the target's type as in the seed.
        """
        if label and label not in EdgeLabel.__members__.values():
            raise ValidationError(f"unknown edge label {label!r}", path="label")
        target = self.graph_store.get_node(self.project, target_id)
        edge = ProvenanceEdge(source_id, target_id, label)
        if target is None or target.type is None:
            self._pending_edges.setdefault(target_id, []).append(edge)
            return
        self._amend(target, edges=[edge])

    # ------------------------------------------------------------------ citation keys
    def _highest_key_number(self) -> int:
        return max((_key_number(k) for k in self.citation_keys()), default=0)

    def citation_keys(self) -> list[str]:
        """The session's keys: those bound to recorded nodes, then those still waiting."""
        bound = [e.key for e in self.graph_store.citation_summary(self.project, self.session_id)]
        return bound + [k for k in self._pending_keys.values() if k not in bound]

    def bind_citation_key(self, key: str, node_id: str) -> None:
        """Bind ``key`` to ``node_id`` (the seed's ``_citation_registry[key] = node_id``).

        A recorded node gets the key now; otherwise it waits for :meth:`add_node`,
        like a key from :meth:`register_data_source`. Later keys continue after it.
        """
        node = self.graph_store.get_node(self.project, node_id)
        if node is None or node.type is None:
            self._pending_keys[node_id] = key
        else:
            self._amend(node, citation_key=key)
        self._counter = max(self._counter, _key_number(key))

    def forget_pending_key(self, key: str) -> bool:
        """Take back a key still waiting for its node; False when none waits."""
        waiting = [n for n, k in self._pending_keys.items() if k == key]
        for node_id in waiting:
            del self._pending_keys[node_id]
        return bool(waiting)

    @property
    def _citation_registry(self) -> CitationRegistryView:
        """The seed's private key → node id dict, as a live view (seed code writes to it)."""
        return CitationRegistryView(self)

    def _register(self, node_id: str, prefix: str) -> str:
        node = self.graph_store.get_node(self.project, node_id)
        if node is None or node.type is None:
            # seed behaviour: the key is handed out now and bound when the node is added
            if node_id not in self._pending_keys:
                self._counter += 1
                self._pending_keys[node_id] = f"{prefix}_{self._counter}"
            return self._pending_keys[node_id]
        if node.citation_key:
            return node.citation_key
        self._counter += 1
        key = f"{prefix}_{self._counter}"
        self._amend(node, citation_key=key)
        return key

    @property
    def last_key_number(self) -> int:
        """The highest ``N`` handed out so far (keys continue from ``N + 1``)."""
        return self._counter

    def register_data_source(self, node_id: str) -> str:
        """Give a data-read node the next ``d_N`` key (shared counter with ``a_N``).

        As in the seed, the node need not be added yet: the key is handed out at
        once and bound to the node when :meth:`add_node` records it. A node keeps
        one key (registering it again returns that key).
        """
        return self._register(node_id, DATA_KEY_PREFIX)

    def register_agent_output(self, node_id: str) -> str:
        """Give a sub-agent's output node the next ``a_N`` key."""
        return self._register(node_id, AGENT_KEY_PREFIX)

    def resolve_citation(self, key: str) -> str | None:
        node = self.graph_store.resolve_citation_key(self.project, self.session_id, key)
        if node is not None:
            return node.id
        return next((n for n, k in self._pending_keys.items() if k == key), None)

    def citation_key_for_node(self, node_id: str) -> str | None:
        node = self.graph_store.get_node(self.project, node_id)
        if node is not None and node.citation_key:
            return node.citation_key
        return self._pending_keys.get(node_id)

    def citation_summary(self) -> dict[str, dict[str, Any]]:
        """Every key → what it names (seed shape, plus ``cited_in``)."""
        summary: dict[str, dict[str, Any]] = {}
        for entry in self.graph_store.citation_summary(self.project, self.session_id):
            node = seed_node(entry.node)
            summary[entry.key] = {
                "node_id": node.id,
                "type": node.type.value if node.type else None,
                "label": node.label,
                "agent_name": node.agent_name,
                "run_id": node.run_id,
                **{k: v for k, v in node.data.items() if k in _SUMMARY_NODE_DATA_KEYS},
                "cited_in": list(entry.cited_in),
            }
        return summary

    def source_resolver(self) -> SourceResolver:
        """Resolves this session's keys to source texts (for verification)."""
        from provgraph.verification.sources import GraphSourceResolver

        return GraphSourceResolver(self.graph_store, self.project, self.session_id)

    # ------------------------------------------------------------------ graph access
    @property
    def graph(self) -> ProvenanceGraph:
        """A snapshot of the session's graph (re-read on every access)."""
        return seed_graph(self.graph_store.session_graph(self.project, self.session_id))

    @property
    def nodes(self) -> dict[str, ProvenanceNode]:
        return self.graph.nodes

    @property
    def edges(self) -> list[ProvenanceEdge]:
        return self.graph.edges

    # ------------------------------------------------------------------ exports
    def to_json(self) -> dict[str, Any]:
        from provgraph.exports.json_export import graph_to_json

        return graph_to_json(self.graph)

    def to_json_str(self, indent: int = 2) -> str:
        return json.dumps(self.to_json(), indent=indent, default=str)

    def to_mermaid(self) -> str:
        from provgraph.exports.mermaid import graph_to_mermaid

        return graph_to_mermaid(self.graph)

    def to_dot(self, graph_name: str = "provenance") -> str:
        from provgraph.exports.dot import graph_to_dot

        return graph_to_dot(self.graph, graph_name=graph_name)

    def to_html(self, title: str = "Provenance Graph") -> str:
        from provgraph.exports.html import graph_to_html

        return graph_to_html(self.graph, title=title)

    def to_prov_json(self) -> dict[str, Any]:
        from provgraph.exports.prov_export import graph_to_prov_json

        return graph_to_prov_json(self.graph)

    def open_in_browser(self, title: str = "Provenance Graph") -> Path:
        """Write the HTML page to a temporary file, open it, and return its path."""
        import tempfile
        import webbrowser

        with tempfile.NamedTemporaryFile(
            suffix=".html", delete=False, mode="w", encoding="utf-8"
        ) as handle:
            handle.write(self.to_html(title=title))
        webbrowser.open(Path(handle.name).as_uri())
        return Path(handle.name)


def _split_content(node: ProvenanceNode) -> tuple[str | None, dict[str, Any]]:
    """Move the node's text into ``content`` and keep ``data`` JSON-safe and small.

    The seed kept tool results and outputs inside ``data``; the event format has
    a ``content`` field for text (verification reads it) and a size cap on
    ``data``, so long text values are moved or shortened, never dropped silently:
    a shortened value ends with a marker that says how much was cut.
    """
    data: dict[str, Any] = json.loads(json.dumps(node.data, default=str))
    content = node.content
    if content is None:
        for key in _CONTENT_DATA_KEYS:
            if isinstance(data.get(key), str):
                content = data[key]
                break
    for key, value in list(data.items()):
        if isinstance(value, str) and len(value) > _MAX_DATA_VALUE_CHARS:
            cut = len(value) - _MAX_DATA_VALUE_CHARS
            data[key] = value[:_MAX_DATA_VALUE_CHARS] + f"… [{cut} characters in content]"
    while len(json.dumps(data).encode()) > MAX_DATA_BYTES and data:
        data.pop(max(data, key=lambda k: len(json.dumps(data[k], default=str))))
    return content, data


def _aware(moment: datetime) -> datetime:
    """Naive datetimes from seed code are taken as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _edge_specs(node_type: NodeType, edges: Sequence[ProvenanceEdge]) -> list[EdgeSpec]:
    return [
        EdgeSpec(
            source_id=e.source_id, label=EdgeLabel(e.label or EDGE_LABEL_BY_CHILD_TYPE[node_type])
        )
        for e in edges
    ]


def _key_number(key: str) -> int:
    """``N`` of a ``d_N`` / ``a_N`` key (0 for any other key)."""
    _, _, number = key.rpartition("_")
    return int(number) if number.isdigit() else 0
