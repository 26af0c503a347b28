"""Relay connection of sessions, newest first."""

import strawberry

from services.api.graphql.types.PageInfo import PageInfo
from services.api.graphql.types.SessionEdge import SessionEdge


@strawberry.type
class SessionConnection:
    edges: list[SessionEdge]
    page_info: PageInfo
