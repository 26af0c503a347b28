"""API keys in Neo4j: the key repository of a replicated deployment (docs/adr/0012).

Every API replica, worker and CLI that names the same Neo4j sees the same
keys. Each operation is a driver-free program (like ``operations``) run by the
store's own transaction runner, so the keys share the store's drivers, error
translation and availability rules. Look-ups run as *write* transactions on
purpose: in a cluster those go to the leader, so a key created or revoked
through any process is seen by the next look-up (a follower may lag); the
API's short authentication cache (``PROVGRAPH_KEY_CACHE_TTL_S``) keeps that
off the request path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

from provgraph.store.key_types import KeyRecord
from provgraph.store.neo4j import cypher_keys as q
from provgraph.store.neo4j.adapter import Neo4jGraphStore
from provgraph.store.neo4j.async_adapter import AsyncNeo4jGraphStore
from provgraph.store.neo4j.operations import Program, Record, Statement


def _record(row: Record) -> KeyRecord:
    return KeyRecord(
        id=str(row["id"]),
        project=str(row["project"]),
        role=str(row["role"]),
        token_sha256=str(row["token_sha256"]),
        name=row.get("name"),
        created_at=str(row["created_at"]),
        revoked_at=row.get("revoked_at"),
    )


def insert_key(record: KeyRecord) -> Program[None]:
    yield Statement(q.create_key_query(), asdict(record))


def import_keys(records: Sequence[KeyRecord]) -> Program[int]:
    """Create the keys whose id is not stored yet; returns how many."""
    if not records:
        return 0
    found = yield Statement(q.existing_key_ids_query(), {"ids": [r.id for r in records]})
    stored = {str(r["id"]) for r in found}
    new = [asdict(r) for r in records if r.id not in stored]
    if new:
        yield Statement(q.create_keys_query(), {"rows": new})
    return len(new)


def get_key(key_id: str) -> Program[KeyRecord | None]:
    records = yield Statement(q.get_key_query(), {"id": key_id})
    return _record(records[0]) if records else None


def list_keys() -> Program[list[KeyRecord]]:
    records = yield Statement(q.list_keys_query())
    return [_record(r) for r in records]


def revoke_key(key_id: str, at: str) -> Program[KeyRecord | None]:
    records = yield Statement(q.revoke_key_query(), {"id": key_id, "at": at})
    return _record(records[0]) if records else None


class Neo4jKeyRepository:
    """:class:`~provgraph.store.key_types.KeyRepository` over the sync store (CLI)."""

    def __init__(self, store: Neo4jGraphStore) -> None:
        self.store = store

    def insert_key(self, record: KeyRecord) -> None:
        self.store.run_program("insert_key", lambda: insert_key(record), write=True)

    def import_keys(self, records: Sequence[KeyRecord]) -> int:
        return self.store.run_program("import_keys", lambda: import_keys(records), write=True)

    def get_key(self, key_id: str) -> KeyRecord | None:
        return self.store.run_program("get_key", lambda: get_key(key_id), write=True)

    def list_keys(self) -> list[KeyRecord]:
        return self.store.run_program("list_keys", list_keys, write=True)

    def revoke_key(self, key_id: str, at: str) -> KeyRecord | None:
        return self.store.run_program("revoke_key", lambda: revoke_key(key_id, at), write=True)

    def close(self) -> None:
        self.store.close()


class AsyncNeo4jKeyRepository:
    """:class:`~provgraph.store.key_types.AsyncKeyRepository` over the API's async store."""

    def __init__(self, store: AsyncNeo4jGraphStore) -> None:
        self.store = store

    async def insert_key(self, record: KeyRecord) -> None:
        await self.store.run_program("insert_key", lambda: insert_key(record), write=True)

    async def get_key(self, key_id: str) -> KeyRecord | None:
        return await self.store.run_program("get_key", lambda: get_key(key_id), write=True)

    async def list_keys(self) -> list[KeyRecord]:
        return await self.store.run_program("list_keys", list_keys, write=True)

    async def revoke_key(self, key_id: str, at: str) -> KeyRecord | None:
        return await self.store.run_program(
            "revoke_key", lambda: revoke_key(key_id, at), write=True
        )
