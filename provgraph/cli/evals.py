"""``provgraph evals push-phoenix``: a session's spans and citation verdicts into Arize Phoenix."""

from __future__ import annotations

from typing import Annotated

import typer

from provgraph.cli.common import console, one_line_errors, settings_and_store

app = typer.Typer(help="Evaluations out: verdicts into evaluation tools.", no_args_is_help=True)


@app.command("push-phoenix")
@one_line_errors
def push_phoenix(
    session: Annotated[str, typer.Argument(help="Session id.")],
    endpoint: Annotated[
        str,
        typer.Option(
            envvar="PHOENIX_COLLECTOR_ENDPOINT", help="Phoenix base URL (http://127.0.0.1:6006)."
        ),
    ],
    phoenix_project: Annotated[
        str, typer.Option("--phoenix-project", help="Phoenix project for the spans.")
    ] = "provgraph",
    api_key: Annotated[
        str | None, typer.Option(envvar="PHOENIX_API_KEY", help="Phoenix API key, if auth is on.")
    ] = None,
    project: Annotated[
        str | None, typer.Option(help="provgraph project (default: PROVGRAPH_PROJECT).")
    ] = None,
) -> None:
    """Send the session's spans over OTLP, then each citation verdict as a span annotation."""
    from provgraph.evals_out.phoenix import push_to_phoenix

    settings, store = settings_and_store()
    try:
        result = push_to_phoenix(
            store,
            project or settings.project,
            session,
            endpoint,
            phoenix_project=phoenix_project,
            api_key=api_key,
        )
    finally:
        store.close()
    console.print(
        f"sent {result.spans} spans and {result.annotations} annotations to Phoenix project "
        f"'{result.project}' at {endpoint}",
        highlight=False,
    )
