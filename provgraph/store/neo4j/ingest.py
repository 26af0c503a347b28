"""Pure ingestion planning: which events of a batch are applied, and the rows to write.

The adapter reads what the decisions depend on (stored deliveries, key
bindings, nodes' current citation keys) under the batch's session locks,
:func:`decide` replays the embedded store's per-event rules over the batch in
its order, and :func:`write_params` folds the accepted writes into one row per
node (so no two rows of one ``UNWIND`` touch the same node, whatever the
planner's evaluation order), one row per edge, binding and key use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from provgraph.errors import CitationKeyConflictError
from provgraph.events import EventError
from provgraph.mapping import EventWrite
from provgraph.store.neo4j.cypher import version_property
from provgraph.store.neo4j.rows import binding_id
from provgraph.store.types import IngestResult


@dataclass(frozen=True)
class StoredState:
    """What the store holds that the batch's decisions depend on."""

    delivered: dict[str, str | None] = field(default_factory=dict)
    """Event id → batch token of the transaction that stored it."""
    bound: dict[str, str] = field(default_factory=dict)
    """Binding id → node id."""
    node_keys: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Node id → (citation key, version that wrote it)."""

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> StoredState:
        return cls(
            delivered={str(i): b for i, b in row["delivered"]},
            bound={str(k): str(n) for k, n in row["bound"]},
            node_keys={str(n): (str(k), str(v or "")) for n, k, v in row["node_keys"]},
        )


def lookup_params(writes: Sequence[EventWrite]) -> dict[str, Any]:
    """``$rows`` of the lookup: every event id, and the keys and nodes keyed events touch."""
    keyed = [w for w in writes if w.citation_key is not None]
    rows = [{"kind": "event", "id": i} for i in sorted({w.event_id for w in writes})]
    rows += [
        {"kind": "binding", "id": b}
        for b in sorted({binding_id(w.session_id, str(w.citation_key)) for w in keyed})
    ]
    rows += [{"kind": "node", "id": n} for n in sorted({w.node.node_id for w in keyed})]
    return {"rows": rows}


@dataclass(frozen=True)
class Decision:
    """The batch's per-event outcome and the writes still to be applied."""

    result: IngestResult
    to_write: tuple[EventWrite, ...]


def _conflict(
    write: EventWrite, bound: Mapping[str, str], node_keys: Mapping[str, tuple[str, str]]
) -> str | None:
    """The embedded store's ``_key_conflict``, over the simulated state."""
    key = write.citation_key
    if key is None:
        return None
    holder = bound.get(binding_id(write.session_id, key))
    if holder is not None and holder != write.node.node_id:
        return str(
            CitationKeyConflictError(
                f"'{key}' already names node '{holder}' in session '{write.session_id}'"
            ).reason
        )
    current = node_keys.get(write.node.node_id)
    if current is not None and current[0] != key:
        return f"node '{write.node.node_id}' already has citation key '{current[0]}'"
    return None


def decide(writes: Sequence[EventWrite], state: StoredState, batch: str) -> Decision:
    """Replay the batch in order against the stored state, as the embedded store would.

    An event id stored by an earlier transaction is a duplicate; one stored by
    *this* batch token means an earlier attempt of this very call committed
    (the connection was lost at commit), so it counts as accepted and is not
    written again. A key conflict rejects only its own event.
    """
    accepted: list[str] = []
    duplicates: list[str] = []
    rejected: list[EventError] = []
    to_write: list[EventWrite] = []
    seen: set[str] = set()
    bound = dict(state.bound)
    node_keys = dict(state.node_keys)
    for write in writes:
        event_id = write.event_id
        if event_id in seen:
            duplicates.append(event_id)
            continue
        if event_id in state.delivered:
            seen.add(event_id)
            if state.delivered[event_id] == batch:
                accepted.append(event_id)
            else:
                duplicates.append(event_id)
            continue
        conflict = _conflict(write, bound, node_keys)
        if conflict is not None:
            rejected.append(EventError(write.index, event_id, "citation_key", conflict))
            continue
        if write.citation_key is not None:
            node_id = write.node.node_id
            bound[binding_id(write.session_id, write.citation_key)] = node_id
            held = node_keys.get(node_id)
            if held is None or held[1] < write.node.version:
                node_keys[node_id] = (write.citation_key, write.node.version)
        seen.add(event_id)
        accepted.append(event_id)
        to_write.append(write)
    result = IngestResult(tuple(accepted), tuple(duplicates), tuple(rejected))
    return Decision(result, tuple(to_write))


