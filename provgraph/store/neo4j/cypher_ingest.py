"""The ingest write statement, built by small pure functions (pinned in ``tests/neo4j``).

One statement applies the accepted part of a batch: deliveries, nodes, edges,
key bindings and uses, ``cited_in`` edges and, when chained, the batch's audit
entry. Its text depends only on ``chained``, so Neo4j plans it once per mode.
The lookup that precedes it (project lock, stored state, chain head) is
:func:`provgraph.store.neo4j.cypher.ingest_lookup_query`.

Node rows (``ingest.fold_nodes``) carry ``f`` (the field values the batch
writes), ``ver`` (the highest version writing the node) and ``vp`` (``v_<field>``
for the fields written by a lower version than ``ver``; usually empty). A node
keeps the same shape: ``ver`` is the version of every set field without its own
``v_<field>`` property, so a node created by one event stores one version
instead of one per field (nodes written before this layout have ``v_<field>``
on every field and no ``ver``, and read the same way).
"""

from __future__ import annotations

from provgraph.graph import EdgeLabel
from provgraph.mapping import VERSIONED_FIELDS
from provgraph.store.neo4j.cypher import (
    AUDIT_HEAD,
    CITATION_KEY,
    DELIVERY,
    NODE,
    audit_append_clause,
    property_name,
    rel_type,
    rows_of,
    version_property,
)


def stored_version(field_name: str, node: str = "n") -> str:
    """The version that wrote ``node``'s field: its own ``v_<field>``, else the node's
    ``ver`` when the field is set, else ``''`` (never written: any write wins)."""
    p, v = property_name(field_name), version_property(field_name)
    return f"coalesce({node}.{v}, CASE WHEN {node}.{p} IS NULL THEN '' ELSE {node}.ver END, '')"


def _node_write_block() -> str:
    """Per-field last-writer-wins; a node new to the store takes the row's maps whole.

    ``r_<field>`` is the row's version for a field it writes (null otherwise). On an
    existing node a field and its ``v_<field>`` are replaced when the stored
    version is lower. Every right-hand side of one ``SET`` clause is evaluated on
    the node as it was before the clause (pinned by a test against the server), so
    the value and the version take the same decision without a projection of
    flags first (which made the planner put an ``Eager`` between read and write).
    """
    row_versions = ",\n       ".join(
        f"CASE WHEN row.f.{f} IS NULL THEN null ELSE coalesce(row.vp.{version_property(f)},"
        f" row.ver) END AS r_{f}"
        for f in VERSIONED_FIELDS
    )
    sets: list[str] = []
    for f in VERSIONED_FIELDS:
        p, v = property_name(f), version_property(f)
        newer = f"{stored_version(f)} < r_{f}"
        sets.append(f"n.{p} = CASE WHEN {newer} THEN row.f.{f} ELSE n.{p} END")
        sets.append(f"n.{v} = CASE WHEN {newer} THEN r_{f} ELSE n.{v} END")
    sets.append(
        "n.timestamp = CASE WHEN n.timestamp IS NULL OR row.ts < n.timestamp"
        " THEN row.ts ELSE n.timestamp END"
    )
    sets.append(
        f"n.default_label = CASE WHEN n.default_label IS NULL OR {stored_version('type')} < r_type"
        " THEN row.default_label ELSE n.default_label END"
    )
    on_match = ",\n    ".join(sets)
    return (
        "CALL () {\n" + rows_of("node") + f"  WITH row,\n       {row_versions}\n"
        f"  MERGE (n:{NODE} {{project: $project, id: row.id}})\n"
        "  ON CREATE SET n += row.f, n += row.vp, n.ver = row.ver, n.timestamp = row.ts,\n"
        "    n.default_label = row.default_label\n"
        f"  ON MATCH SET {on_match}\n"
        "}\n"
    )


