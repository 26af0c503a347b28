"""Cypher for reports, jobs and schema bookkeeping, built by small pure functions.

Split from :mod:`provgraph.store.neo4j.cypher` (graph ingestion and reads) by
concern; the same rules hold: statement text only, values as parameters, labels
from the whitelist there, every tenant statement scoped by ``project`` (the
worker's sweeps with ``all_projects=True`` are the deliberate exceptions).
``tests/neo4j/test_cypher.py`` pins them as exact strings.
"""

from __future__ import annotations

from provgraph.store.neo4j.cypher import JOB, NODE, REPORT, SCHEMA_MIGRATION


# ---------------------------------------------------------------------- reports and jobs
def save_report_query() -> str:
    """Upsert a report: same (output, config) keeps its version, else the next one."""
    return (
        f"OPTIONAL MATCH (same:{REPORT} {{project: $project, id: $id}})\n"
        "CALL () {\n"
        f"  MATCH (r:{REPORT} {{project: $project, output_id: $output_id}})\n"
        "  RETURN count(r) AS existing\n"
        "}\n"
        "WITH coalesce(same.version, existing + 1) AS version\n"
        f"MERGE (r:{REPORT} {{project: $project, id: $id}})\n"
        "SET r.version = version, r.output_id = $output_id, r.session_id = $session_id,\n"
        "    r.config_hash = $config_hash, r.created_at = $created_at,\n"
        "    r.verdicts = $verdicts, r.doc = $doc\n"
        "RETURN r.version AS version"
    )


def get_report_query(*, by_version: bool) -> str:
    """A report of an output: a given version, or the newest."""
    version = "WHERE r.version = $version\n" if by_version else ""
    return (
        f"MATCH (r:{REPORT} {{project: $project, output_id: $output_id}})\n"
        + version
        + "RETURN r.doc AS doc, r.version AS version\n"
        "ORDER BY r.version DESC\n"
        "LIMIT 1"
    )


def list_reports_query(*, session: bool, verdict: bool, since: bool, after: bool) -> str:
    """One page of reports, newest first then by id; ``$first`` is page size plus one."""
    where: list[str] = []
    if session:
        where.append("r.session_id = $session_id")
    if verdict:
        where.append("$verdict IN r.verdicts")
    if since:
        where.append("r.created_at >= $since")
    if after:
        where.append(
            "(r.created_at < $after_at OR (r.created_at = $after_at AND r.id > $after_id))"
        )
    where_text = f"WHERE {' AND '.join(where)}\n" if where else ""
    return (
        f"MATCH (r:{REPORT} {{project: $project}})\n"
        + where_text
        + "RETURN r.doc AS doc, r.version AS version\n"
        "ORDER BY r.created_at DESC, r.id ASC\n"
        "LIMIT $first"
    )


def save_job_query() -> str:
    """Create or replace a job."""
    return (
        f"MERGE (j:{JOB} {{project: $project, id: $id}})\n"
        "SET j.state = $state, j.created_at = $created_at, j.output_id = $output_id,\n"
        "    j.doc = $doc"
    )


def get_job_query() -> str:
    return f"MATCH (j:{JOB} {{project: $project, id: $id}})\nRETURN j.doc AS doc"


def list_jobs_query(*, all_projects: bool, state: bool) -> str:
    """Jobs oldest first; ``all_projects`` serves the cross-project re-enqueue sweep."""
    match = f"MATCH (j:{JOB})\n" if all_projects else f"MATCH (j:{JOB} {{project: $project}})\n"
    where = "WHERE j.state = $state\n" if state else ""
    return match + where + "RETURN j.doc AS doc\nORDER BY j.created_at ASC, j.id ASC\nLIMIT $limit"


def outputs_without_jobs_query(*, all_projects: bool) -> str:
    """Final outputs with neither a job nor a report (the sweep's lost-job pass).

    ``all_projects`` is the second deliberate cross-project read (the worker's
    sweep). Jobs saved before ``output_id`` was a property match only through
    a report; the sweep backfills them on its first pass.
    """
    match = (
        f"MATCH (n:{NODE} {{type: 'final_output'}})\n"
        if all_projects
        else f"MATCH (n:{NODE} {{project: $project, type: 'final_output'}})\n"
    )
    return (
        match + f"WHERE NOT EXISTS {{ MATCH (:{JOB} {{project: n.project, output_id: n.id}}) }}\n"
        f"  AND NOT EXISTS {{ MATCH (:{REPORT} {{project: n.project, output_id: n.id}}) }}\n"
        "RETURN n.project AS project, n.id AS id\n"
        "ORDER BY n.project, n.id\n"
        "LIMIT $limit"
    )


# ---------------------------------------------------------------------- schema
def applied_migrations_query() -> str:
    return (
        f"MATCH (m:{SCHEMA_MIGRATION} {{project: $project}})\n"
        "RETURN m.id AS id, m.version AS version, m.checksum AS checksum\n"
        "ORDER BY m.version"
    )


def record_migration_query() -> str:
    """Record an applied migration (MERGE: two processes starting at once agree)."""
    return (
        f"MERGE (m:{SCHEMA_MIGRATION} {{project: $project, id: $id}})\n"
        "ON CREATE SET m.version = $version, m.checksum = $checksum, m.applied_at = $applied_at"
    )


def await_indexes_query() -> str:
    return "CALL db.awaitIndexes($timeout)"


def ping_query() -> str:
    return "RETURN 1 AS ok"
