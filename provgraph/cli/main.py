"""``provgraph``: demo, ingest, export, verify — plus the service sub-commands.

Every command prints one clear line (exit code 2) for bad arguments, bad files
or an unreachable store, never a traceback.
"""

from __future__ import annotations

import importlib
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from provgraph import __version__
from provgraph.cli.common import console, fail, one_line_errors, settings_and_store
from provgraph.cli.ingest import ingest_file

app = typer.Typer(
    name="provgraph",
    help="Provenance graphs and citation verification for LLM agents.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

# Service sub-commands live next to the services they start; mounted when importable so
# that a library-only install (no server extras) still has a working CLI.
_SUB_APPS = {
    "provgraph.cli.ops": None,
    "provgraph.cli.keys": "keys",
    "provgraph.cli.serve": None,
    "provgraph.cli.worker": None,
    "provgraph.cli.audit": "audit",
    "provgraph.cli.review": "review",
    "provgraph.cli.erase": "erase",
    "provgraph.cli.retention": "retention",
    "provgraph.cli.lineage": "lineage",
    "provgraph.cli.evals": "evals",
}


class ExportFormat(StrEnum):
    json = "json"
    mermaid = "mermaid"
    dot = "dot"
    html = "html"
    prov = "prov"
    openlineage = "openlineage"


def _version(value: bool) -> None:
    if value:
        console.print(f"provgraph {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """provgraph: provenance graphs and citation verification for LLM agents."""


@app.command()
@one_line_errors
def demo(
    out: Annotated[
        Path, typer.Option(help="Folder for the event log, report and HTML graph.")
    ] = Path("provgraph-demo"),
    fast: Annotated[
        bool, typer.Option("--fast", help="Lexical stages only (no embedding or NLI model).")
    ] = False,
) -> None:
    """Ingest a shipped multi-agent session, verify its citations, write the HTML graph."""
    from provgraph.cli.demo import run_demo

    run_demo(out, fast=fast)


@app.command()
@one_line_errors
def ingest(
    file: Annotated[Path, typer.Argument(help="JSON Lines file of native v1 events.")],
    project: Annotated[
        str | None, typer.Option(help="Project (default: PROVGRAPH_PROJECT).")
    ] = None,
) -> None:
    """Ingest events; every bad line is reported with its number (exit 1 if any failed)."""
    if not file.is_file():
        raise fail(f"{file}: no such file")
    settings, store = settings_and_store()
    try:
        report = ingest_file(store, project or settings.project, file)
    finally:
        store.close()
    for line, reason in report.errors or []:
        console.print(f"[red]line {line}:[/] {reason}", highlight=False)
    console.print(
        f"{report.accepted} accepted, {report.duplicates} duplicate, {report.failed} failed",
        highlight=False,
    )
    if report.failed:
        raise typer.Exit(1)


@app.command()
@one_line_errors
def export(
    session: Annotated[str, typer.Argument(help="Session id.")],
    format: Annotated[ExportFormat, typer.Option("--format", "-f")] = ExportFormat.json,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="File (default: stdout).")] = None,
    project: Annotated[
        str | None, typer.Option(help="Project (default: PROVGRAPH_PROJECT).")
    ] = None,
) -> None:
    """Export one session as JSON, Mermaid, DOT, HTML, PROV-JSON or OpenLineage JSON Lines."""
    from provgraph.exports.render import render_graph

    settings, store = settings_and_store()
    try:
        if format is ExportFormat.openlineage:
            from provgraph.cli.lineage import openlineage_lines

            text = openlineage_lines(store, project or settings.project, session)
        else:
            graph = store.session_graph(project or settings.project, session)
            if not graph.nodes:
                raise fail(
                    f"session '{session}' has no nodes in project '{project or settings.project}'"
                )
            text = render_graph(graph, format.value, title=f"Session {session}")
    finally:
        store.close()
    if out is None:
        typer.echo(text)
    else:
        out.write_text(text, encoding="utf-8")
        console.print(f"wrote {out}")


@app.command()
@one_line_errors
def verify(
    output_id: Annotated[
        str, typer.Argument(help="Node id of a final output (or model response).")
    ],
    project: Annotated[
        str | None, typer.Option(help="Project (default: PROVGRAPH_PROJECT).")
    ] = None,
    fast: Annotated[bool, typer.Option("--fast", help="Lexical stages only.")] = False,
    save: Annotated[bool, typer.Option(help="Store the report in the graph.")] = True,
) -> None:
    """Verify an output's citations now, in-process, print the report and store it."""
    from provgraph.cli.report_view import print_report
    from provgraph.cli.verifying import verify_and_store

    settings, store = settings_and_store()
    try:
        report = verify_and_store(
            store, project or settings.project, output_id, fast=fast, settings=settings, save=save
        )
    finally:
        store.close()
    print_report(report)


def _mount_sub_apps() -> None:
    for module_name, group in _SUB_APPS.items():
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        sub = getattr(module, "app", None)
        if sub is None:
            continue
        if group:
            app.add_typer(sub, name=group)
        else:
            for command in sub.registered_commands:
                app.registered_commands.append(command)
            for group_info in sub.registered_groups:
                app.registered_groups.append(group_info)


def main() -> None:
    """Console-script entry point."""
    _mount_sub_apps()
    app()


if __name__ == "__main__":
    main()
