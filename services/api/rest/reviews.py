"""``POST /v1/reviews`` and ``GET /v1/reviews``: human reviews of citation verdicts.

Parse, call the use case (:mod:`provgraph.usecases.reviews`), render. The
reviewer recorded is the API key's name (else its id), never the secret.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from provgraph.store.audit_types import Review
from provgraph.usecases.reviews import MAX_NOTE_CHARS, ReviewRequest, review_citation_async
from provgraph.usecases.roles import Permission, Principal
from services.api.auth.dependency import require
from services.api.state import AppState

router = APIRouter(tags=["reviews"])


class ReviewBody(BaseModel):
    """One review: confirm the machine verdict, or override it with another; a note is required."""

    model_config = ConfigDict(extra="forbid")

    output_id: str = Field(min_length=1, max_length=256)
    tag_index: int = Field(ge=0, le=100_000)
    key: str | None = Field(
        default=None, max_length=64, description="Needed when a tag cites several."
    )
    action: str = Field(pattern="^(confirm|override)$")
    verdict: str | None = Field(default=None, max_length=32)
    note: str = Field(min_length=1, max_length=MAX_NOTE_CHARS)
    version: int | None = Field(default=None, ge=1, description="Report version (default newest).")


def reviewer_of(principal: Principal) -> str:
    return principal.key_name or principal.key_id or "local-dev"


def review_json(review: Review) -> dict[str, Any]:
    return review.to_dict()


@router.post(
    "/v1/reviews",
    status_code=201,
    summary="Confirm or override one citation check's verdict",
    responses={
        401: {"description": "Missing or unknown API key."},
        403: {"description": "The key's role cannot review."},
        404: {"description": "No such report or check."},
        422: {"description": "Missing note, unknown verdict, confirm with another verdict."},
    },
)
async def post_review(
    request: Request,
    body: ReviewBody,
    principal: Principal = Depends(require(Permission.REVIEW)),  # noqa: B008
) -> dict[str, Any]:
    state: AppState = request.app.state.provgraph
    store = await state.store()
    wanted = ReviewRequest(reviewer=reviewer_of(principal), **body.model_dump())
    return review_json(await review_citation_async(store, principal.project, wanted))


@router.get("/v1/reviews", summary="Reviews of one output, oldest first")
async def list_reviews(
    request: Request,
    output_id: str = Query(min_length=1, max_length=256),
    principal: Principal = Depends(require(Permission.READ)),  # noqa: B008
) -> dict[str, Any]:
    state: AppState = request.app.state.provgraph
    store = await state.store()
    reviews = await store.list_reviews(principal.project, output_id)
    return {"reviews": [review_json(r) for r in reviews]}
