"""Edges into and out of nodes: one ``nodes_edges`` round trip per batch of keys.

A node list with ``parents``/``children`` asks for the edges of every node on
the page; one batched read answers them all, instead of one read per node.
"""

from __future__ import annotations

from strawberry.dataloader import DataLoader

from provgraph.graph import ProvenanceEdge
from provgraph.store.port import AsyncGraphStore

Key = str
Result = list[ProvenanceEdge]
MAX_BATCH = 1000
"""Keys per store call (one Cypher ``UNWIND``); bounded so one read stays small."""


def node_edges_loader(store: AsyncGraphStore, project: str) -> DataLoader[Key, Result]:
    async def load(keys: list[Key]) -> list[Result]:
        found = await store.nodes_edges(project, keys)
        return [found.get(key, []) for key in keys]

    return DataLoader(load_fn=load, max_batch_size=MAX_BATCH)
