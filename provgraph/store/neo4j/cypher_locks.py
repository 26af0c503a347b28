"""Cypher of the per-session ingest locks, as pure builders pinned as strings.

A batch writes the ``:SessionLock`` node of each session it touches before it
reads anything, in sorted order (two batches never wait on each other in a
cycle; Neo4j's deadlock detection and the driver's retry cover a late extra
lock). The statement also returns the sessions currently stored on the nodes
the batch writes, so a node whose events name another session is locked under
that session too (:mod:`~provgraph.store.neo4j.ingest_locks`).

The node lookup carries an index hint. Without it the planner reads ``WHERE
n.session_id IS NOT NULL`` as a range over the ``(project, session_id)`` index,
i.e. every node of the project that has a session, and filters that by id: a
statement linear in the project's size, once per batch. Measured (session 8,
``bench/ingest.py --nodes 100000``): the first batches into a fresh project
took 0.3 → 1.8 s each on that plan, 7–8 s of a 22–28 s load, until a re-plan
picked the unique seek; with 20,000 nodes in the project and the plan cache
cleared, the planner still chose the range (``tests/neo4j/test_ingest_plans.py``
pins the seek against the server).
"""

from __future__ import annotations

from provgraph.store.neo4j.cypher import NODE, SESSION_LOCK


def lock_sessions_query() -> str:
    """Write the locks of ``$sessions`` (sorted), then name the sessions stored on
    ``$node_ids`` (placeholders have none)."""
    return (
        "UNWIND $sessions AS session_id\n"
        f"MERGE (l:{SESSION_LOCK} {{project: $project, id: session_id}})\n"
        "SET l.writes = coalesce(l.writes, 0) + 1\n"
        "WITH count(l) AS locked\n"
        "UNWIND $node_ids AS node_id\n"
        f"MATCH (n:{NODE} {{project: $project, id: node_id}})\n"
        f"USING INDEX SEEK n:{NODE}(project, id)\n"
        "WHERE n.session_id IS NOT NULL\n"
        "RETURN DISTINCT n.session_id AS session_id"
    )
