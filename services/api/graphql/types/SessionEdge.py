"""Relay edge of ``SessionConnection``."""

import strawberry

from services.api.graphql.types.Session import Session


@strawberry.type
class SessionEdge:
    cursor: str
    node: Session
