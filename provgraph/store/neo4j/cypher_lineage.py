"""The lineage walk's statements, built by small pure functions (pinned in ``tests/neo4j``).

A lineage first fetches a capped neighbourhood (:func:`lineage_neighbourhood_query`);
when the cap is hit it walks ring by ring (:func:`lineage_ring_query`), and it
ends with the kept nodes and the edges among them (:func:`lineage_result_query`).
See :mod:`provgraph.store.neo4j.lineage_ops`.
"""

from __future__ import annotations

from provgraph.store.neo4j.cypher import NODE, neighbourhood_parts
from provgraph.store.types import MAX_LINEAGE_DEPTH, LineageDirection, bounded_int


def lineage_neighbourhood_query(direction: LineageDirection, depth: int) -> str:
    """A small lineage in one statement: the distinct nodes within ``depth`` edges
    (root included), at most ``$cap``, each with its next edges, walked in Python.

    When the cap is reached the answer is one row whose ``id`` is null and no
    neighbour list is built (the walk then goes ring by ring,
    :func:`lineage_ring_query`): a popular source costs ``$cap`` visited nodes,
    not their edges. No row: the root does not exist. The expand is the
    pruning breadth-first one (distinct nodes, never paths), stopped by the
    ``LIMIT``.
    """
    bound = bounded_int(depth, name="depth", low=1, high=MAX_LINEAGE_DEPTH)
    reach, step = neighbourhood_parts(direction, str(bound))
    return (
        reach + "  LIMIT $cap\n"
        "}\n"
        "WITH collect(m) AS found\n"
        "UNWIND CASE WHEN size(found) < $cap THEN found ELSE [null] END AS m\n"
        "RETURN m.id AS id, m.type AS type,\n"
        "       CASE WHEN m IS NULL THEN [] ELSE"
        f" [{step} WHERE x.project = $project | [x.id, x.type, type(r)]] END AS next"
    )


def lineage_ring_query(direction: LineageDirection) -> str:
    """One ring of a lineage walk (:func:`provgraph.traversal.lineage_rings`): the ids of
    the neighbours of ``$frontier`` in one direction that are not in ``$seen``, the
    first ``$room`` in id order, as one list.

    Ids only, one row: the walk needs nothing else, and rows, not db hits, are
    what a large ring costs (the kept nodes are read once at the end, by
    :func:`lineage_result_query`).
    """
    if LineageDirection(direction) == LineageDirection.UP:
        step = f"(f:{NODE} {{project: $project, id: id}})<--(m:{NODE})"
    else:
        step = f"(f:{NODE} {{project: $project, id: id}})-->(m:{NODE})"
    return (
        "UNWIND $frontier AS id\n"
        f"MATCH {step}\n"
        "WHERE m.project = $project AND NOT m.id IN $seen\n"
        "WITH DISTINCT m.id AS id\n"
        "ORDER BY id\n"
        "LIMIT $room\n"
        "RETURN collect(id) AS ids"
    )


def lineage_result_query() -> str:
    """The nodes ``$ids`` (properties) and every edge with both ends among them, one row.

    Edge ends are tested by node identity against the matched nodes (no property
    read per relationship): half the time of a ``t.id IN $ids`` filter on a
    thousand nodes.
    """
    return (
        "UNWIND $ids AS id\n"
        f"MATCH (n:{NODE} {{project: $project, id: id}})\n"
        "WITH collect(n) AS kept\n"
        "CALL (kept) {\n"
        "  UNWIND kept AS s\n"
        f"  MATCH (s)-[r]->(t:{NODE})\n"
        "  WHERE t IN kept\n"
        "  RETURN collect([s.id, t.id, type(r)]) AS edges\n"
        "}\n"
        "RETURN [n IN kept | properties(n)] AS nodes, edges"
    )
