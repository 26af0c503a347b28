"""Per-request DataLoaders: a dashboard query costs a bounded number of store round trips.

Each loader is a small module with one batch function. Node look-ups batch
into one ``get_nodes`` call per tick; the others fan out concurrently (the
port has no batched form) and are bounded by the page-size caps.
"""

from __future__ import annotations

from dataclasses import dataclass

from strawberry.dataloader import DataLoader

from provgraph.graph import ProvenanceEdge, ProvenanceGraph, ProvenanceNode
from provgraph.store.port import AsyncGraphStore
from provgraph.store.types import StoredReport
from services.api.graphql.loaders.latest_reports import latest_reports_loader
from services.api.graphql.loaders.node_edges import node_edges_loader
from services.api.graphql.loaders.nodes import nodes_loader
from services.api.graphql.loaders.session_graphs import session_graphs_loader


@dataclass(frozen=True)
class Loaders:
    nodes: DataLoader[str, ProvenanceNode | None]
    node_edges: DataLoader[str, list[ProvenanceEdge]]
    session_graphs: DataLoader[str, ProvenanceGraph]
    latest_reports: DataLoader[str, StoredReport | None]


def create_loaders(store: AsyncGraphStore, project: str) -> Loaders:
    """Fresh loaders for one request (their caches must never outlive it)."""
    return Loaders(
        nodes=nodes_loader(store, project),
        node_edges=node_edges_loader(store, project),
        session_graphs=session_graphs_loader(store, project),
        latest_reports=latest_reports_loader(store, project),
    )
