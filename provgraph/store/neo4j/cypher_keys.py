"""Cypher of the API keys (``:ApiKey`` nodes), as pure builders pinned as strings.

Keys are not tenant data: a token names its key id, not its project, so keys
are unique by ``id`` alone (migration ``0012``) and carry ``project`` as a
property. Only hashes are stored. Tested in ``tests/neo4j/test_cypher_scale.py``.
"""

from __future__ import annotations

from provgraph.store.neo4j.cypher import API_KEY

_FIELDS = (
    "k.id AS id, k.project AS project, k.role AS role, k.token_sha256 AS token_sha256,\n"
    "       k.name AS name, k.created_at AS created_at, k.revoked_at AS revoked_at"
)


def create_key_query() -> str:
    """A new key; CREATE (never MERGE): an existing id fails on the constraint."""
    return (
        f"CREATE (k:{API_KEY} {{id: $id}})\n"
        "SET k.project = $project, k.role = $role, k.token_sha256 = $token_sha256,\n"
        "    k.name = $name, k.created_at = $created_at, k.revoked_at = $revoked_at"
    )


def existing_key_ids_query() -> str:
    """Which of ``$ids`` are stored (an import skips them)."""
    return f"UNWIND $ids AS id\nMATCH (k:{API_KEY} {{id: id}})\nRETURN k.id AS id"


def create_keys_query() -> str:
    """Several new keys at once (an import, after :func:`existing_key_ids_query`)."""
    return (
        "UNWIND $rows AS row\n"
        f"CREATE (k:{API_KEY} {{id: row.id}})\n"
        "SET k.project = row.project, k.role = row.role, k.token_sha256 = row.token_sha256,\n"
        "    k.name = row.name, k.created_at = row.created_at, k.revoked_at = row.revoked_at"
    )


def get_key_query() -> str:
    return f"MATCH (k:{API_KEY} {{id: $id}})\nRETURN {_FIELDS}"


def list_keys_query() -> str:
    return f"MATCH (k:{API_KEY})\nRETURN {_FIELDS}\nORDER BY created_at ASC, id ASC"


def revoke_key_query() -> str:
    """Revoke once: a second revocation keeps the first time."""
    return (
        f"MATCH (k:{API_KEY} {{id: $id}})\n"
        "SET k.revoked_at = coalesce(k.revoked_at, $at)\n"
        f"RETURN {_FIELDS}"
    )
