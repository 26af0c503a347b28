"""GraphQL ``StageRun``: whether a verification stage ran, and if not, why."""

from __future__ import annotations

from typing import Any

import strawberry

from services.api.graphql import report_view


@strawberry.type
class StageRun:
    name: str
    status: str = strawberry.field(description="ran, skipped or disabled.")
    reason: str | None
    model: str | None
    version: str | None

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> StageRun:
        return cls(
            name=report_view.text(raw, "name") or "",
            status=report_view.text(raw, "status") or "",
            reason=report_view.text(raw, "reason"),
            model=report_view.text(raw, "model"),
            version=report_view.text(raw, "version"),
        )
