"""``provgraph serve``: run the API service on the embedded store (or Neo4j if configured).

uvicorn and FastAPI are imported only inside :mod:`services.api.server`, so the
rest of the CLI works without the server extras installed.
"""

from __future__ import annotations

from typing import Annotated

import typer

app = typer.Typer(help="Run the API service.")


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
        from services.api.server import run
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
    run(host, port, auth=not no_auth)
