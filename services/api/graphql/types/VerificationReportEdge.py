"""Relay edge of ``VerificationReportConnection``."""

import strawberry

from services.api.graphql.types.VerificationReport import VerificationReport


@strawberry.type
class VerificationReportEdge:
    cursor: str
    node: VerificationReport
