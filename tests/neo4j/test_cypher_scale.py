"""The key and session-lock Cypher builders, pinned as exact strings (no server needed)."""

from __future__ import annotations

import re

from provgraph.store.neo4j import cypher, cypher_keys, cypher_locks


def test_lock_sessions_query_locks_then_names_stored_sessions() -> None:
    assert cypher_locks.lock_sessions_query() == (
        "UNWIND $sessions AS session_id\n"
        "MERGE (l:SessionLock {project: $project, id: session_id})\n"
        "SET l.writes = coalesce(l.writes, 0) + 1\n"
        "WITH count(l) AS locked\n"
        "UNWIND $node_ids AS node_id\n"
        "MATCH (n:Node {project: $project, id: node_id})\n"
        "USING INDEX SEEK n:Node(project, id)\n"
        "WHERE n.session_id IS NOT NULL\n"
        "RETURN DISTINCT n.session_id AS session_id"
    )


def test_key_queries() -> None:
    fields = (
        "k.id AS id, k.project AS project, k.role AS role, k.token_sha256 AS token_sha256,\n"
        "       k.name AS name, k.created_at AS created_at, k.revoked_at AS revoked_at"
    )
    assert cypher_keys.create_key_query() == (
        "CREATE (k:ApiKey {id: $id})\n"
        "SET k.project = $project, k.role = $role, k.token_sha256 = $token_sha256,\n"
        "    k.name = $name, k.created_at = $created_at, k.revoked_at = $revoked_at"
    )
    assert cypher_keys.get_key_query() == f"MATCH (k:ApiKey {{id: $id}})\nRETURN {fields}"
    assert cypher_keys.list_keys_query() == (
        f"MATCH (k:ApiKey)\nRETURN {fields}\nORDER BY created_at ASC, id ASC"
    )
    assert cypher_keys.revoke_key_query() == (
        "MATCH (k:ApiKey {id: $id})\n"
        "SET k.revoked_at = coalesce(k.revoked_at, $at)\n"
        f"RETURN {fields}"
    )
    assert cypher_keys.existing_key_ids_query() == (
        "UNWIND $ids AS id\nMATCH (k:ApiKey {id: id})\nRETURN k.id AS id"
    )
    assert cypher_keys.create_keys_query().startswith(
        "UNWIND $rows AS row\nCREATE (k:ApiKey {id: row.id})\n"
    )


def test_labels_are_whitelisted_and_values_are_parameters() -> None:
    texts = [
        cypher_locks.lock_sessions_query(),
        cypher_keys.create_key_query(),
        cypher_keys.create_keys_query(),
        cypher_keys.existing_key_ids_query(),
        cypher_keys.get_key_query(),
        cypher_keys.list_keys_query(),
        cypher_keys.revoke_key_query(),
    ]
    for text in texts:
        for found in re.findall(r"\(\w*:(\w+)", text):
            assert found in cypher.NODE_LABELS, (found, text)
        assert "'" not in text  # no literal values interpolated
