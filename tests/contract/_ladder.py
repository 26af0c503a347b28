"""A ladder of diamonds: the session shape on which path enumeration explodes.

``in → (a0, b0) → j0 → (a1, b1) → j1 … → out``: ``diamonds`` joins give
``2**diamonds`` paths ``2 * diamonds + 1`` hops long. ``side_source`` adds a
data read feeding the last join directly, so one source is near the output
(its path is found) while the input is far (its paths may be cut by bounds).
"""

from __future__ import annotations

from provgraph.events import Event

TIMESTAMP = "2026-01-01T00:00:00Z"


def ladder_events(diamonds: int, *, side_source: bool = False, session: str = "s") -> list[Event]:
    events: list[Event] = []

    def add(node_id: str, node_type: str, parents: list[str]) -> None:
        raw = {
            "id": f"e-{node_id}",
            "type": node_type,
            "timestamp": TIMESTAMP,
            "session_id": session,
            "node_id": node_id,
            "parent_ids": parents,
        }
        events.append(Event.model_validate(raw))

    add("in", "input", [])
    previous = "in"
    for step in range(diamonds):
        add(f"a{step}", "model_request", [previous])
        add(f"b{step}", "model_request", [previous])
        parents = [f"a{step}", f"b{step}"]
        if side_source and step == diamonds - 1:
            add("side", "data_read", [])
            parents.append("side")
        add(f"j{step}", "model_response", parents)
        previous = f"j{step}"
    add("out", "final_output", [previous])
    return events
