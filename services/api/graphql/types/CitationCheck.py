"""GraphQL ``CitationCheck``: one claim scored against one cited source, with its verdict."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON

from services.api.graphql import report_view
from services.api.graphql.types.Evidence import Evidence


@strawberry.type
class CitationCheck:
    keys: list[str]
    claim: str | None
    verdict: str | None
    confidence: float | None
    evidence: list[Evidence]
    scores: JSON | None = strawberry.field(description="Every stage's raw scores, as stored.")
    raw: JSON = strawberry.field(description="The whole per-citation entry of the report.")

    @classmethod
    def from_dict(cls, item: dict[str, Any]) -> CitationCheck:
        scores = item.get("scores") if isinstance(item.get("scores"), dict) else None
        return cls(
            keys=report_view.item_keys(item), claim=report_view.item_claim(item),
            verdict=report_view.item_verdict(item), confidence=report_view.item_confidence(item),
            evidence=[Evidence.from_dict(e) for e in report_view.item_evidence(item)],
            scores=scores, raw=item,
        )
