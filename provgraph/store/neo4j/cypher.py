"""Every Cypher statement the Neo4j adapter runs, built by small pure functions.

Nothing here touches a driver: each function returns the statement text, and
``tests/neo4j/test_cypher.py`` pins them as exact strings. Values always travel
as parameters; the only things interpolated into the text are node labels and
relationship types from a fixed whitelist (:data:`NODE_LABELS`,
:class:`~provgraph.graph.EdgeLabel`) and variable-length bounds that went
through :func:`~provgraph.store.types.bounded_int`. Every statement that reads
or writes tenant data matches on ``project`` so no query can see another
project's nodes. Reports, jobs and schema bookkeeping live in
:mod:`~provgraph.store.neo4j.cypher_records` (where the worker's sweeps are the
deliberate cross-project exceptions).
"""

from __future__ import annotations

from provgraph.graph import EdgeLabel
from provgraph.mapping import VERSIONED_FIELDS
from provgraph.store.types import (
    MAX_ATTRIBUTION_DEPTH,
    LineageDirection,
    bounded_int,
)

NODE = "Node"
"""Provenance nodes (every node type, and placeholders, which have no type yet)."""
DELIVERY = "Delivery"
"""One per accepted event id: the delivery-id dedupe."""
CITATION_KEY = "CitationKey"
"""A session-scoped key: the node it names and the nodes whose content cites it."""
REPORT = "Report"
JOB = "Job"
INGEST_LOCK = "IngestLock"
"""The former per-project ingest lock; no longer taken (see :data:`SESSION_LOCK`),
kept in the whitelist because databases created before migration 0012 hold one."""
SESSION_LOCK = "SessionLock"
"""One per (project, session): an ingest transaction writes the locks of its
sessions first (``cypher_locks``), so batches of one session are serialised and
the read-decide-write of a batch sees a stable state; other sessions run beside it."""
API_KEY = "ApiKey"
"""An API key (hash only), unique by ``id`` (``cypher_keys``)."""
SCHEMA_MIGRATION = "SchemaMigration"

AUDIT_ENTRY = "AuditEntry"
"""One per entry of a project's audit chain, id = seq (see ``audit_cypher``)."""
AUDIT_HEAD = "AuditHead"
"""One per project: the chain's last seq and hash; every append writes it first."""
REVIEW = "Review"

NODE_LABELS: frozenset[str] = frozenset(
    {NODE, DELIVERY, CITATION_KEY, REPORT, JOB, INGEST_LOCK, SCHEMA_MIGRATION}
    | {AUDIT_ENTRY, AUDIT_HEAD, REVIEW, SESSION_LOCK, API_KEY}
)
"""The whitelist of node labels; the migrations constrain (project, id) on each."""

SCHEMA_PROJECT = "__provgraph_schema__"
"""``project`` of migration records (they belong to no tenant)."""


def label(name: str) -> str:
    """A whitelisted node label, or ValueError (labels never come from input)."""
    if name not in NODE_LABELS:
        raise ValueError(f"'{name}' is not a provgraph node label")
    return name


def rel_type(edge_label: EdgeLabel | str) -> str:
    """A relationship type from :class:`EdgeLabel` only (ValueError otherwise)."""
    return EdgeLabel(edge_label).value


def property_name(field_name: str) -> str:
    """A versioned node field, validated against :data:`VERSIONED_FIELDS`."""
    if field_name not in VERSIONED_FIELDS:
        raise ValueError(f"'{field_name}' is not a versioned node field")
    return field_name


def version_property(field_name: str) -> str:
    """Where the version that last wrote ``field_name`` is kept (``v_<field>``)."""
    return f"v_{property_name(field_name)}"


# ---------------------------------------------------------------------- ingestion
# Ingestion statements take ONE list parameter of tagged rows (``kind``) instead of
# one list per kind: Neo4j keys its plan cache on parameter types too, and an
# empty list is a different type from a list of maps, so separate lists that are
# sometimes empty made it re-plan the (large) write statement for most batches.


