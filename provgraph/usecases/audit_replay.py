"""Rebuild a project's graph from its audit chain alone (the reference for verification).

Every ingest entry's events are applied, in chain order, to a fresh embedded
store with the chain off; each erasure entry drops the nodes its tombstone
names by digest, as the live store did. The result is what the graph must be
if nothing was changed behind the chain's back.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from provgraph.audit.chain import AuditEntry, EntryKind
from provgraph.events import Event
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import GraphStore

PAGE = 10_000


def load_entries(store: GraphStore, project: str) -> list[AuditEntry]:
    """Every entry as stored, in chain order (paged)."""
    entries: list[AuditEntry] = []
    while True:
        page = store.audit_entries(project, after=entries[-1].seq if entries else 0, limit=PAGE)
        entries.extend(page)
        if len(page) < PAGE:
            return entries


@dataclass
class Replay:
    """The rebuilt graph, which entry last wrote each node, and the erased node digests."""

    project: str
    store: MemoryGraphStore
    written_by: dict[str, int] = field(default_factory=dict)
    erased_nodes: set[str] = field(default_factory=set)


def _touched(event: dict[str, object]) -> list[str]:
    ids = [str(event.get("node_id"))]
    ids.extend(str(p) for p in event.get("parent_ids") or [])  # type: ignore[attr-defined]
    ids.extend(str(e.get("source_id")) for e in event.get("edges") or [])  # type: ignore[attr-defined]
    return ids


def replay(project: str, entries: Iterable[AuditEntry]) -> Replay:
    result = Replay(project, MemoryGraphStore(audit_chain=False))
    for entry in entries:
        if entry.kind == EntryKind.ERASURE:
            digests = list(entry.header.get("nodes", ()))
            result.erased_nodes.update(digests)
            result.store.forget_nodes(project, digests)
        if entry.kind != EntryKind.INGEST or entry.payload is None:
            continue
        raws = [e for e in entry.payload.get("events", ()) if e is not None]
        result.store.ingest(project, [Event.model_validate(raw) for raw in raws])
        for raw in raws:
            for node_id in _touched(raw):
                result.written_by[node_id] = entry.seq
    return result
