"""The key-repository port: where API keys (hashes only) are kept, whatever the deployment.

A replica-safe deployment needs every API process to see the same keys, so
the repository is a store capability: the Neo4j adapter keeps keys as
``:ApiKey`` nodes (``provgraph.store.neo4j.keys``), the embedded mode keeps
its owner-only SQLite file (``provgraph.store.key_file``; one process, no
replicas, and keys stay out of the provenance event log). Token handling,
validation and roles live in :mod:`provgraph.usecases.keys`; this layer only
stores records and never sees a token.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class KeyRecord:
    """One stored key: the SHA-256 of its token, never the token."""

    id: str
    project: str
    role: str
    token_sha256: str
    name: str | None
    created_at: str
    revoked_at: str | None = None


@runtime_checkable
class KeyRepository(Protocol):
    """Synchronous key storage (the CLI, the embedded API)."""

    def insert_key(self, record: KeyRecord) -> None:
        """Store a new key; an existing id is an error (ids are random, 64 bits)."""
        ...

    def import_keys(self, records: Sequence[KeyRecord]) -> int:
        """Store keys whose id is not stored yet (idempotent); returns how many were new."""
        ...

    def get_key(self, key_id: str) -> KeyRecord | None:
        """The key with this id, revoked or not. Always reads the latest committed state
        (Neo4j: routed to the leader), so a key created or revoked through another
        process is seen at once."""
        ...

    def list_keys(self) -> list[KeyRecord]:
        """Every key, oldest first."""
        ...

    def revoke_key(self, key_id: str, at: str) -> KeyRecord | None:
        """Set ``revoked_at`` unless already set (the first revocation time stays);
        None for an unknown id."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class AsyncKeyRepository(Protocol):
    """The async twin the API authenticates through (Neo4j deployments)."""

    async def insert_key(self, record: KeyRecord) -> None: ...

    async def get_key(self, key_id: str) -> KeyRecord | None: ...

    async def list_keys(self) -> list[KeyRecord]: ...

    async def revoke_key(self, key_id: str, at: str) -> KeyRecord | None: ...
