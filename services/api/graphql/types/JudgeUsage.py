"""GraphQL ``JudgeUsage``: what the LLM judge cost one report (calls, tokens, estimate)."""

from __future__ import annotations

from typing import Any

import strawberry

from services.api.graphql import report_view


def _count(raw: dict[str, Any], name: str) -> int:
    value = report_view.number(raw, name)
    return int(value) if value is not None else 0


@strawberry.type(description="The LLM judge's calls and tokens for one report.")
class JudgeUsage:
    max_calls: int = strawberry.field(description="The per-report cap on calls.")
    calls: int
    failed_calls: int
    capped_pairs: int = strawberry.field(description="Pairs not judged: the cap was reached.")
    requests: int
    input_tokens: int
    output_tokens: int
    estimated_cost: float | None = strawberry.field(
        description="Tokens times the configured prices; null when no price is set."
    )

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> JudgeUsage:
        return cls(
            max_calls=_count(raw, "max_calls"),
            calls=_count(raw, "calls"),
            failed_calls=_count(raw, "failed_calls"),
            capped_pairs=_count(raw, "capped_pairs"),
            requests=_count(raw, "requests"),
            input_tokens=_count(raw, "input_tokens"),
            output_tokens=_count(raw, "output_tokens"),
            estimated_cost=report_view.number(raw, "estimated_cost"),
        )
