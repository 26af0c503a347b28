"""Graph stores: the storage port, the embedded store, and the seed ``ProvenanceStore``.

``from provgraph.store import ProvenanceStore`` works as it did in
``pydantic_ai_provenance.store``. The Neo4j adapter lives in
``provgraph.store.neo4j`` and is imported only when asked for.
"""

from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import AsyncGraphStore, GraphStore
from provgraph.store.provenance_store import ProvenanceStore

__all__ = ["AsyncGraphStore", "GraphStore", "MemoryGraphStore", "ProvenanceStore"]
