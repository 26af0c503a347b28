"""The Cypher builders as exact strings (no server needed).

Small statements are pinned whole; the large ingestion statement is pinned by
its blocks. The sweep at the end checks every statement any builder can produce:
labels and relationship types only from the whitelist, every node pattern
scoped by ``project``.
"""

from __future__ import annotations

import re
from itertools import product

import pytest

from provgraph.errors import LimitExceededError
from provgraph.graph import EdgeLabel
from provgraph.store.neo4j import (
    cypher,
    cypher_ingest,
    cypher_lineage,
    cypher_records,
    cypher_sessions,
)
from provgraph.store.types import LineageDirection


def test_labels_and_types_only_from_the_whitelist() -> None:
    assert cypher.label("Node") == "Node"
    assert cypher.rel_type(EdgeLabel.CITED_IN) == "cited_in"
    assert cypher.rel_type("calls") == "calls"
    with pytest.raises(ValueError):
        cypher.label("Node) DETACH DELETE (n")
    with pytest.raises(ValueError):
        cypher.rel_type("KNOWS]->() DELETE r //")
    with pytest.raises(ValueError):
        cypher.property_name("password")
    assert cypher.version_property("label") == "v_label"


def test_get_nodes() -> None:
    assert cypher.get_nodes_query() == (
        "UNWIND $ids AS node_id\n"
        "MATCH (n:Node {project: $project, id: node_id})\n"
        "RETURN properties(n) AS props"
    )


def test_node_edges() -> None:
    assert cypher.node_edges_query() == (
        "MATCH (n:Node {project: $project, id: $id})-[r]-(:Node {project: $project})\n"
        "RETURN startNode(r).id AS source, endNode(r).id AS target, type(r) AS label"
    )


def test_nodes_edges_batches_ids() -> None:
    assert cypher.nodes_edges_query() == (
        "UNWIND $ids AS id\n"
        "MATCH (n:Node {project: $project, id: id})-[r]-(:Node {project: $project})\n"
        "RETURN id, startNode(r).id AS source, endNode(r).id AS target, type(r) AS label"
    )


def test_lineage_neighbourhood_is_capped_distinct_nodes_not_paths() -> None:
    assert cypher_lineage.lineage_neighbourhood_query(LineageDirection.UP, 7) == (
        "MATCH (o:Node {project: $project, id: $id})\n"
        "CALL (o) {\n"
        "  MATCH (o)<-[*0..7]-(m:Node)\n"
        "  WHERE m.project = $project\n"
        "  RETURN DISTINCT m\n"
        "  LIMIT $cap\n"
        "}\n"
        "WITH collect(m) AS found\n"
        "UNWIND CASE WHEN size(found) < $cap THEN found ELSE [null] END AS m\n"
        "RETURN m.id AS id, m.type AS type,\n"
        "       CASE WHEN m IS NULL THEN [] ELSE"
        " [(x:Node)-[r]->(m) WHERE x.project = $project | [x.id, x.type, type(r)]] END AS next"
    )
    down = cypher_lineage.lineage_neighbourhood_query(LineageDirection.DOWN, 64)
    assert "  MATCH (o)-[*0..64]->(m:Node)\n" in down
    assert "[(m)-[r]->(x:Node) WHERE x.project = $project" in down


@pytest.mark.parametrize("depth", [0, 65, -3, True, 1.5, "2", None])
def test_depth_is_a_validated_int(depth: object) -> None:
    with pytest.raises(LimitExceededError):
        cypher_lineage.lineage_neighbourhood_query(LineageDirection.UP, depth)  # type: ignore[arg-type]


def test_lineage_ring_returns_the_first_ids_of_the_next_ring_as_one_list() -> None:
    assert cypher_lineage.lineage_ring_query(LineageDirection.UP) == (
        "UNWIND $frontier AS id\n"
        "MATCH (f:Node {project: $project, id: id})<--(m:Node)\n"
        "WHERE m.project = $project AND NOT m.id IN $seen\n"
        "WITH DISTINCT m.id AS id\n"
        "ORDER BY id\n"
        "LIMIT $room\n"
        "RETURN collect(id) AS ids"
    )
    down = cypher_lineage.lineage_ring_query(LineageDirection.DOWN)
    assert "MATCH (f:Node {project: $project, id: id})-->(m:Node)\n" in down


def test_lineage_result_reads_nodes_and_the_edges_among_them_in_one_row() -> None:
    assert cypher_lineage.lineage_result_query() == (
        "UNWIND $ids AS id\n"
        "MATCH (n:Node {project: $project, id: id})\n"
        "WITH collect(n) AS kept\n"
        "CALL (kept) {\n"
        "  UNWIND kept AS s\n"
        "  MATCH (s)-[r]->(t:Node)\n"
        "  WHERE t IN kept\n"
        "  RETURN collect([s.id, t.id, type(r)]) AS edges\n"
        "}\n"
        "RETURN [n IN kept | properties(n)] AS nodes, edges"
    )


