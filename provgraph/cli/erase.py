"""``provgraph erase``: remove one session, or every node naming a data subject.

Without ``--yes`` nothing is removed: the plan (counts) is printed.
"""

from __future__ import annotations

from typing import Annotated

import typer

from provgraph.cli.common import console, fail, one_line_errors, settings_and_store
from provgraph.store.port import GraphStore
from provgraph.usecases.erasure import ErasurePlan

app = typer.Typer(help="Erasure (data-subject requests): content gone, a tombstone in the chain.")

ProjectOption = Annotated[str | None, typer.Option(help="Project (default: PROVGRAPH_PROJECT).")]
YesOption = Annotated[bool, typer.Option("--yes", help="Really erase (else: print the plan).")]


def _run(store: GraphStore, project: str, plan: ErasurePlan, yes: bool) -> None:
    from provgraph.usecases.erasure import apply_erasure

    summary = ", ".join(f"{v} {k}" for k, v in plan.summary().items())
    if not plan.erasure.node_ids:
        console.print("nothing matches: nothing to erase")
        return
    if not yes:
        console.print(f"would erase ({plan.scope}): {summary}; run again with --yes")
        return
    result = apply_erasure(store, project, plan)
    console.print(
        f"erased {result.nodes} nodes, {result.reports} reports, {result.jobs} jobs, "
        f"{result.reviews} reviews; tombstone entry {result.entry.seq}",
        highlight=False,
    )


@app.command("session")
@one_line_errors
def erase_session(
    session: Annotated[str, typer.Argument(help="Session id.")],
    yes: YesOption = False,
    project: ProjectOption = None,
) -> None:
    """Erase one session's nodes, events, dependent reports, jobs and reviews."""
    from provgraph.usecases.erasure import plan_session_erasure

    settings, store = settings_and_store()
    try:
        name = project or settings.project
        _run(store, name, plan_session_erasure(store, name, session), yes)
    finally:
        store.close()


@app.command("subject")
@one_line_errors
def erase_subject(
    subject: Annotated[str, typer.Argument(help="The subject id, matched as exact text.")],
    yes: YesOption = False,
    project: ProjectOption = None,
) -> None:
    """Erase every node whose content, label or data contains the subject id."""
    from provgraph.usecases.erasure import plan_subject_erasure

    if not subject.strip():
        raise fail("subject: empty")
    settings, store = settings_and_store()
    try:
        name = project or settings.project
        _run(store, name, plan_subject_erasure(store, name, subject), yes)
    finally:
        store.close()
