"""Nodes by id: one ``get_nodes`` round trip per batch."""

from __future__ import annotations

from strawberry.dataloader import DataLoader

from provgraph.graph import ProvenanceNode
from provgraph.store.port import AsyncGraphStore

Key = str
Result = ProvenanceNode | None


def nodes_loader(store: AsyncGraphStore, project: str) -> DataLoader[Key, Result]:
    async def load(keys: list[Key]) -> list[Result]:
        found = await store.get_nodes(project, keys)
        return [found.get(key) for key in keys]

    return DataLoader(load_fn=load)
