"""GraphQL ``CitationCheck``: one claim scored against one cited source, with its verdict."""

from __future__ import annotations

from typing import Any, cast

import strawberry
from strawberry.scalars import JSON

from services.api.graphql import report_view
from services.api.graphql.types.Evidence import Evidence


@strawberry.type
class CitationCheck:
    tag_index: int | None
    keys: list[str]
    source_node_id: str | None = strawberry.field(description="The node the key resolved to.")
    claim: str | None
    verdict: str | None
    confidence: float | None
    support_score: float | None
    contradiction_score: float | None
    kept_in_text: bool | None
    evidence: list[Evidence]
    scores: JSON | None = strawberry.field(description="Every stage's raw scores, as stored.")
    raw: JSON = strawberry.field(description="The whole per-citation entry of the report.")

    @classmethod
    def from_dict(cls, item: dict[str, Any]) -> CitationCheck:
        scores = item.get("scores") if isinstance(item.get("scores"), dict) else None
        raw_source = item.get("source")
        source: dict[str, Any] = raw_source if isinstance(raw_source, dict) else {}
        kept = item.get("kept_in_text")
        tag = item.get("tag_index")
        return cls(
            tag_index=tag if isinstance(tag, int) and not isinstance(tag, bool) else None,
            source_node_id=report_view.text(source, "node_id"),
            support_score=report_view.number(item, "support_score"),
            contradiction_score=report_view.number(item, "contradiction_score"),
            kept_in_text=kept if isinstance(kept, bool) else None,
            keys=report_view.item_keys(item),
            claim=report_view.item_claim(item),
            verdict=report_view.item_verdict(item),
            confidence=report_view.item_confidence(item),
            evidence=[Evidence.from_dict(e) for e in report_view.item_evidence(item)],
            scores=scores,
            raw=cast(JSON, item),
        )
