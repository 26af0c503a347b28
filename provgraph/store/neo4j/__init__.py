"""The Neo4j graph store: the platform's store of record behind the storage port.

``open_neo4j_store`` (sync: workers, CLI) and ``open_async_neo4j_store``
(async: the API) apply the schema migrations in ``schema/`` (package data) first and
stop with :class:`~provgraph.store.neo4j.migrations.MigrationError` naming the
migration that failed. See ``docs/neo4j-store.md`` for the data model, the
query shapes and the failure behaviour.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from neo4j import GraphDatabase

from provgraph.config import Settings
from provgraph.store.neo4j.adapter import Neo4jGraphStore
from provgraph.store.neo4j.async_adapter import AsyncNeo4jGraphStore
from provgraph.store.neo4j.availability import PROBE_TIMEOUT_S
from provgraph.store.neo4j.driver import ConnectionConfig, translated
from provgraph.store.neo4j.migrations import (
    SCHEMA_DIR,
    MigrationError,
    apply_migrations,
    apply_migrations_async,
)

__all__ = [
    "AsyncNeo4jGraphStore",
    "MigrationError",
    "Neo4jGraphStore",
    "open_async_neo4j_store",
    "open_neo4j_store",
]


def open_neo4j_store(settings: Settings, *, schema_dir: Path = SCHEMA_DIR) -> Neo4jGraphStore:
    """Migrate the schema, then return the sync store.

    Migrations run on a short-lived driver that is closed again, so the store's
    own driver is still created lazily (after a worker forks).
    """
    config = ConnectionConfig.from_settings(settings)
    with (
        translated("schema migrations", config.uri),
        GraphDatabase.driver(config.uri, **config.driver_kwargs()) as driver,
    ):
        apply_migrations(driver, config.database, schema_dir)
    return Neo4jGraphStore(config)


async def open_async_neo4j_store(
    settings: Settings, *, schema_dir: Path = SCHEMA_DIR, reads_only: bool = False
) -> AsyncNeo4jGraphStore:
    """Migrate the schema with the async driver, then return the async store.

    A quick connectivity check comes first: while Neo4j is down, the API opens
    the store on each request, and the migrations' retry loop would make every
    503 wait seconds for an answer known at once.

    ``reads_only``: a second store of a process whose main store already
    migrated (the API's GraphQL read thread): the check runs on the read driver
    and no migration runs, so the write driver (and its pool) is never created.
    """
    config = ConnectionConfig.from_settings(settings)
    store = AsyncNeo4jGraphStore(config)
    with translated("schema migrations", config.uri):
        try:
            if reads_only:
                await asyncio.wait_for(store.read_driver.verify_connectivity(), PROBE_TIMEOUT_S)
            else:
                await asyncio.wait_for(store.driver.verify_connectivity(), PROBE_TIMEOUT_S)
                await apply_migrations_async(store.driver, config.database, schema_dir)
        except BaseException:
            await store.close()
            raise
    return store