def test_attribution_neighbourhood_is_unbounded() -> None:
    """Sources must be complete at any depth; only path enumeration is bounded (in Python)."""
    text = cypher.attribution_neighbourhood_query()
    assert "  MATCH (o)<-[*0..]-(m:Node)\n" in text
    assert "  RETURN DISTINCT m\n" in text  # distinct nodes: a pruning BFS expand, never paths


def test_list_sessions_without_filters() -> None:
    assert cypher.list_sessions_query(agent=False, since=False, after=False) == (
        "MATCH (n:Node {project: $project})\n"
        "WHERE n.session_id IS NOT NULL\n"
        "WITH n.session_id AS session_id, count(n) AS node_count,\n"
        "     count(DISTINCT CASE WHEN n.run_id <> '' THEN n.run_id END) AS run_count,\n"
        "     collect(DISTINCT CASE WHEN n.agent_name <> '' THEN n.agent_name END)"
        " AS agent_names,\n"
        "     min(CASE WHEN n.timestamp <> '1970-01-01T00:00:00.000000Z' THEN n.timestamp END)"
        " AS first_at,\n"
        "     coalesce(max(CASE WHEN n.timestamp <> '1970-01-01T00:00:00.000000Z'"
        " THEN n.timestamp END), '') AS last_at,\n"
        "     collect(CASE WHEN n.type = 'final_output' THEN n.id END) AS final_output_ids\n"
        "RETURN session_id, node_count, run_count, agent_names, first_at, last_at,"
        " final_output_ids\n"
        "ORDER BY last_at = '' DESC, last_at DESC, session_id ASC\n"
        "LIMIT $first"
    )


def test_list_sessions_filters_and_cursor() -> None:
    text = cypher.list_sessions_query(agent=True, since=True, after=True)
    assert (
        "WHERE $agent_name IN agent_names AND last_at <> '' AND last_at >= $since AND "
        "(($after_at = '' AND (last_at <> '' OR session_id > $after_id)) OR "
        "($after_at <> '' AND last_at <> '' AND "
        "(last_at < $after_at OR (last_at = $after_at AND session_id > $after_id))))\n"
    ) in text


def test_recent_sessions_pages_before_it_summarises() -> None:
    text = cypher_sessions.recent_sessions_query(agent=True, after=False)
    assert text.startswith(
        "MATCH (recent:Node {project: $project})\n"
        "WHERE recent.timestamp >= $since AND recent.timestamp <> '1970-01-01T00:00:00.000000Z'\n"
        "WITH recent.session_id AS session_id, max(recent.timestamp) AS last_at\n"
        "WHERE session_id IS NOT NULL AND EXISTS { MATCH (a:Node {project: $project,"
        " session_id: session_id}) WHERE a.agent_name = $agent_name }\n"
        "ORDER BY last_at DESC, session_id ASC\n"
        "LIMIT $first\n"
        "MATCH (n:Node {project: $project, session_id: session_id})\n"
        "WITH n.session_id AS session_id, count(n) AS node_count,\n"
    )
    assert text.endswith("ORDER BY last_at = '' DESC, last_at DESC, session_id ASC\n")
    with_cursor = cypher_sessions.recent_sessions_query(agent=False, after=True, verdict=True)
    assert "WHERE session_id IS NOT NULL AND EXISTS { MATCH (r:Report" in with_cursor
    assert "(last_at < $after_at OR (last_at = $after_at AND session_id > $after_id))" in (
        with_cursor
    )


def test_reports() -> None:
    assert cypher_records.get_report_query(by_version=True) == (
        "MATCH (r:Report {project: $project, output_id: $output_id})\n"
        "WHERE r.version = $version\n"
        "RETURN r.doc AS doc, r.version AS version\n"
        "ORDER BY r.version DESC\n"
        "LIMIT 1"
    )
    assert cypher_records.list_reports_query(
        session=True, verdict=True, since=False, after=True
    ) == (
        "MATCH (r:Report {project: $project})\n"
        "WHERE r.session_id = $session_id AND $verdict IN r.verdicts AND "
        "(r.created_at < $after_at OR (r.created_at = $after_at AND r.id > $after_id))\n"
        "RETURN r.doc AS doc, r.version AS version\n"
        "ORDER BY r.created_at DESC, r.id ASC\n"
        "LIMIT $first"
    )
    assert (
        "WITH coalesce(same.version, existing + 1) AS version\n"
        in cypher_records.save_report_query()
    )


