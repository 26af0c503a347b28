"""The narrative fixture of the contract suite, and what the suite compares across adapters.

The story is ``tests/fixtures/multi_agent_session.jsonl``: a coordinator
delegating to two analysts, tool loops, data reads with keys ``d_N``, sub-agent
outputs with keys ``a_N``, a final output citing both, and nodes reported twice
(run started / completed). :func:`snapshot` reads everything a caller can see
about it; two stores that agree on the snapshot agree on the contract.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from provgraph.events import Event, parse_events
from provgraph.graph import NodeType
from provgraph.store.port import GraphStore
from provgraph.store.types import AttributionQuery, LineageDirection

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "multi_agent_session.jsonl"


def story_events() -> list[Event]:
    raws = [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]
    good, bad = parse_events(raws)
    assert bad == []
    return [event for _, event in good]


SESSION = story_events()[0].session_id


def retarget(events: list[Event], suffix: str) -> list[Event]:
    """The same story as another session: every id (event, node, session) suffixed."""

    def sx(value: str) -> str:
        return f"{value}{suffix}"

    moved: list[Event] = []
    for event in events:
        raw = event.model_dump(mode="json")
        raw["id"], raw["node_id"], raw["session_id"] = (
            sx(event.id),
            sx(event.node_id),
            sx(event.session_id),
        )
        raw["parent_ids"] = [sx(p) for p in event.parent_ids]
        raw["edges"] = [{**e, "source_id": sx(e["source_id"])} for e in raw["edges"]]
        moved.append(Event.model_validate(raw))
    return moved


def graph_view(store: GraphStore, project: str, session_id: str) -> dict[str, Any]:
    """The session graph with edges as a sorted list (edge order is not part of the contract)."""
    graph = store.session_graph(project, session_id)
    return {
        "nodes": graph.nodes,
        "edges": sorted((e.source_id, e.target_id, e.label) for e in graph.edges),
    }


def snapshot(store: GraphStore, project: str, session_id: str = SESSION) -> dict[str, Any]:
    """Everything observable about one session, in comparable form."""
    view = graph_view(store, project, session_id)
    members = sorted(i for i, n in view["nodes"].items() if n.session_id == session_id)
    outputs = [
        i
        for i in members
        if view["nodes"][i].type in (NodeType.FINAL_OUTPUT, NodeType.MODEL_RESPONSE)
    ]
    sources = [i for i in members if view["nodes"][i].type == NodeType.DATA_READ]
    return {
        "graph": view,
        "attribution": {o: store.attribution(project, AttributionQuery(o)) for o in outputs},
        "shallow": {
            o: store.attribution(project, AttributionQuery(o, max_depth=2, max_paths=3))
            for o in outputs
        },
        "up": {
            o: store.lineage(project, o, direction=LineageDirection.UP, depth=4) for o in outputs
        },
        "down": {
            s: store.lineage(project, s, direction=LineageDirection.DOWN, depth=6, limit=5)
            for s in sources
        },
        "citations": store.citation_summary(project, session_id),
        "sessions": store.list_sessions(project),
        "edges": {
            i: sorted((e.source_id, e.target_id, e.label) for e in store.node_edges(project, i))
            for i in members[:6]
        },
    }
