"""``provgraph review``: confirm or override a citation's verdict, list an output's reviews."""

from __future__ import annotations

from typing import Annotated

import typer

from provgraph.cli.common import console, one_line_errors, settings_and_store

app = typer.Typer(help="Human review of citation verdicts (recorded in the audit chain).")

ProjectOption = Annotated[str | None, typer.Option(help="Project (default: PROVGRAPH_PROJECT).")]


@app.command("add")
@one_line_errors
def add(
    output_id: Annotated[str, typer.Argument(help="The verified output's node id.")],
    tag_index: Annotated[int, typer.Option("--tag", help="The check's tag index.")],
    action: Annotated[str, typer.Option(help="confirm or override.")],
    note: Annotated[str, typer.Option(help="Why (required).")],
    reviewer: Annotated[str, typer.Option(help="Who is reviewing (recorded as is).")],
    verdict: Annotated[str | None, typer.Option(help="The verdict an override sets.")] = None,
    key: Annotated[str | None, typer.Option(help="The key, when the tag cites several.")] = None,
    version: Annotated[int | None, typer.Option(help="Report version (default newest).")] = None,
    project: ProjectOption = None,
) -> None:
    """Record a review of one citation check (never edits an earlier one: supersedes it)."""
    from provgraph.usecases.reviews import ReviewRequest, review_citation

    request = ReviewRequest(
        output_id=output_id,
        tag_index=tag_index,
        action=action,
        note=note,
        reviewer=reviewer,
        key=key,
        verdict=verdict,
        version=version,
    )
    settings, store = settings_and_store()
    try:
        review = review_citation(store, project or settings.project, request)
    finally:
        store.close()
    console.print(
        f"review {review.id}: tag {review.tag_index} ({review.key}) on v{review.report_version}: "
        f"{review.machine_verdict} -> {review.verdict} ({review.action.value})",
        highlight=False,
        markup=False,
    )


@app.command("list")
@one_line_errors
def list_reviews(
    output_id: Annotated[str, typer.Argument(help="The output's node id.")],
    project: ProjectOption = None,
) -> None:
    """Every review of an output, oldest first."""
    settings, store = settings_and_store()
    try:
        reviews = store.list_reviews(project or settings.project, output_id)
    finally:
        store.close()
    for r in reviews:
        console.print(
            f"{r.created_at}  v{r.report_version} tag {r.tag_index} ({r.key})  "
            f"{r.machine_verdict} -> {r.verdict}  by {r.reviewer}: {r.note}",
            highlight=False,
            markup=False,
        )
    if not reviews:
        console.print("no reviews")
