"""``provgraph serve``: run the API service on the embedded store (or Neo4j if configured).

The CLI never imports the service: uvicorn is given the app factory as an
import string (``services.api.app:create_app``) and imports it itself. uvicorn
is imported only when the command runs, so the rest of the CLI works without
the server extras installed.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from provgraph.config import load_settings

app = typer.Typer(help="Run the API service.")

API_FACTORY = "services.api.app:create_app"
"""The API's app factory, by import string (uvicorn ``--factory``)."""


@app.command("serve")
def serve(
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    no_auth: Annotated[
        bool, typer.Option("--no-auth", help="Development only: no API keys, project 'default'.")
    ] = False,
) -> None:
    """Serve REST (/v1/events, /healthz, /readyz, /metrics) and GraphQL (/graphql)."""
    try:
        import uvicorn
    except ImportError as exc:
        typer.echo(
            f"error: the API needs the server extras: pip install 'provgraph[server]' ({exc})",
            err=True,
        )
        raise typer.Exit(2) from exc
    if no_auth:
        typer.secho(
            "WARNING: authentication is OFF (--no-auth): every request is an admin of project "
            "'default'. Development only; never expose this server on a network.",
            fg=typer.colors.RED,
            bold=True,
            err=True,
        )
        os.environ["PROVGRAPH_AUTH"] = "false"
    load_settings()  # fail fast, naming the variable, before uvicorn starts
    uvicorn.run(
        API_FACTORY,
        factory=True,
        host=host,
        port=port,
        access_log=False,  # the app writes its own JSON access log with request ids
        log_level="info",
    )