def rows_of(kind: str) -> str:
    """The rows of one kind from ``$rows``, as ``row``.

    Filtered inside the ``UNWIND`` expression, not by a ``WHERE`` after it: the
    planner merged such a ``WHERE`` into the filter *after* the block's index
    seeks, so every row of every kind paid a (locking) seek in every block.
    """
    return f"  UNWIND [r IN $rows WHERE r.kind = '{kind}'] AS row\n"


def ingest_lookup_query(*, chained: bool = False) -> str:
    """Read what the batch's decisions depend on.

    Returns one row: deliveries already stored (id and the batch token that
    wrote them), citation keys already bound, and the current citation key of
    nodes the batch wants to give a key to. Unchained, the batch's sessions are
    locked already (:func:`~provgraph.store.neo4j.cypher_locks.lock_sessions_query`).
    ``chained``: the statement first takes the project's audit chain head for
    writing — the project's lock, held to the commit, so that what it reads next
    stays true (ADR 0012, session 14) — and returns it (``head_seq``,
    ``head_hash``); the batch's entry is sealed after it and written by the write
    statement: two statements per batch.
    """
    reads = (
        "CALL () {\n"
        + rows_of("event")
        + f"  MATCH (d:{DELIVERY} {{project: $project, id: row.id}})\n"
        "  RETURN collect([d.id, d.batch]) AS delivered\n"
        "}\n"
        "CALL () {\n"
        + rows_of("binding")
        + f"  MATCH (k:{CITATION_KEY} {{project: $project, id: row.id}})\n"
        "  WHERE k.node_id IS NOT NULL\n"
        "  RETURN collect([k.id, k.node_id]) AS bound\n"
        "}\n"
        "CALL () {\n" + rows_of("node") + f"  MATCH (n:{NODE} {{project: $project, id: row.id}})\n"
        "  RETURN collect(CASE WHEN n.citation_key IS NOT NULL"
        " THEN [n.id, n.citation_key, coalesce(n.v_citation_key, n.ver)] END) AS node_keys\n"
        "}\n"
    )
    if not chained:
        return reads + "RETURN delivered, bound, node_keys"
    return (
        audit_head_lock_clause()
        + "WITH h\n"
        + reads
        + "RETURN delivered, bound, node_keys, h.seq AS head_seq, h.hash AS head_hash"
    )


def audit_head_lock_clause() -> str:
    """Take the project's audit chain head for writing (created at genesis), as ``h``.

    The write is what serialises appends; shared by the chain's own append and
    the chained ingest lookup.
    """
    return (
        f"MERGE (h:{AUDIT_HEAD} {{project: $project, id: 'head'}})\n"
        "ON CREATE SET h.seq = 0, h.hash = $genesis\n"
        "SET h.appends = coalesce(h.appends, 0) + 1\n"
    )


def audit_append_clause() -> str:
    """Create the sealed entry after the head ``h`` and move the head to it."""
    return (
        f"CREATE (e:{AUDIT_ENTRY} {{project: $project, id: $seq}})\n"
        "SET e.seq = $seq, e.kind = $kind, e.at = $at, e.header = $header, e.prev = $prev,\n"
        "    e.hash = $hash, e.payload = $payload, h.seq = $seq, h.hash = $hash"
    )


# ---------------------------------------------------------------------- node reads
def get_nodes_query() -> str:
    """Nodes by id (unknown ids simply produce no row)."""
    return (
        "UNWIND $ids AS node_id\n"
        f"MATCH (n:{NODE} {{project: $project, id: node_id}})\n"
        "RETURN properties(n) AS props"
    )


def session_graph_query() -> str:
    """A session's members, the edges touching them, and the nodes at their far ends."""
    return (
        f"MATCH (n:{NODE} {{project: $project, session_id: $session_id}})\n"
        "WITH collect(n) AS members\n"
        "CALL (members) {\n"
        "  UNWIND members AS n\n"
        f"  MATCH (n)-[r]-(m:{NODE} {{project: $project}})\n"
        "  RETURN collect(DISTINCT [startNode(r).id, endNode(r).id, type(r)]) AS edges,\n"
        "         collect(DISTINCT m) AS others\n"
        "}\n"
        "RETURN [x IN members | properties(x)] AS members, edges,\n"
        "       [x IN others | properties(x)] AS others"
    )


