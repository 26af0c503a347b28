"""The lineage program: driver-free, run by both adapters like the programs of
:mod:`provgraph.store.neo4j.operations`."""

from __future__ import annotations

from provgraph.errors import NotFoundError
from provgraph.graph import ProvenanceEdge
from provgraph.store.neo4j import cypher_lineage, rows
from provgraph.store.neo4j.operations import Program, Statement
from provgraph.store.types import (
    MAX_LINEAGE_DEPTH,
    MAX_LINEAGE_LIMIT,
    LineageDirection,
    LineageResult,
    bounded_int,
)
from provgraph.traversal import LineageRings, lineage_rings, walk_graph

LINEAGE_PREFETCH = 256
"""A lineage first asks for the neighbourhood within its depth if it has fewer nodes
than this (one statement, with their next edges, walked in Python); a popular
source, which has more, gets a one-row "too many" and is walked ring by ring on
the server instead (one statement per ring, stopping at the ring that fills
``limit``)."""


def lineage(
    project: str, node_id: str, direction: LineageDirection, depth: int, limit: int
) -> Program[LineageResult]:
    """Validates the bounds eagerly, then returns the program."""
    bounded_int(depth, name="depth", low=1, high=MAX_LINEAGE_DEPTH)
    bounded_int(limit, name="limit", low=1, high=MAX_LINEAGE_LIMIT)
    return _lineage(project, node_id, LineageDirection(direction), depth, limit)


def _lineage(
    project: str, node_id: str, direction: LineageDirection, depth: int, limit: int
) -> Program[LineageResult]:
    """A small neighbourhood in one statement, a large one ring by ring; then the kept
    nodes and the edges among them in one statement. Both walks are
    :func:`provgraph.traversal.lineage_rings` (the embedded store's), so the answer
    does not depend on the path taken."""
    walk = lineage_rings(node_id, depth=depth, limit=limit)
    records = yield Statement(
        cypher_lineage.lineage_neighbourhood_query(direction, depth),
        {"project": project, "id": node_id, "cap": LINEAGE_PREFETCH},
    )
    if not records:
        raise NotFoundError(f"node '{node_id}' does not exist in project '{project}'")
    if records[0]["id"] is not None:  # the whole neighbourhood (else: the cap was reached)
        graph = rows.neighbourhood_graph(records, up=direction == LineageDirection.UP)
        distances, truncated = walk_graph(graph, walk, direction=direction)
    else:
        distances, truncated = yield from _rings_on_server(project, direction, walk)
    ids = sorted({node_id, *distances})
    found = yield Statement(cypher_lineage.lineage_result_query(), {"project": project, "ids": ids})
    nodes = {str(p["id"]): rows.node_from_props(p) for p in found[0]["nodes"]}
    edges = sorted({(str(s), str(t), str(label)) for s, t, label in found[0]["edges"]})
    ordered = tuple(nodes[i] for i in sorted(distances, key=lambda i: (distances[i], i)))
    return LineageResult(
        nodes[node_id],
        direction,
        ordered,
        distances,
        tuple(ProvenanceEdge(s, t, label) for s, t, label in edges),
        truncated,
    )


def _rings_on_server(
    project: str, direction: LineageDirection, walk: LineageRings
) -> Program[tuple[dict[str, int], bool]]:
    """Answer each ring request with one statement (ids only, at most its room)."""
    request = next(walk)
    while True:
        params = {"frontier": list(request.frontier), "seen": list(request.seen)}
        records = yield Statement(
            cypher_lineage.lineage_ring_query(direction),
            {"project": project, **params, "room": request.room},
        )
        try:
            request = walk.send({str(i) for i in records[0]["ids"]})
        except StopIteration as stop:
            result: tuple[dict[str, int], bool] = stop.value
            return result
