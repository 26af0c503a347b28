"""Edges into and out of a node (concurrent per-key calls; the port has no batch form)."""

from __future__ import annotations

import asyncio

from strawberry.dataloader import DataLoader

from provgraph.graph import ProvenanceEdge
from provgraph.store.port import AsyncGraphStore

Key = str
Result = list[ProvenanceEdge]


def node_edges_loader(store: AsyncGraphStore, project: str) -> DataLoader[Key, Result]:
    async def load(keys: list[Key]) -> list[Result]:
        return list(await asyncio.gather(*(store.node_edges(project, k) for k in keys)))

    return DataLoader(load_fn=load)