def node_edges_query() -> str:
    """Edges into and out of one node."""
    return (
        f"MATCH (n:{NODE} {{project: $project, id: $id}})-[r]-(:{NODE} {{project: $project}})\n"
        "RETURN startNode(r).id AS source, endNode(r).id AS target, type(r) AS label"
    )


def nodes_edges_query() -> str:
    """Edges into and out of each of several nodes (``$ids``), tagged with the node id."""
    return (
        "UNWIND $ids AS id\n"
        f"MATCH (n:{NODE} {{project: $project, id: id}})-[r]-(:{NODE} {{project: $project}})\n"
        "RETURN id, startNode(r).id AS source, endNode(r).id AS target, type(r) AS label"
    )


def neighbourhood_query(direction: LineageDirection, depth: int | None, *, max_depth: int) -> str:
    """Node ids and types within ``depth`` edges in one direction (``None``: any
    distance), with each one's edges to its next neighbours in that direction.

    Only distinct nodes are returned, never paths (path enumeration explodes on
    sessions with many joins; Neo4j plans ``RETURN DISTINCT`` over a
    variable-length match as a pruning breadth-first expand, which visits each
    node once, bounded or not); :mod:`provgraph.traversal` walks the result in
    Python so every adapter gives the same answer. The neighbours of the last
    ring are included because the walks need to know whether a bound cut them.
    """
    bound = "" if depth is None else str(bounded_int(depth, name="depth", low=1, high=max_depth))
    reach, step = neighbourhood_parts(direction, bound)
    return (
        reach + "}\n"
        f"RETURN m.id AS id, m.type AS type,\n"
        f"       [{step} WHERE x.project = $project | [x.id, x.type, type(r)]] AS next"
    )


def neighbourhood_parts(direction: LineageDirection, bound: str) -> tuple[str, str]:
    """The start of a neighbourhood read, up to its open ``CALL`` returning the distinct
    nodes ``m`` within ``bound`` edges of the root ``o`` (``''``: any distance), and
    the step from ``m`` to a next neighbour ``x`` with ``r``, in one direction."""
    if LineageDirection(direction) == LineageDirection.UP:
        reach, step = f"(o)<-[*0..{bound}]-(m:{NODE})", f"(x:{NODE})-[r]->(m)"
    else:
        reach, step = f"(o)-[*0..{bound}]->(m:{NODE})", f"(m)-[r]->(x:{NODE})"
    return (
        f"MATCH (o:{NODE} {{project: $project, id: $id}})\n"
        "CALL (o) {\n"
        f"  MATCH {reach}\n"
        "  WHERE m.project = $project\n"
        "  RETURN DISTINCT m\n",
        step,
    )


def attribution_neighbourhood_query() -> str:
    """The whole upstream neighbourhood of an output, at any distance.

    Unbounded on purpose: the set of contributing sources must be complete
    (:func:`provgraph.traversal.contributing_sources`), and only the path
    enumeration run on the result is bounded by ``max_depth``. The fetch is
    linear in the upstream subgraph (distinct nodes, pruning expand).
    """
    return neighbourhood_query(LineageDirection.UP, None, max_depth=MAX_ATTRIBUTION_DEPTH)


# ---------------------------------------------------------------------- sessions and keys
EPOCH_TEXT = "'1970-01-01T00:00:00.000000Z'"
"""The stored timestamp of an event that had none: never a session's first or last event."""


def session_verdict_condition() -> str:
    """The session (``session_id``) has an output whose newest report has ``$verdict``."""
    return (
        f"EXISTS {{ MATCH (r:{REPORT} {{project: $project, session_id: session_id}})"
        " WHERE $verdict IN r.verdicts AND NOT EXISTS"
        f" {{ MATCH (newer:{REPORT} {{project: $project, output_id: r.output_id}})"
        " WHERE newer.version > r.version } }"
    )


def session_cursor_condition() -> str:
    """After the cursor (``$after_at``, ``$after_id``) in the sessions page order."""
    return (
        "(($after_at = '' AND (last_at <> '' OR session_id > $after_id))"
        " OR ($after_at <> '' AND last_at <> '' AND"
        " (last_at < $after_at OR (last_at = $after_at AND session_id > $after_id))))"
    )


