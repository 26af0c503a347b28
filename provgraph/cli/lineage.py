"""``provgraph lineage push``: a session's agent runs to an OpenLineage backend (Marquez …)."""

from __future__ import annotations

from typing import Annotated

import typer

from provgraph.cli.common import console, one_line_errors, settings_and_store
from provgraph.store.port import GraphStore

app = typer.Typer(help="OpenLineage: sessions as lineage run events.", no_args_is_help=True)


def openlineage_lines(store: GraphStore, project: str, session: str) -> str:
    """The session's run events as JSON Lines (``provgraph export -f openlineage``)."""
    from provgraph.lineage_out.openlineage import events_to_json_lines
    from provgraph.lineage_out.push import stored_session_events

    return events_to_json_lines(stored_session_events(store, project, session)).rstrip("\n")


@app.command()
@one_line_errors
def push(
    session: Annotated[str, typer.Argument(help="Session id.")],
    url: Annotated[
        str,
        typer.Option(
            "--url",
            envvar="OPENLINEAGE_URL",
            help="http(s)://HOST (the backend's base URL), file://PATH or console.",
        ),
    ],
    endpoint: Annotated[
        str, typer.Option(help="Path under the URL for HTTP targets.")
    ] = "api/v1/lineage",
    api_key: Annotated[
        str | None,
        typer.Option(envvar="OPENLINEAGE_API_KEY", help="Sent as 'Authorization: Bearer'."),
    ] = None,
    timeout: Annotated[float, typer.Option(help="Seconds per HTTP request.")] = 5.0,
    project: Annotated[
        str | None, typer.Option(help="Project (default: PROVGRAPH_PROJECT).")
    ] = None,
) -> None:
    """Send the session's START/COMPLETE/FAIL run events through the OpenLineage client."""
    from provgraph.lineage_out.push import push_session

    settings, store = settings_and_store()
    try:
        result = push_session(
            store,
            project or settings.project,
            session,
            url,
            api_key=api_key,
            endpoint=endpoint,
            timeout=timeout,
        )
    finally:
        store.close()
    console.print(
        f"sent {result.events} events for {result.runs} runs to {result.target}", highlight=False
    )
