"""GraphQL ``Evidence``: the span of a source that supports (or contradicts) a claim."""

from __future__ import annotations

from typing import Any

import strawberry

from services.api.graphql import report_view


@strawberry.type
class Evidence:
    source_key: str | None
    start: int | None = strawberry.field(description="Character offset in the source text.")
    end: int | None
    text: str | None

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Evidence:
        start, end = raw.get("start"), raw.get("end")
        return cls(
            source_key=report_view.text(raw, "source_key") or report_view.text(raw, "key"),
            start=start if isinstance(start, int) and not isinstance(start, bool) else None,
            end=end if isinstance(end, int) and not isinstance(end, bool) else None,
            text=report_view.text(raw, "text"),
        )
