"""Cypher of the audit trail (chain, reviews, subject search, erasure), as pure builders.

The sibling of :mod:`provgraph.store.neo4j.cypher` with the same rules: labels
from :data:`cypher.NODE_LABELS`, relationship types from :data:`AUDIT_RELS`,
values only as parameters, every pattern scoped by ``project`` (the one
cross-project read is :func:`audit_projects_query`, for the scheduled jobs).
Pinned as exact strings in ``tests/neo4j/test_audit_cypher.py``.
"""

from __future__ import annotations

from provgraph.store.neo4j.cypher import (
    AUDIT_ENTRY,
    AUDIT_HEAD,
    CITATION_KEY,
    DELIVERY,
    JOB,
    NODE,
    REPORT,
    REVIEW,
    audit_append_clause,
    audit_head_lock_clause,
)

REVIEWS = "REVIEWS"
"""(:Review)-[:REVIEWS]->(:Report): the report version a review judged."""
AUDIT_RELS: frozenset[str] = frozenset({REVIEWS})

_ENTRY_FIELDS = (
    "e.seq AS seq, e.kind AS kind, e.at AS at, e.header AS header, e.prev AS prev,\n"
    "       e.hash AS hash, e.payload AS payload"
)


# ---------------------------------------------------------------------- the chain
def audit_head_lock_query() -> str:
    """Take the project's chain head for writing (serialises appends), return it."""
    return audit_head_lock_clause() + "RETURN h.seq AS seq, h.hash AS hash"


def audit_append_query() -> str:
    """Create the sealed entry and move the head to it (same transaction as the lock)."""
    return f"MATCH (h:{AUDIT_HEAD} {{project: $project, id: 'head'}})\n" + audit_append_clause()


def audit_entries_query() -> str:
    """Entries after ``$after`` in chain order (a range seek on (project, id))."""
    return (
        f"MATCH (e:{AUDIT_ENTRY} {{project: $project}})\n"
        "WHERE e.id > $after\n"
        f"RETURN {_ENTRY_FIELDS}\n"
        "ORDER BY e.id ASC\n"
        "LIMIT $limit"
    )


def audit_head_query() -> str:
    return (
        f"MATCH (h:{AUDIT_HEAD} {{project: $project, id: 'head'}})\n"
        "RETURN h.seq AS seq, h.hash AS hash"
    )


def audit_projects_query() -> str:
    """Every project with a chain (cross-project on purpose: scheduled checkpoints)."""
    return f"MATCH (h:{AUDIT_HEAD})\nRETURN h.project AS project\nORDER BY project"


# ---------------------------------------------------------------------- reviews
def save_review_query() -> str:
    """Create a review (never MERGE: an existing id fails on the constraint, no edit)."""
    return (
        f"CREATE (v:{REVIEW} {{project: $project, id: $id}})\n"
        "SET v.output_id = $output_id, v.report_version = $report_version,\n"
        "    v.created_at = $created_at, v.doc = $doc\n"
        "WITH v\n"
        f"OPTIONAL MATCH (r:{REPORT} {{project: $project, output_id: $output_id}})\n"
        "WHERE r.version = $report_version\n"
        f"FOREACH (_ IN CASE WHEN r IS NULL THEN [] ELSE [1] END | MERGE (v)-[:{REVIEWS}]->(r))"
    )


def review_exists_query() -> str:
    return f"MATCH (v:{REVIEW} {{project: $project, id: $id}})\nRETURN count(v) AS found"


def list_reviews_query(*, by_output: bool) -> str:
    match = (
        f"MATCH (v:{REVIEW} {{project: $project, output_id: $output_id}})\n"
        if by_output
        else f"MATCH (v:{REVIEW} {{project: $project}})\n"
    )
    return match + "RETURN v.doc AS doc\nORDER BY v.created_at ASC, v.id ASC"


# ---------------------------------------------------------------------- search and erasure
def find_nodes_query() -> str:
    """Nodes whose content, label, data (JSON text) or error message contains ``$text``.

    An error message may quote the data that failed (an address, a name), so
    a subject erasure has to find it there too.
    """
    return (
        f"MATCH (n:{NODE} {{project: $project}})\n"
        "WHERE n.content CONTAINS $text OR n.label CONTAINS $text OR n.data CONTAINS $text\n"
        "   OR n.error_message CONTAINS $text\n"
        "RETURN properties(n) AS props\n"
        "ORDER BY n.id ASC\n"
        "LIMIT $limit"
    )


def erase_nodes_query() -> str:
    """Delete the nodes with their edges; their deliveries; their key bindings and uses."""
    return (
        "CALL () {\n"
        "  UNWIND $node_ids AS id\n"
        f"  MATCH (n:{NODE} {{project: $project, id: id}})\n"
        "  DETACH DELETE n\n"
        "  RETURN count(*) AS nodes\n"
        "}\n"
        "CALL () {\n"
        "  UNWIND $event_ids AS id\n"
        f"  MATCH (d:{DELIVERY} {{project: $project, id: id}})\n"
        "  DELETE d\n"
        "  RETURN count(*) AS deliveries\n"
        "}\n"
        "CALL () {\n"
        f"  MATCH (k:{CITATION_KEY} {{project: $project}})\n"
        "  WHERE k.node_id IN $node_ids OR any(u IN coalesce(k.uses, []) WHERE u IN $node_ids)\n"
        "  SET k.uses = [u IN coalesce(k.uses, []) WHERE NOT u IN $node_ids]\n"
        "  WITH k WHERE k.node_id IN $node_ids\n"
        "  REMOVE k.node_id\n"
        "  RETURN count(*) AS keys\n"
        "}\n"
        "RETURN nodes, deliveries, keys"
    )


def erase_outputs_query() -> str:
    """Delete the reports and reviews of erased outputs; list the project's jobs."""
    return (
        "CALL () {\n"
        f"  MATCH (r:{REPORT} {{project: $project}})\n"
        "  WHERE r.output_id IN $outputs\n"
        "  DETACH DELETE r\n"
        "  RETURN count(*) AS reports\n"
        "}\n"
        "CALL () {\n"
        f"  MATCH (v:{REVIEW} {{project: $project}})\n"
        "  WHERE v.output_id IN $outputs\n"
        "  DETACH DELETE v\n"
        "  RETURN count(*) AS reviews\n"
        "}\n"
        "CALL () {\n"
        f"  MATCH (j:{JOB} {{project: $project}})\n"
        "  RETURN collect([j.id, j.doc]) AS jobs\n"
        "}\n"
        "RETURN reports, reviews, jobs"
    )


def delete_jobs_query() -> str:
    return f"UNWIND $ids AS id\nMATCH (j:{JOB} {{project: $project, id: id}})\nDELETE j"


def entry_payloads_query() -> str:
    return (
        "UNWIND $seqs AS seq\n"
        f"MATCH (e:{AUDIT_ENTRY} {{project: $project, id: seq}})\n"
        "RETURN e.id AS seq, e.payload AS payload"
    )


def set_entry_payloads_query() -> str:
    """Replace entries' payloads (erasure only: the sealed fields are never written)."""
    return (
        "UNWIND $rows AS row\n"
        f"MATCH (e:{AUDIT_ENTRY} {{project: $project, id: row.seq}})\n"
        "SET e.payload = row.payload"
    )
