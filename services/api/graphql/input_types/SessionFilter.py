"""GraphQL input ``SessionFilter``."""

from datetime import datetime

import strawberry


@strawberry.input(description="Narrow a session listing.")
class SessionFilter:
    agent_name: str | None = None
    since: datetime | None = strawberry.field(
        default=None, description="Only sessions with an event at or after this time."
    )
