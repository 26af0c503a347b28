"""Relay connection of verification reports, newest first."""

import strawberry

from services.api.graphql.types.PageInfo import PageInfo
from services.api.graphql.types.VerificationReportEdge import VerificationReportEdge


@strawberry.type
class VerificationReportConnection:
    edges: list[VerificationReportEdge]
    page_info: PageInfo
