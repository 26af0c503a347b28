"""GraphQL ``VerificationReport``: a stored report, typed where stable, whole as ``document``.

``citationsChecked == 0`` means nothing was checked, not "all supported".
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

import strawberry
from strawberry.scalars import JSON

from provgraph.store.types import StoredReport
from provgraph.usecases.reviews import reviewed_checks, verdict_counts
from services.api.graphql import report_view, typed
from services.api.graphql.context import GraphQLContext
from services.api.graphql.types.CitationCheck import CitationCheck
from services.api.graphql.types.ModelRef import ModelRef
from services.api.graphql.types.Node import Node
from services.api.graphql.types.ReviewedCitation import ReviewedCitation
from services.api.graphql.types.ReviewState import ReviewState
from services.api.graphql.types.StageRun import StageRun
from services.api.graphql.types.VerdictCount import VerdictCount


@strawberry.type(description="A versioned verification report of one output.")
class VerificationReport:
    id: strawberry.ID
    output_id: strawberry.ID
    session_id: str | None
    version: int
    config_hash: str
    created_at: datetime
    schema_version: str | None
    engine_version: str | None
    text_with_verified_citations: str | None
    unresolvable_keys: list[str]
    stages: list[StageRun]
    models: list[ModelRef] = strawberry.field(
        description="The models and fusion coefficients that produced this report."
    )
    citations_checked: int
    support_rate: float | None
    verdicts: list[str]
    verdict_counts: list[VerdictCount]
    citations: list[CitationCheck]
    document: JSON = strawberry.field(description="The full report document (evidence included).")

    @classmethod
    def from_domain(cls, stored: StoredReport) -> VerificationReport:
        doc = stored.report
        counts = report_view.verdict_counts(doc)
        rate = stored.support_rate
        return cls(
            id=strawberry.ID(f"{stored.output_id}@{stored.version}"),
            output_id=strawberry.ID(stored.output_id),
            session_id=stored.session_id,
            version=stored.version,
            config_hash=stored.config_hash,
            created_at=stored.created_at,
            schema_version=report_view.text(doc, "schema_version"),
            engine_version=report_view.text(doc, "engine_version"),
            text_with_verified_citations=report_view.text(doc, "text_with_verified_citations"),
            unresolvable_keys=[k for k in doc.get("unresolvable_keys") or [] if isinstance(k, str)],
            stages=[StageRun.from_dict(s) for s in doc.get("stages") or [] if isinstance(s, dict)],
            models=[ModelRef.from_dict(m) for m in doc.get("models") or [] if isinstance(m, dict)],
            citations_checked=report_view.citations_checked(doc),
            support_rate=rate if rate is not None else report_view.number(doc, "support_rate"),
            verdicts=list(stored.verdicts),
            verdict_counts=[VerdictCount(verdict=v, count=c) for v, c in sorted(counts.items())],
            citations=[CitationCheck.from_dict(i) for i in report_view.citation_items(doc)],
            document=cast(JSON, doc),
        )

    def _stored(self) -> StoredReport:
        doc = cast(dict[str, Any], self.document)
        return StoredReport(
            str(self.output_id),
            self.session_id,
            self.config_hash,
            doc,
            self.created_at,
            self.version,
        )

    @typed.field(description="Each check's machine and effective verdict, with its review.")
    async def reviewed_citations(
        self, info: strawberry.Info[GraphQLContext, None], state: ReviewState = ReviewState.ALL
    ) -> list[ReviewedCitation]:
        ctx = info.context
        reviews = await ctx.store.list_reviews(ctx.project, str(self.output_id))
        checks = reviewed_checks(self._stored(), reviews)
        if state == ReviewState.REVIEWED:
            checks = [c for c in checks if c.review is not None]
        elif state == ReviewState.OVERRIDDEN:
            checks = [c for c in checks if c.overridden]
        return [ReviewedCitation.from_domain(c) for c in checks]

    @typed.field(description="Citations per verdict after reviews (verdictCounts: the machine's).")
    async def effective_verdict_counts(
        self, info: strawberry.Info[GraphQLContext, None]
    ) -> list[VerdictCount]:
        ctx = info.context
        reviews = await ctx.store.list_reviews(ctx.project, str(self.output_id))
        counts = verdict_counts(reviewed_checks(self._stored(), reviews))["effective"]
        return [VerdictCount(verdict=v, count=c) for v, c in sorted(counts.items())]

    @typed.field()
    async def output(self, info: strawberry.Info[GraphQLContext, None]) -> Node | None:
        node = await info.context.loaders.nodes.load(str(self.output_id))
        return Node.from_domain(node) if node else None
