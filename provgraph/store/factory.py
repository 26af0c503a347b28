"""Open the graph store the settings ask for: Neo4j when a URI is set, else embedded."""

from __future__ import annotations

from provgraph.config import Settings
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import GraphStore


def open_store(settings: Settings) -> GraphStore:
    """The synchronous store for the CLI, the worker and library users."""
    if settings.uses_neo4j:
        from provgraph.store.neo4j import open_neo4j_store

        return open_neo4j_store(settings)
    return MemoryGraphStore(settings.event_log_path)
