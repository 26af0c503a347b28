"""The audit trail's Cypher builders: whitelisted labels and types, every pattern scoped."""

from __future__ import annotations

import re

from provgraph.store.neo4j import audit_cypher as q
from provgraph.store.neo4j import cypher

SCOPED = [
    q.audit_head_lock_query(),
    q.audit_append_query(),
    q.audit_entries_query(),
    q.audit_head_query(),
    q.save_review_query(),
    q.review_exists_query(),
    q.list_reviews_query(by_output=True),
    q.list_reviews_query(by_output=False),
    q.find_nodes_query(),
    q.erase_nodes_query(),
    q.erase_outputs_query(),
    q.delete_jobs_query(),
    q.entry_payloads_query(),
    q.set_entry_payloads_query(),
]


def test_labels_and_relationship_types_come_from_whitelists() -> None:
    for text in [*SCOPED, q.audit_projects_query()]:
        for found in re.findall(r"\(\w*:(\w+)", text):
            assert found in cypher.NODE_LABELS, (found, text)
        for found in re.findall(r"\[\w*:(\w+)\]", text):
            assert found in q.AUDIT_RELS, (found, text)


def test_every_pattern_is_scoped_by_project() -> None:
    for text in SCOPED:
        for pattern in re.findall(r"\(\w+:\w+ \{[^}]*\}\)", text):
            assert "project: $project" in pattern, (pattern, text)
        assert "$project" in text
    # the one cross-project read, for the scheduled jobs, returns project names only
    assert q.audit_projects_query() == (
        "MATCH (h:AuditHead)\nRETURN h.project AS project\nORDER BY project"
    )


def test_the_append_never_writes_an_existing_entry() -> None:
    append = q.audit_append_query()
    assert "CREATE (e:AuditEntry {project: $project, id: $seq})" in append
    assert "MERGE (e" not in append
    # erasure rewrites payloads only, never a sealed field
    assert re.findall(r"SET e\.(\w+)", q.set_entry_payloads_query()) == ["payload"]
    assert "CREATE (v:Review" in q.save_review_query()