def session_summary_clause(*, text: bool) -> str:
    """Aggregate the nodes ``n`` into one summary row per session (``WITH``)."""
    return (
        "WITH n.session_id AS session_id, count(n) AS node_count,\n"
        "     count(DISTINCT CASE WHEN n.run_id <> '' THEN n.run_id END) AS run_count,\n"
        "     collect(DISTINCT CASE WHEN n.agent_name <> '' THEN n.agent_name END)"
        " AS agent_names,\n"
        f"     min(CASE WHEN n.timestamp <> {EPOCH_TEXT} THEN n.timestamp END) AS first_at,\n"
        f"     coalesce(max(CASE WHEN n.timestamp <> {EPOCH_TEXT} THEN n.timestamp END), '')"
        " AS last_at,\n"
        "     collect(CASE WHEN n.type = 'final_output' THEN n.id END) AS final_output_ids"
        + (
            ",\n     sum(CASE WHEN toLower(coalesce(n.label, n.default_label, '')) CONTAINS $text"
            " OR toLower(coalesce(n.content, '')) CONTAINS $text THEN 1 ELSE 0 END)"
            " AS text_hits\n"
            if text
            else "\n"
        )
    )


SESSION_PAGE_RETURN = (
    "RETURN session_id, node_count, run_count, agent_names, first_at, last_at,"
    " final_output_ids\n"
    "ORDER BY last_at = '' DESC, last_at DESC, session_id ASC\n"
)
"""The summary row and the page order (newest last event first, then by id)."""


def list_sessions_query(
    *,
    agent: bool,
    since: bool,
    after: bool,
    until: bool = False,
    verdict: bool = False,
    text: bool = False,
) -> str:
    """One page of session summaries, newest last event first, then by id.

    Sessions without a timestamp sort first (as in the embedded store); the
    cursor condition mirrors that order. With ``since`` only the sessions with a
    node at or after it are aggregated (a superset of those the filter keeps),
    not every node of the project. ``$first`` is the page size plus one
    (to learn whether another page exists). ``$text`` is lower-cased by the
    caller; ``verdict`` looks at the newest report version of each output.
    Without ``until`` and ``text``, a page with ``since`` is better served by
    :func:`~provgraph.store.neo4j.cypher_sessions.recent_sessions_query`.
    """
    where: list[str] = []
    if agent:
        where.append("$agent_name IN agent_names")
    if since:
        where.append("last_at <> '' AND last_at >= $since")
    if until:
        where.append("first_at IS NOT NULL AND first_at <= $until")
    if text:
        where.append("text_hits > 0")
    if verdict:
        where.append(session_verdict_condition())
    if after:
        where.append(session_cursor_condition())
    where_text = f"WHERE {' AND '.join(where)}\n" if where else ""
    members = (
        # only sessions with a node at or after $since can match: find them on the
        # (project, timestamp) index, then read just their nodes by (project, session_id)
        f"MATCH (recent:{NODE} {{project: $project}})\n"
        "WHERE recent.timestamp >= $since\n"
        "WITH DISTINCT recent.session_id AS candidate\n"
        f"MATCH (n:{NODE} {{project: $project, session_id: candidate}})\n"
        if since
        else f"MATCH (n:{NODE} {{project: $project}})\nWHERE n.session_id IS NOT NULL\n"
    )
    return (
        members
        + session_summary_clause(text=text)
        + where_text
        + SESSION_PAGE_RETURN
        + "LIMIT $first"
    )


def resolve_citation_key_query() -> str:
    """The node a (session, key) binding names."""
    return (
        f"MATCH (k:{CITATION_KEY} {{project: $project, id: $id}})\n"
        f"MATCH (n:{NODE} {{project: $project, id: k.node_id}})\n"
        "RETURN properties(n) AS props"
    )


def citation_summary_query() -> str:
    """Every bound key of a session with its node and the nodes citing it."""
    return (
        f"MATCH (k:{CITATION_KEY} {{project: $project, session_id: $session_id}})\n"
        "WHERE k.node_id IS NOT NULL\n"
        f"MATCH (n:{NODE} {{project: $project, id: k.node_id}})\n"
        "RETURN k.key AS key, properties(n) AS props, k.uses AS uses"
    )