def test_jobs() -> None:
    assert cypher_records.list_jobs_query(all_projects=False, state=True) == (
        "MATCH (j:Job {project: $project})\n"
        "WHERE j.state = $state\n"
        "RETURN j.doc AS doc\n"
        "ORDER BY j.created_at ASC, j.id ASC\n"
        "LIMIT $limit"
    )
    assert cypher_records.list_jobs_query(all_projects=True, state=False).startswith(
        "MATCH (j:Job)\n"
    )
    assert cypher_records.save_job_query() == (
        "MERGE (j:Job {project: $project, id: $id})\n"
        "SET j.state = $state, j.created_at = $created_at, j.output_id = $output_id,\n"
        "    j.doc = $doc"
    )
    assert cypher_records.outputs_without_jobs_query(all_projects=False) == (
        "MATCH (n:Node {project: $project, type: 'final_output'})\n"
        "WHERE NOT EXISTS { MATCH (:Job {project: n.project, output_id: n.id}) }\n"
        "  AND NOT EXISTS { MATCH (:Report {project: n.project, output_id: n.id}) }\n"
        "RETURN n.project AS project, n.id AS id\n"
        "ORDER BY n.project, n.id\n"
        "LIMIT $limit"
    )
    assert cypher_records.outputs_without_jobs_query(all_projects=True).startswith(
        "MATCH (n:Node {type: 'final_output'})\n"
    )


def test_ingest_lookup_takes_no_project_lock() -> None:
    text = cypher.ingest_lookup_query()
    assert text.startswith("CALL () {\n")  # the session locks are their own statement
    assert "IngestLock" not in text
    assert (
        "CALL () {\n"
        "  UNWIND [r IN $rows WHERE r.kind = 'event'] AS row\n"
        "  MATCH (d:Delivery {project: $project, id: row.id})\n"
        "  RETURN collect([d.id, d.batch]) AS delivered\n"
        "}\n"
    ) in text
    # no predicate on the node pattern: the planner once answered it with a scan of the
    # (project, citation_key) index over the whole project instead of an id seek
    assert (
        "  MATCH (n:Node {project: $project, id: row.id})\n"
        "  RETURN collect(CASE WHEN n.citation_key IS NOT NULL"
        " THEN [n.id, n.citation_key, coalesce(n.v_citation_key, n.ver)] END) AS node_keys\n"
    ) in text
    assert text.endswith("RETURN delivered, bound, node_keys")


def test_chained_ingest_lookup_takes_the_chain_head_before_it_reads() -> None:
    """The head is the chained batch's lock (ADR 0012, amended): taken first."""
    text = cypher.ingest_lookup_query(chained=True)
    reads = cypher.ingest_lookup_query().rsplit("RETURN", 1)[0]
    assert text == (
        "MERGE (h:AuditHead {project: $project, id: 'head'})\n"
        "ON CREATE SET h.seq = 0, h.hash = $genesis\n"
        "SET h.appends = coalesce(h.appends, 0) + 1\n"
        "WITH h\n"
        + reads
        + "RETURN delivered, bound, node_keys, h.seq AS head_seq, h.hash AS head_hash"
    )


def test_ingest_write_picks_each_edge_type_in_one_pass() -> None:
    text = cypher_ingest.ingest_write_query()
    assert (
        "CALL () {\n"
        "  UNWIND [r IN $rows WHERE r.kind = 'edge'] AS row\n"
        "  MATCH (t:Node {project: $project, id: row.t})\n"
        "  MERGE (s:Node {project: $project, id: row.s})\n"
        "  FOREACH (_ IN CASE WHEN row.label = 'starts_with' THEN [1] ELSE [] END |"
        " MERGE (s)-[:starts_with]->(t))\n"
    ) in text
    for edge_label in EdgeLabel:
        pick = (
            f"  FOREACH (_ IN CASE WHEN row.label = '{edge_label.value}' THEN [1] ELSE [] END |"
            f" MERGE (s)-[:{edge_label.value}]->(t))\n"
        )
        assert text.count(pick) == 1
    assert text.startswith(
        "CALL () {\n"
        "  UNWIND $delivered AS id\n"
        "  CREATE (:Delivery {project: $project, id: id, batch: $batch})\n"
        "}\n"
    )
    assert "r.kind = 'delivery'" not in text  # the ids are not tagged rows
    assert text == cypher_ingest.ingest_write_query()  # one text: planned once


