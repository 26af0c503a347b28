"""GraphQL ``ModelRef``: a model (or the fusion's coefficients) that produced a report."""

from __future__ import annotations

from typing import Any

import strawberry

from services.api.graphql import report_view


@strawberry.type(
    description="A model or fusion file behind a report, named by the sha256 of its files "
    "(a retrained model under the same name is told apart)."
)
class ModelRef:
    stage: str = strawberry.field(description="nli, nli-refine, embeddings or fusion.")
    name: str
    version: str | None
    sha256: str | None

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> ModelRef:
        return cls(
            stage=report_view.text(raw, "stage") or "",
            name=report_view.text(raw, "name") or "",
            version=report_view.text(raw, "version"),
            sha256=report_view.text(raw, "sha256"),
        )
