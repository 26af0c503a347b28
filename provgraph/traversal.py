"""Bounded graph walks shared by every store adapter: attribution paths and lineage.

Adapters fetch the relevant subgraph (distinct nodes and edges, which never
explodes) and run these pure functions on it, so the embedded store and Neo4j
return identical results by construction. Path enumeration is where a session
with many joins explodes, so it is bounded by depth and count, breadth-first,
and reports ``truncated`` when a bound cut it short.
"""

from __future__ import annotations

from collections import deque

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


def lineage_walk(
    graph: ProvenanceGraph,
    node_id: str,
    *,
    direction: LineageDirection,
    depth: int,
    limit: int,
) -> tuple[dict[str, int], list[ProvenanceEdge], bool]:
    """Nodes within ``depth`` edges upstream or downstream, with their distance.

    Breadth-first, so each node gets its shortest distance; visiting stops after
    ``limit`` nodes (then ``truncated``). Neighbours are taken in id order so the
    cut is the same in every adapter. Returns (distances, edges walked, truncated).
    """
    if node_id not in graph.nodes:
        return {}, [], False
    up = direction == LineageDirection.UP
    distances: dict[str, int] = {}
    edges: list[ProvenanceEdge] = []
    truncated = False
    queue: deque[tuple[str, int]] = deque([(node_id, 0)])
    seen = {node_id}
    by_pair: dict[tuple[str, str], list[ProvenanceEdge]] = {}
    for edge in sorted(graph.edges, key=lambda e: e.label):  # same order in every adapter
        by_pair.setdefault((edge.source_id, edge.target_id), []).append(edge)
    while queue:
        current, dist = queue.popleft()
        if dist >= depth:
            neighbours = graph.predecessors(current) if up else graph.successors(current)
            if neighbours:
                truncated = True
            continue
        neighbours = graph.predecessors(current) if up else graph.successors(current)
        for neighbour in sorted(neighbours, key=lambda n: n.id):
            pair = (neighbour.id, current) if up else (current, neighbour.id)
            edges.extend(by_pair.get(pair, ()))
            if neighbour.id in seen:
                continue
            if len(distances) >= limit:
                truncated = True
                break
            seen.add(neighbour.id)
            distances[neighbour.id] = dist + 1
            queue.append((neighbour.id, dist + 1))
    return distances, edges, truncated
