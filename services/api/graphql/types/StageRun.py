"""GraphQL ``StageRun``: whether a verification stage ran, and if not, why."""

from __future__ import annotations

from typing import Any

import strawberry

from services.api.graphql import report_view
from services.api.graphql.types.JudgeUsage import JudgeUsage


@strawberry.type
class StageRun:
    name: str
    status: str = strawberry.field(description="ran, skipped or disabled.")
    reason: str | None
    model: str | None
    version: str | None
    seconds: float = strawberry.field(description="Wall time of the stage in this report.")
    usage: JudgeUsage | None = strawberry.field(
        description="The LLM judge's calls and tokens (null for the other stages)."
    )

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> StageRun:
        usage = raw.get("usage")
        return cls(
            name=report_view.text(raw, "name") or "",
            status=report_view.text(raw, "status") or "",
            reason=report_view.text(raw, "reason"),
            model=report_view.text(raw, "model"),
            version=report_view.text(raw, "version"),
            seconds=report_view.number(raw, "seconds") or 0.0,
            usage=JudgeUsage.from_dict(usage) if isinstance(usage, dict) else None,
        )
