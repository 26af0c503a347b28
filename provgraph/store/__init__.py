"""Graph stores: the storage port and the embedded store.

``from provgraph.store import ProvenanceStore`` still works as it did in
``pydantic_ai_provenance.store``, but the seed facade lives outside this
package (:mod:`provgraph.provenance_store`): it renders exports and resolves
sources for verification, and storage must import neither (docs/adr/0006).
The name is resolved lazily (PEP 562), so importing the store never loads the
facade. The Neo4j adapter lives in ``provgraph.store.neo4j`` and is imported
only when asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import AsyncGraphStore, GraphStore

if TYPE_CHECKING:
    from provgraph.provenance_store import ProvenanceStore

__all__ = ["AsyncGraphStore", "GraphStore", "MemoryGraphStore", "ProvenanceStore"]


def __getattr__(name: str) -> Any:
    """The seed facade on first access (a storage module must not import it eagerly)."""
    if name == "ProvenanceStore":
        import importlib

        return importlib.import_module("provgraph.provenance_store").ProvenanceStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
