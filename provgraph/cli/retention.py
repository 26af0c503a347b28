"""``provgraph retention apply``: erase sessions older than the policy allows."""

from __future__ import annotations

from typing import Annotated

import typer

from provgraph.cli.common import console, fail, one_line_errors, settings_and_store

app = typer.Typer(
    help="Retention policy (PROVGRAPH_RETENTION=project=days,…; '*' = every project)."
)


@app.command("apply")
@one_line_errors
def apply(
    dry_run: Annotated[bool, typer.Option("--dry-run", help="List, erase nothing.")] = False,
    yes: Annotated[bool, typer.Option("--yes", help="Erase the expired sessions.")] = False,
    days: Annotated[
        int | None, typer.Option(min=1, help="Override: this many days for --project.")
    ] = None,
    project: Annotated[str | None, typer.Option(help="Only this project.")] = None,
) -> None:
    """Erase (``--yes``) or list (``--dry-run``) the sessions past their retention."""
    from provgraph.usecases.retention import apply_policy, parse_policy

    if dry_run == yes:
        raise fail("say --dry-run (list) or --yes (erase)")
    settings, store = settings_and_store()
    try:
        policy = parse_policy(settings.retention)
        if project is not None:
            chosen = days or policy.get(project) or policy.get("*")
            if chosen is None:
                raise fail(
                    f"no retention for project '{project}': set PROVGRAPH_RETENTION or --days"
                )
            policy = {project: chosen}
        elif days is not None:
            raise fail("--days needs --project")
        if not policy:
            raise fail("no retention policy: set PROVGRAPH_RETENTION (e.g. '*=90')")
        results = apply_policy(store, policy, dry_run=dry_run)
    finally:
        store.close()
    for r in results:
        verb = "would erase" if dry_run else "erased"
        console.print(
            f"{r.project}: {verb} {len(r.sessions)} sessions older than {r.days} days "
            f"(before {r.cutoff:%Y-%m-%d %H:%M} UTC)",
            highlight=False,
        )
        for sid in r.sessions:
            console.print(f"  {sid}", highlight=False, markup=False)
