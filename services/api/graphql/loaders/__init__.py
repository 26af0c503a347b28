"""Per-request DataLoaders: a dashboard query costs a bounded number of store round trips.

Each loader is a small module with one batch function. Node look-ups batch
into one ``get_nodes`` call per tick; the others fan out concurrently (the
port has no batched form) and are bounded by the page-size caps; a session's reports
come from one listing.
"""

from __future__ import annotations

from dataclasses import dataclass

from strawberry.dataloader import DataLoader

from provgraph.graph import ProvenanceEdge, ProvenanceGraph, ProvenanceNode
from provgraph.store.port import AsyncGraphStore
from provgraph.store.types import StoredReport
from services.api.graphql.loaders.node_edges import node_edges_loader
from services.api.graphql.loaders.nodes import nodes_loader
from services.api.graphql.loaders.session_graphs import session_graphs_loader
from services.api.graphql.loaders.session_reports import session_reports_loader


@dataclass(frozen=True)
class Loaders:
    nodes: DataLoader[str, ProvenanceNode | None]
    node_edges: DataLoader[str, list[ProvenanceEdge]]
    session_graphs: DataLoader[str, ProvenanceGraph]
    session_reports: DataLoader[str, dict[str, StoredReport]]


def create_loaders(store: AsyncGraphStore, project: str) -> Loaders:
    """Fresh loaders for one request (their caches must never outlive it)."""
    return Loaders(
        nodes=nodes_loader(store, project),
        node_edges=node_edges_loader(store, project),
        session_graphs=session_graphs_loader(store, project),
        session_reports=session_reports_loader(store, project),
    )
