"""Batched edge reads (the GraphQL edge loader's one round trip) equal per-node reads."""

from __future__ import annotations

from provgraph.events import Event
from provgraph.store.port import AsyncGraphStore
from tests.api.conftest import session_events


async def test_nodes_edges_equals_node_edges_per_node(
    api_store: AsyncGraphStore, project_suffix: str
) -> None:
    project = f"edges-{project_suffix}"
    events = [Event.model_validate(raw) for raw in session_events()]
    await api_store.ingest(project, events)
    first = events[0].node_id
    ids = [*sorted({e.node_id for e in events})[:40], "no-such-node", first]
    batched = await api_store.nodes_edges(project, ids)
    assert set(batched) == set(ids)
    for node_id in ids:
        assert batched[node_id] == await api_store.node_edges(project, node_id)
    assert batched["no-such-node"] == [] and batched[first]