def _edges_write_block() -> str:
    """Every edge in one pass; an unknown source becomes a placeholder (id only).

    A relationship type cannot be a parameter, so each row picks its type with a
    ``FOREACH`` over a one-element list per whitelisted type: one pass over the
    rows, twice as fast here as one ``UNWIND`` block per type (fewer scans and
    ``Eager`` barriers).
    """
    picks = "".join(
        f"  FOREACH (_ IN CASE WHEN row.label = '{rel_type(e)}' THEN [1] ELSE [] END |"
        f" MERGE (s)-[:{rel_type(e)}]->(t))\n"
        for e in EdgeLabel
    )
    return (
        "CALL () {\n" + rows_of("edge") + f"  MATCH (t:{NODE} {{project: $project, id: row.t}})\n"
        f"  MERGE (s:{NODE} {{project: $project, id: row.s}})\n" + picks + "}\n"
    )


def _keys_write_blocks() -> str:
    """Key bindings and uses, then ``cited_in`` edges for keys bound now (to every
    earlier use) and for uses recorded now (to an earlier binding)."""
    key_init = "ON CREATE SET k.session_id = row.session_id, k.key = row.key, k.uses = []\n"
    cited_in = rel_type(EdgeLabel.CITED_IN)
    return (
        "CALL () {\n"
        + rows_of("binding")
        + f"  MERGE (k:{CITATION_KEY} {{project: $project, id: row.id}})\n"
        f"  {key_init}"
        "  SET k.node_id = row.node_id\n"
        "}\n"
        "CALL () {\n"
        + rows_of("use")
        + f"  MERGE (k:{CITATION_KEY} {{project: $project, id: row.id}})\n"
        f"  {key_init}"
        "  SET k.uses = CASE WHEN row.citing IN k.uses THEN k.uses ELSE k.uses + row.citing END\n"
        "}\n"
        "CALL () {\n"
        + rows_of("binding")
        + f"  MATCH (k:{CITATION_KEY} {{project: $project, id: row.id}})\n"
        f"  MATCH (src:{NODE} {{project: $project, id: k.node_id}})\n"
        "  UNWIND k.uses AS citing\n"
        "  WITH src, citing WHERE citing <> src.id\n"
        f"  MATCH (c:{NODE} {{project: $project, id: citing}})\n"
        f"  MERGE (src)-[:{cited_in}]->(c)\n"
        "}\n"
        "CALL () {\n"
        + rows_of("use")
        + f"  MATCH (k:{CITATION_KEY} {{project: $project, id: row.id}})\n"
        "  WHERE k.node_id IS NOT NULL AND k.node_id <> row.citing\n"
        f"  MATCH (src:{NODE} {{project: $project, id: k.node_id}})\n"
        f"  MATCH (c:{NODE} {{project: $project, id: row.citing}})\n"
        f"  MERGE (src)-[:{cited_in}]->(c)\n"
        "}\n"
    )


def _audit_entry_block() -> str:
    """The batch's sealed entry after the head the (chained) lookup locked."""
    append = audit_append_clause().replace("\n", "\n  ")
    return (
        f"CALL () {{\n  MATCH (h:{AUDIT_HEAD} {{project: $project, id: 'head'}})\n  {append}\n}}\n"
    )


def ingest_write_query(*, chained: bool = False) -> str:
    """Apply the accepted part of a batch in the lookup's transaction.

    Blocks run in order: deliveries (``$delivered``, the event ids), nodes, edges,
    key bindings, key uses, ``cited_in`` edges, and (``chained``) the audit entry
    with its parameters (``$seq``, ``$kind``, ``$at``, ``$header``, ``$prev``,
    ``$hash``, ``$payload``).
    """
    return (
        "CALL () {\n"
        "  UNWIND $delivered AS id\n"
        f"  CREATE (:{DELIVERY} {{project: $project, id: id, batch: $batch}})\n"
        "}\n"
        + _node_write_block()
        + _edges_write_block()
        + _keys_write_blocks()
        + (_audit_entry_block() if chained else "")
        + "RETURN count(*) AS done"
    )
