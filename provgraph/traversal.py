"""Bounded graph walks shared by every store adapter: attribution paths and lineage.

Adapters fetch the relevant subgraph (distinct nodes and edges, which never
explodes) and run these pure functions on it, so the embedded store and Neo4j
return identical results by construction. Path enumeration is where a session
with many joins explodes, so it is bounded by depth and count, breadth-first,
and reports ``truncated`` when a bound cut it short.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator
from dataclasses import dataclass

from provgraph.graph import SOURCE_TYPES, ProvenanceEdge, ProvenanceGraph
from provgraph.store.types import LineageDirection

MIN_FRONTIER = 1_000
"""Partial paths kept per level at least; beyond ``max(MIN_FRONTIER, max_paths)`` the
walk keeps the first ones in id order (a deterministic beam) and says ``truncated``."""


def source_paths(
    graph: ProvenanceGraph, output_id: str, *, max_depth: int, max_paths: int
) -> tuple[list[tuple[str, ...]], bool]:
    """Paths (node ids, source first, output last) from sources to ``output_id``.

    A path ends at a source-type node (input, data read) or at a root (a node with
    no predecessors, e.g. a placeholder). Paths are found shortest first, level by
    level; within the result they are ordered by (length, ids). When more than
    ``max_paths`` exist, or a walk reaches ``max_depth`` edges before a source,
    ``truncated`` is True and the shortest ``max_paths`` are returned. When the
    partial paths of one level outnumber the beam, the first ones in id order are
    kept, so a session with many joins still answers quickly with real paths.
    """
    if output_id not in graph.nodes:
        return [], False
    completed: list[tuple[str, ...]] = []
    truncated = False
    frontier: list[tuple[str, ...]] = [(output_id,)]  # reversed paths: output ... current
    depth = 0
    while frontier:
        next_frontier: list[tuple[str, ...]] = []
        for rpath in frontier:
            current = graph.nodes[rpath[-1]]
            preds = [p.id for p in graph.predecessors(current.id) if p.id not in rpath]
            if (current.type in SOURCE_TYPES and depth > 0) or not preds:
                completed.append(tuple(reversed(rpath)))
                continue
            if depth >= max_depth:
                truncated = True
                continue
            next_frontier.extend((*rpath, pred) for pred in sorted(preds))
        if len(completed) >= max_paths and next_frontier:
            truncated = True
            break
        beam = max(MIN_FRONTIER, max_paths)
        if len(next_frontier) > beam:
            truncated = True
            next_frontier = next_frontier[:beam]
        frontier = next_frontier
        depth += 1
    completed.sort(key=lambda p: (len(p), p))
    if len(completed) > max_paths:
        truncated = True
        completed = completed[:max_paths]
    return completed, truncated


def contributing_sources(graph: ProvenanceGraph, output_id: str) -> list[str]:
    """Every source (input, data read) ``output_id`` derives from, nearest first.

    The same stopping rule as :func:`source_paths` (a walk ends at a source; the
    output itself is walked past whatever its type), but a plain breadth-first
    reachability walk: each node and edge is visited once, so the answer is
    complete and linear in the upstream subgraph, with no depth or path bound.
    Path enumeration may be cut short by its bounds; this set never is, so a
    2^40-path ladder 80 hops deep still names its source (issue 16). Ordered by
    (distance in edges, id), the same in every adapter.
    """
    if output_id not in graph.nodes:
        return []
    distance = {output_id: 0}
    queue: deque[str] = deque([output_id])
    found: list[tuple[int, str]] = []
    while queue:
        current = queue.popleft()
        for pred in graph.predecessors(current):
            if pred.id in distance:
                continue
            distance[pred.id] = distance[current] + 1
            if pred.type in SOURCE_TYPES:
                found.append((distance[pred.id], pred.id))
            else:
                queue.append(pred.id)
    return [node_id for _, node_id in sorted(found)]


def id_order(node_id: str) -> bytes:
    """The order a lineage walk cuts a ring in: ids compared as UTF-16 code units.

    That is how Neo4j orders strings (it differs from Python's code-point order
    only between characters above U+FFFF and those in U+E000..U+FFFF); the store
    sorts and cuts a ring on the server, so every adapter must cut the same way.
    """
    return node_id.encode("utf-16-be", "surrogatepass")


@dataclass(frozen=True)
class RingRequest:
    """What a lineage walk needs next from its adapter: the neighbours, in the walk's
    direction, of the nodes of ``frontier`` that are not in ``seen`` (ids only).

    The adapter may return only the first ``room`` of them in :func:`id_order`
    (the walk never keeps more), or all of them.
    """

    frontier: tuple[str, ...]
    seen: frozenset[str]
    room: int


LineageRings = Generator[RingRequest, set[str], tuple[dict[str, int], bool]]
"""Yields ring requests, receives each answer, returns (distances, truncated)."""


def lineage_rings(node_id: str, *, depth: int, limit: int) -> LineageRings:
    """The ``limit`` nodes nearest ``node_id`` within ``depth`` edges, one ring at a time.

    Breadth-first by whole rings (every node at distance d before any at d + 1),
    so each node gets its shortest distance and the cut is exact: the kept nodes
    are the first ``limit`` in (distance, :func:`id_order`) order, the same in
    every adapter. Each request asks for at most one id more than the room left
    (to learn whether the ring overflows), so the walk stops at the ring that
    fills ``limit`` and a popular source costs about ``limit`` ids however far it
    spreads. ``truncated`` is True when a reachable node is left out: cut by
    ``limit``, or beyond ``depth`` (then one last request with room for one id
    asks whether such a node exists). The adapter answers the requests (see
    :func:`walk_graph` for an in-memory graph; Neo4j answers each with one
    statement).
    """
    distances: dict[str, int] = {}
    seen = {node_id}
    frontier: tuple[str, ...] = (node_id,)
    for distance in range(1, depth + 1):
        room = limit - len(distances)
        if room <= 0:
            break  # full: whether anything is left out is all that remains to know
        found = yield RingRequest(frontier, frozenset(seen), room + 1)
        ring = sorted(found - seen, key=id_order)
        if not ring:
            return distances, False
        distances.update((i, distance) for i in ring[:room])
        if len(ring) > room:
            return distances, True
        seen.update(ring)
        frontier = tuple(ring)
    beyond = (yield RingRequest(frontier, frozenset(seen), 1)) - seen
    return distances, bool(beyond)


def walk_graph(
    graph: ProvenanceGraph, walk: LineageRings, *, direction: LineageDirection
) -> tuple[dict[str, int], bool]:
    """Run a :func:`lineage_rings` walk on an in-memory graph."""
    up = direction == LineageDirection.UP
    request = next(walk)
    while True:
        found: set[str] = set()
        for current in request.frontier:
            neighbours = graph.predecessors(current) if up else graph.successors(current)
            found.update(n.id for n in neighbours if n.id not in request.seen)
        try:
            request = walk.send(found)
        except StopIteration as stop:
            result: tuple[dict[str, int], bool] = stop.value
            return result


def edges_among(graph: ProvenanceGraph, node_ids: set[str]) -> list[ProvenanceEdge]:
    """Every edge with both ends in ``node_ids``, sorted (source, target, label):
    the edges a lineage result returns with its nodes."""
    found = {
        (e.source_id, e.target_id, e.label)
        for node_id in node_ids
        for e in graph.edges_of(node_id)
        if e.source_id == node_id and e.target_id in node_ids
    }
    return [ProvenanceEdge(s, t, label) for s, t, label in sorted(found)]
