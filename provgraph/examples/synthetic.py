"""A synthetic multi-agent session of any size (console tests and the console benchmark).

A coordinator delegates to ``agents - 1`` sub-agents; each sub-agent runs a
loop of model request → response → tool call → tool result with a data read
every fourth step, and ends with a final output; the coordinator ends with
one final output citing them. Timestamps are one second apart so the
timeline spreads out. Events are plain dicts in the native v1 format.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

_LOOP = ("model_request", "model_response", "tool_call", "tool_result")


def synthetic_session(session_id: str, nodes: int, agents: int = 10) -> list[dict[str, Any]]:
    """About ``nodes`` events (at least 4 per sub-agent) for one session."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    events: list[dict[str, Any]] = []

    def add(node_id: str, kind: str, agent: str, parents: list[str], **extra: Any) -> None:
        n = len(events)
        events.append(
            {
                "id": f"{session_id}:{n}",
                "type": kind,
                "timestamp": (start + timedelta(seconds=n)).isoformat().replace("+00:00", "Z"),
                "session_id": session_id,
                "run_id": f"{session_id}:{agent}",
                "agent_name": agent,
                "node_id": node_id,
                "parent_ids": parents,
                **extra,
            }
        )

    coord = "coordinator"
    add(f"{session_id}:run", "agent_run", coord, [])
    per_agent = max(4, (nodes - 3) // max(1, agents - 1))
    outputs: list[str] = []
    for a in range(1, agents):
        agent = f"agent_{a:02d}"
        call = f"{session_id}:{agent}:call"
        add(call, "tool_call", coord, [f"{session_id}:run"], label=f"Tool: ask_{agent}")
        previous = f"{session_id}:{agent}:run"
        add(previous, "agent_run", agent, [call])  # the parent tool call delegates
        for step in range(per_agent - 2):
            node_id = f"{session_id}:{agent}:{step}"
            if step % 4 == 3:
                add(
                    node_id,
                    "data_read",
                    agent,
                    [previous],
                    content=f"Source text {agent} {step}: figure {step * 7}.",
                    citation_key=f"d_{a * 10_000 + step}",
                )
            else:
                add(node_id, _LOOP[step % 4], agent, [previous])
            previous = node_id
        out = f"{session_id}:{agent}:output"
        add(
            out,
            "final_output",
            agent,
            [previous],
            content=f"{agent} found figure {a * 7}.",
            citation_key=f"a_{a}",
        )
        outputs.append(out)
    add(f"{session_id}:final", "final_output", coord, outputs, content="Summary of all agents.")
    return events
