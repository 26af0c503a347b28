"""GraphQL ``NodeError``: why a step failed (exception type and bounded message)."""

from __future__ import annotations

import strawberry

from provgraph.graph import NodeError as DomainNodeError


@strawberry.type(description="Why a step failed: exception type and message (no stack trace).")
class NodeError:
    type: str = strawberry.field(description="Exception type, e.g. ValueError.")
    message: str = strawberry.field(description="The exception message, bounded.")

    @classmethod
    def from_domain(cls, error: DomainNodeError | None) -> NodeError | None:
        return None if error is None else cls(type=error.type, message=error.message)
