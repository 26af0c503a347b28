"""The shape of one export: which spans get nodes, who hangs from whom, which session (pure).

Generic spans (HTTP, DB, CHAIN spans that are not graph nodes) get no node;
a classified span hangs from its nearest ancestor that has one, which may lie
outside the export (the store then keeps a placeholder until it arrives).
Siblings are ordered by start time, the order the run chains them in.
"""

from __future__ import annotations

from collections.abc import Mapping

from provgraph.otlp.classify import GENERIC, RETRIEVAL, STEP, SpanInfo
from provgraph.otlp.decode import SpanRecord
from provgraph.otlp.routing import trace_session
from provgraph.otlp.sessions import SpanKey


def keeps_node(info: SpanInfo) -> bool:
    """Whether the span is a node of its own (retrievals become one node per document)."""
    return info.kind not in (GENERIC, RETRIEVAL) and not (
        info.kind == STEP and not info.graph_node_id
    )


class SpanTree:
    """Spans of one export arranged for emission: children per structural parent."""

    def __init__(
        self,
        spans: Mapping[SpanKey, SpanRecord],
        infos: Mapping[SpanKey, SpanInfo],
        sessions: Mapping[str, str],
    ) -> None:
        self.spans = spans
        self.infos = infos
        self.sessions = sessions
        self.graph_nodes = {i.graph_node_id: k for k, i in infos.items() if i.graph_node_id}
        self.children: dict[SpanKey | None, list[SpanKey]] = {}
        for key, info in infos.items():
            if keeps_node(info) or info.kind == RETRIEVAL:
                self.children.setdefault(self._structural_parent(key), []).append(key)
        for siblings in self.children.values():
            siblings.sort(key=lambda k: (spans[k].start_time_unix_nano, k[1]))

    def _structural_parent(self, key: SpanKey) -> SpanKey | None:
        """Nearest ancestor with a node of its own (may lie outside this export)."""
        parent = self.spans[key].parent_span_id
        seen = {key}
        while parent:
            pkey = (key[0], parent)
            if pkey in seen:
                return None  # a cycle in malformed input: treat as a root
            seen.add(pkey)
            if pkey not in self.spans or keeps_node(self.infos[pkey]):
                return pkey
            parent = self.spans[pkey].parent_span_id
        return None

    def session_of(self, key: SpanKey) -> str:
        return self.infos[key].session_id or self.sessions.get(key[0]) or trace_session(key[0])

    def roots(self) -> list[SpanKey]:
        return self.children.get(None, [])

    def orphans(self) -> list[tuple[SpanKey, list[SpanKey]]]:
        """Spans whose structural parent is outside this export, by that parent."""
        return [(p, kids) for p, kids in self.children.items() if p and p not in self.spans]
