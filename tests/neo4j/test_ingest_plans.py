"""The ingest statements' plans, read from the server: every lookup by key is a unique seek.

Why against the server: the statements are pinned as strings elsewhere
(``test_cypher*.py``), but what makes one of them slow is the plan Neo4j picks
for it. The session-lock statement once read ``WHERE n.session_id IS NOT NULL``
as a range over the ``(project, session_id)`` index, i.e. every node of the
project, once per batch (docs/neo4j-store.md, "The session-lock plan"). The
planner decides from the statistics it has, and that plan is what it picks on a
small graph's statistics: the suite's shared server, full of other tests'
projects, plans the unhinted statement well. So these plans are read from a
server of their own, started fresh: each statement planned on the empty
database, then again with 5,000 nodes in 100 sessions, the plan cache cleared
before each.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import neo4j
import pytest
from _faults import free_port

from provgraph.config import Settings
from provgraph.store.neo4j import (
    Neo4jGraphStore,
    cypher,
    cypher_ingest,
    cypher_locks,
    open_neo4j_store,
)

pytestmark = pytest.mark.neo4j

#: Labels every ingest statement may only reach through their (project, id) uniqueness.
KEYED_LABELS = ("Node", "SessionLock", "Delivery", "CitationKey", "AuditHead")


def _operators(plan: Any) -> Iterator[tuple[str, str]]:
    yield plan.get("operatorType", "").split("@")[0], str(plan.get("args", {}).get("Details", ""))
    for child in plan.get("children", []):
        yield from _operators(child)


def _statements(project: str) -> dict[str, tuple[str, dict[str, Any]]]:
    node_ids = [f"node-{i}" for i in range(50)]
    rows = [{"kind": "event", "id": "e-1"}, {"kind": "node", "id": "node-1"}]
    write_rows = [{"kind": "node", "id": "node-1", "f": {}, "vp": {}, "ver": "1", "ts": "t"}]
    chain = {"seq": 1, "kind": "ingest", "at": "t", "header": "h", "prev": "p", "hash": "x"}
    return {
        "lock": (
            cypher_locks.lock_sessions_query(),
            {"project": project, "sessions": ["s-1"], "node_ids": node_ids},
        ),
        "lookup": (cypher.ingest_lookup_query(), {"project": project, "rows": rows}),
        "lookup, chained": (
            cypher.ingest_lookup_query(chained=True),
            {"project": project, "rows": rows, "genesis": "g"},
        ),
        "write": (
            cypher_ingest.ingest_write_query(),
            {"project": project, "rows": write_rows, "delivered": ["e-1"], "batch": "b"},
        ),
        "write, chained": (
            cypher_ingest.ingest_write_query(chained=True),
            {
                "project": project,
                "rows": write_rows,
                "delivered": ["e-1"],
                "batch": "b",
                "payload": "[]",
                **chain,
            },
        ),
    }


def _unkeyed_reads(driver: neo4j.Driver, text: str, params: dict[str, Any]) -> list[str]:
    """Operators of the statement's plan that reach a keyed label other than by its key."""
    driver.execute_query("CALL db.clearQueryCaches()", database_="neo4j")
    summary = driver.execute_query("EXPLAIN " + text, params, database_="neo4j").summary
    assert summary.plan is not None
    bad = []
    for operator, details in _operators(summary.plan):
        unkeyed = "Scan" in operator or ("Seek" in operator and "Unique" not in operator)
        if unkeyed and any(f":{label}" in details for label in KEYED_LABELS):
            bad.append(f"{operator} {details}")
    return bad


@pytest.fixture(scope="module")
def fresh_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Neo4jGraphStore]:
    """A migrated store on a Neo4j server of its own, empty at first."""
    from provgraph.ops.neo4j_server import start_neo4j, stop_neo4j

    data_dir = tmp_path_factory.mktemp("neo4j-plans")
    handle = start_neo4j(data_dir, bolt_port=free_port(), auth=False, heap="512m", pagecache="64m")
    store = open_neo4j_store(Settings(neo4j_uri=str(handle.uri)))
    try:
        yield store
    finally:
        store.close()
        stop_neo4j(data_dir)


def test_every_ingest_statement_reads_keyed_nodes_by_their_key_only(
    fresh_store: Neo4jGraphStore,
) -> None:
    driver = fresh_store.driver
    bad: dict[tuple[str, str], list[str]] = {}
    for graph in ("empty", "5,000 nodes"):
        if graph != "empty":
            driver.execute_query(
                "UNWIND range(1, 5000) AS i\n"
                "CREATE (:Node {project: 'p', id: 'n-' + i, session_id: 's-' + (i % 100)})",
                database_="neo4j",
            )
        for name, (text, params) in _statements("p").items():
            found = _unkeyed_reads(driver, text, params)
            if found:
                bad[(graph, name)] = found
    assert bad == {}