def fold_nodes(writes: Sequence[EventWrite]) -> list[dict[str, Any]]:
    """One row per node: per field the highest-version value, the earliest time,
    and the default label of the highest-version write (every event sets ``type``,
    so that is the write the embedded store takes its default label from).

    Versions are folded (see :mod:`~provgraph.store.neo4j.cypher_ingest`): ``ver``
    is the highest version, ``vp`` holds ``v_<field>`` only for a field whose
    winning write has a lower one (a node written by several events of the batch).
    Per-field versions are tracked only for such nodes: a node written once takes
    its write's non-null fields whole (most nodes of a batch).
    """
    rows: dict[str, dict[str, Any]] = {}
    field_versions: dict[str, dict[str, str]] = {}
    for write in writes:
        node = write.node
        row = rows.get(node.node_id)
        if row is None:
            rows[node.node_id] = {
                "kind": "node",
                "id": node.node_id,
                "f": {k: v for k, v in node.fields.items() if v is not None},
                "ver": node.version,
                "ts": node.timestamp,
                "default_label": node.default_label,
                "vp": {},
            }
            continue
        values = row["f"]
        versions = field_versions.get(node.node_id)
        if versions is None:
            first = row["ver"]
            versions = field_versions[node.node_id] = dict.fromkeys(values, first)
        for name, value in node.fields.items():
            if value is not None and versions.get(name, "") < node.version:
                values[name] = value
                versions[name] = node.version
        if node.timestamp < row["ts"]:
            row["ts"] = node.timestamp
        if node.version > row["ver"]:
            row["ver"] = node.version
            row["default_label"] = node.default_label
    for node_id, versions in field_versions.items():
        row = rows[node_id]
        top = row["ver"]
        row["vp"] = {
            version_property(name): version for name, version in versions.items() if version != top
        }
    return list(rows.values())


def write_params(writes: Sequence[EventWrite]) -> dict[str, Any]:
    """``$delivered`` (the event ids) and ``$rows`` (folded nodes, distinct edges,
    bindings and key uses, each row tagged with its ``kind``) of ``ingest_write_query``.

    Both are never empty (``writes`` is not; each write has a node), so their
    parameter types, which Neo4j's plan cache is keyed on, never change. The ids
    are a list of strings, not a tagged map per event: a third of the rows fewer
    to build, send and filter in every block.
    """
    edges: dict[tuple[str, str, str], None] = {}
    bindings: dict[str, dict[str, str]] = {}
    uses: dict[tuple[str, str], dict[str, str]] = {}
    for write in writes:
        for edge in write.edges:
            edges[(edge.source_id, edge.target_id, edge.label.value)] = None
        if write.citation_key is not None:
            bid = binding_id(write.session_id, write.citation_key)
            bindings[bid] = {
                "kind": "binding",
                "id": bid,
                "session_id": write.session_id,
                "key": write.citation_key,
                "node_id": write.node.node_id,
            }
        for use in write.citations:
            bid = binding_id(use.session_id, use.key)
            uses[(bid, use.citing_node_id)] = {
                "kind": "use",
                "id": bid,
                "session_id": use.session_id,
                "key": use.key,
                "citing": use.citing_node_id,
            }
    rows: list[dict[str, Any]] = fold_nodes(writes)
    rows += [{"kind": "edge", "s": s, "t": t, "label": label} for s, t, label in edges]
    rows += [*bindings.values(), *uses.values()]
    return {"delivered": [w.event_id for w in writes], "rows": rows}