def test_ingest_write_creates_new_nodes_whole_and_merges_existing_ones_per_field() -> None:
    text = cypher_ingest.ingest_write_query()
    assert (
        "  MERGE (n:Node {project: $project, id: row.id})\n"
        "  ON CREATE SET n += row.f, n += row.vp, n.ver = row.ver, n.timestamp = row.ts,\n"
        "    n.default_label = row.default_label\n"
        "  ON MATCH SET "
    ) in text
    assert (
        "CASE WHEN row.f.content IS NULL THEN null ELSE coalesce(row.vp.v_content, row.ver) END"
        " AS r_content"
    ) in text
    stored = "coalesce(n.v_content, CASE WHEN n.content IS NULL THEN '' ELSE n.ver END, '')"
    assert cypher_ingest.stored_version("content") == stored
    # value and version decided by the same comparison, in one SET clause
    assert (
        f"n.content = CASE WHEN {stored} < r_content THEN row.f.content ELSE n.content END" in text
    )
    assert (
        f"n.v_content = CASE WHEN {stored} < r_content THEN r_content ELSE n.v_content END" in text
    )
    assert (
        "n.timestamp = CASE WHEN n.timestamp IS NULL OR row.ts < n.timestamp"
        " THEN row.ts ELSE n.timestamp END"
    ) in text
    assert "  WITH n, row" not in text  # no flag projection (it cost an Eager)


def test_chained_ingest_write_appends_the_entry_after_the_locked_head() -> None:
    plain, chained = (
        cypher_ingest.ingest_write_query(),
        cypher_ingest.ingest_write_query(chained=True),
    )
    assert chained.startswith(plain.removesuffix("RETURN count(*) AS done"))
    assert chained.endswith(
        "CALL () {\n"
        "  MATCH (h:AuditHead {project: $project, id: 'head'})\n"
        "  CREATE (e:AuditEntry {project: $project, id: $seq})\n"
        "  SET e.seq = $seq, e.kind = $kind, e.at = $at, e.header = $header, e.prev = $prev,\n"
        "      e.hash = $hash, e.payload = $payload, h.seq = $seq, h.hash = $hash\n"
        "}\n"
        "RETURN count(*) AS done"
    )


def _every_statement() -> list[str]:
    texts = [
        *(cypher.ingest_lookup_query(chained=c) for c in (True, False)),
        *(cypher_ingest.ingest_write_query(chained=c) for c in (True, False)),
        cypher.get_nodes_query(),
        cypher.session_graph_query(),
        cypher.node_edges_query(),
        cypher.nodes_edges_query(),
        cypher.resolve_citation_key_query(),
        cypher.citation_summary_query(),
        cypher_records.save_report_query(),
        cypher_records.get_job_query(),
        cypher_records.save_job_query(),
        cypher_records.applied_migrations_query(),
        cypher_records.record_migration_query(),
        cypher.attribution_neighbourhood_query(),
        *(cypher_lineage.lineage_ring_query(d) for d in LineageDirection),
        *(cypher_lineage.lineage_neighbourhood_query(d, 3) for d in LineageDirection),
        cypher_lineage.lineage_result_query(),
        *(
            cypher_sessions.recent_sessions_query(agent=a, after=f, verdict=v)
            for a, f, v in product([True, False], repeat=3)
        ),
        *(
            cypher.list_sessions_query(agent=a, since=s, after=f)
            for a, s, f in product([True, False], repeat=3)
        ),
        *(
            cypher_records.list_reports_query(session=a, verdict=b, since=c, after=d)
            for a, b, c, d in product([True, False], repeat=4)
        ),
        *(cypher_records.get_report_query(by_version=v) for v in (True, False)),
        cypher_records.list_jobs_query(all_projects=False, state=True),
        cypher_records.outputs_without_jobs_query(all_projects=False),
    ]
    return texts


def test_every_statement_uses_whitelisted_labels_and_scopes_by_project() -> None:
    allowed_types = {e.value for e in EdgeLabel}
    for text in _every_statement():
        for found in re.findall(r"\(\w*:(\w+)", text):
            assert found in cypher.NODE_LABELS, (found, text)
        for found in re.findall(r"\[\w*:(\w+)\]", text):
            assert found in allowed_types, (found, text)
        for pattern in re.findall(r"\(\w+:\w+ \{[^}]*\}\)", text):
            assert "project: $project" in pattern, (pattern, text)
        assert "$project" in text


def test_session_listing_since_reads_only_candidate_sessions() -> None:
    text = cypher.list_sessions_query(agent=True, since=True, after=False)
    assert text.startswith(
        "MATCH (recent:Node {project: $project})\n"
        "WHERE recent.timestamp >= $since\n"
        "WITH DISTINCT recent.session_id AS candidate\n"
        "MATCH (n:Node {project: $project, session_id: candidate})\n"
        "WITH n.session_id AS session_id, count(n) AS node_count,\n"
    )
    # the full filter still applies after aggregation: candidates are a superset
    assert "last_at <> '' AND last_at >= $since" in text
    plain = cypher.list_sessions_query(agent=True, since=False, after=False)
    assert plain.startswith("MATCH (n:Node {project: $project})\nWHERE n.session_id IS NOT NULL\n")
