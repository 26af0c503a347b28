"""Open the key repository the settings ask for: Neo4j when a URI is set, else the file.

The embedded mode keeps its owner-only SQLite file (``PROVGRAPH_KEYS_DB``):
one process, no replicas, and keys stay out of the provenance event log.
With ``PROVGRAPH_NEO4J_URI`` every process (API replicas, CLI) uses the
graph's ``:ApiKey`` nodes; ``provgraph keys import-file`` copies a file's keys
there once (docs/adr/0012).
"""

from __future__ import annotations

from provgraph.config import Settings
from provgraph.store.key_file import SqliteKeyRepository
from provgraph.store.key_types import KeyRepository


def open_key_repository(settings: Settings) -> KeyRepository:
    """The synchronous key repository (CLI, embedded API)."""
    if settings.uses_neo4j:
        from provgraph.store.neo4j import open_neo4j_store
        from provgraph.store.neo4j.keys import Neo4jKeyRepository

        return Neo4jKeyRepository(open_neo4j_store(settings))
    return SqliteKeyRepository(settings.keys_db_path)
