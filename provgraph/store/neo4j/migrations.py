"""Numbered Cypher schema migrations (``schema/NNNN_name.cypher``), applied at start-up.

Constraints and reasons:

* Migrations are applied in version order, each statement in its own
  transaction (Neo4j does not mix schema and data writes in one), and every
  statement is written ``IF NOT EXISTS``, so re-running a half-applied file is
  safe and two processes starting at once do not fight.
* The applied version is recorded in the graph (``:SchemaMigration`` nodes
  with the file's checksum) only after all its statements succeeded; running
  the migrations again is then a no-op.
* A failing statement stops start-up with :class:`MigrationError` naming the
  file and the statement; a recorded migration whose file has since changed is
  refused too (edit schema by adding a new file, never by rewriting one).
* Every statement, the bookkeeping reads included, is routed to the writer
  (``routing_=WRITE``): in a cluster, schema changes go to the leader, and a
  follower could still answer "not applied" for a migration just recorded.
* After applying, start-up waits for the indexes to come online so the first
  queries do not run as label scans.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from neo4j import AsyncDriver, Driver, RoutingControl
from neo4j import exceptions as neo

from provgraph.errors import StoreError
from provgraph.store.neo4j import cypher, cypher_records

SCHEMA_DIR = Path(__file__).resolve().with_name("schema")
"""The migrations, shipped as package data next to this module (a wheel install migrates)."""
INDEX_WAIT_S = 300
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.cypher$")


class MigrationError(StoreError):
    """A schema migration could not be applied; start-up must stop."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]
    checksum: str


def split_statements(text: str) -> tuple[str, ...]:
    """Statements of a migration file: ``//`` comment lines dropped, split at ``;``."""
    kept = "\n".join(line for line in text.splitlines() if not line.strip().startswith("//"))
    return tuple(s.strip() for s in kept.split(";") if s.strip())


def load_migrations(schema_dir: Path = SCHEMA_DIR) -> list[Migration]:
    """Every ``NNNN_name.cypher`` file, by version; a malformed set is an error."""
    if not schema_dir.is_dir():
        raise MigrationError(f"schema folder {schema_dir} does not exist")
    found: list[Migration] = []
    for path in sorted(schema_dir.glob("*.cypher")):
        match = _NAME.match(path.name)
        if match is None:
            raise MigrationError(f"{path.name}: migration files are named NNNN_name.cypher")
        text = path.read_text(encoding="utf-8")
        found.append(
            Migration(
                version=int(match.group(1)),
                name=path.name,
                statements=split_statements(text),
                checksum=hashlib.sha256(text.encode()).hexdigest(),
            )
        )
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise MigrationError(f"two migrations in {schema_dir} share a version number")
    return found


def pending(migrations: list[Migration], applied: list[dict[str, Any]]) -> list[Migration]:
    """Migrations not yet recorded; a recorded one whose file changed is refused."""
    recorded = {str(r["id"]): str(r["checksum"]) for r in applied}
    todo: list[Migration] = []
    for migration in migrations:
        checksum = recorded.get(migration.name)
        if checksum is None:
            todo.append(migration)
        elif checksum != migration.checksum:
            raise MigrationError(
                f"migration {migration.name} was applied but its file has changed since; "
                "add a new numbered migration instead of editing an applied one"
            )
    return todo


def _failure(migration: Migration, index: int, exc: Exception) -> MigrationError:
    detail = f"{exc.code}: {exc.message}" if isinstance(exc, neo.Neo4jError) else str(exc)
    return MigrationError(
        f"schema migration {migration.name} failed at statement {index + 1} "
        f"({migration.statements[index][:80]!r}): {detail}; start-up stopped, "
        "nothing after it was applied"
    )


def _record_params(migration: Migration) -> dict[str, Any]:
    return {
        "project": cypher.SCHEMA_PROJECT,
        "id": migration.name,
        "version": migration.version,
        "checksum": migration.checksum,
        "applied_at": datetime.now(UTC).isoformat(),
    }


def apply_migrations(driver: Driver, database: str, schema_dir: Path = SCHEMA_DIR) -> list[str]:
    """Apply pending migrations with a sync driver; returns the names applied."""
    migrations = load_migrations(schema_dir)
    applied = driver.execute_query(
        cypher_records.applied_migrations_query(),
        {"project": cypher.SCHEMA_PROJECT},
        database_=database,
        routing_=RoutingControl.WRITE,
    ).records
    todo = pending(migrations, [r.data() for r in applied])
    for migration in todo:
        for index, statement in enumerate(migration.statements):
            try:
                driver.execute_query(statement, database_=database, routing_=RoutingControl.WRITE)
            except (neo.Neo4jError, neo.DriverError) as exc:
                if isinstance(exc, (neo.ServiceUnavailable, neo.SessionExpired)):
                    raise
                raise _failure(migration, index, exc) from exc
        driver.execute_query(
            cypher_records.record_migration_query(),
            _record_params(migration),
            database_=database,
            routing_=RoutingControl.WRITE,
        )
    driver.execute_query(
        cypher_records.await_indexes_query(),
        {"timeout": INDEX_WAIT_S},
        database_=database,
        routing_=RoutingControl.WRITE,
    )
    return [m.name for m in todo]


async def apply_migrations_async(
    driver: AsyncDriver, database: str, schema_dir: Path = SCHEMA_DIR
) -> list[str]:
    """:func:`apply_migrations` for the async driver (API start-up)."""
    migrations = load_migrations(schema_dir)
    applied = (
        await driver.execute_query(
            cypher_records.applied_migrations_query(),
            {"project": cypher.SCHEMA_PROJECT},
            database_=database,
            routing_=RoutingControl.WRITE,
        )
    ).records
    todo = pending(migrations, [r.data() for r in applied])
    for migration in todo:
        for index, statement in enumerate(migration.statements):
            try:
                await driver.execute_query(
                    statement, database_=database, routing_=RoutingControl.WRITE
                )
            except (neo.Neo4jError, neo.DriverError) as exc:
                if isinstance(exc, (neo.ServiceUnavailable, neo.SessionExpired)):
                    raise
                raise _failure(migration, index, exc) from exc
        await driver.execute_query(
            cypher_records.record_migration_query(),
            _record_params(migration),
            database_=database,
            routing_=RoutingControl.WRITE,
        )
    await driver.execute_query(
        cypher_records.await_indexes_query(),
        {"timeout": INDEX_WAIT_S},
        database_=database,
        routing_=RoutingControl.WRITE,
    )
    return [m.name for m in todo]
