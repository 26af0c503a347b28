"""GraphQL ``Agent``: an agent (by name) as seen in one session."""

from __future__ import annotations

import strawberry


@strawberry.type(description="An agent that took part in a session.")
class Agent:
    name: str
    run_ids: list[str]
    node_count: int
    delegated_by: list[str] = strawberry.field(
        description="Agents whose nodes delegate to this agent's runs."
    )
