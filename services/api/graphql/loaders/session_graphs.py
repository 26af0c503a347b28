"""A session's whole graph, fetched once per request and shared by runs, agents, nodes, edges."""

from __future__ import annotations

import asyncio

from strawberry.dataloader import DataLoader

from provgraph.graph import ProvenanceGraph
from provgraph.store.port import AsyncGraphStore

Key = str
Result = ProvenanceGraph


def session_graphs_loader(store: AsyncGraphStore, project: str) -> DataLoader[Key, Result]:
    async def load(keys: list[Key]) -> list[Result]:
        return list(await asyncio.gather(*(store.session_graph(project, k) for k in keys)))

    return DataLoader(load_fn=load)
