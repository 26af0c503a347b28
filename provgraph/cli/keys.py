"""``provgraph keys``: create, list and revoke API keys (project-scoped, with a role).

The key database is ``PROVGRAPH_KEYS_DB`` (default ``<home>/keys.sqlite3``);
the API server reads the same file. A token is printed once, at creation:
only its hash is stored. This module imports no web framework (the CLI must
start fast and work without the server extras).
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from provgraph.config import load_settings
from provgraph.usecases.keys import KeyOperationError, KeyStore
from provgraph.usecases.roles import Role

app = typer.Typer(
    help="Manage API keys (project-scoped: ingest, read or admin).", no_args_is_help=True
)


def _store() -> KeyStore:
    return KeyStore(load_settings().keys_db_path)


@app.command()
def create(
    project: Annotated[str, typer.Option(help="Project (tenant) the key is scoped to.")],
    role: Annotated[
        Role,
        typer.Option(
            help="ingest: post events; read: query; review: read + review verdicts; admin: all."
        ),
    ],
    name: Annotated[str | None, typer.Option(help="A note to recognise the key by.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Create a key and print its token (shown once; store it now)."""
    keys = _store()
    try:
        key, token = keys.create(project, role, name)
    except KeyOperationError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    finally:
        keys.close()
    if as_json:
        typer.echo(
            json.dumps(
                {"id": key.id, "project": key.project, "role": key.role.value, "token": token}
            )
        )
        return
    typer.echo(f"created key {key.id} (project {key.project}, role {key.role.value})")
    typer.echo(f"token (shown once): {token}")


@app.command("list")
def list_keys(
    active: Annotated[bool, typer.Option("--active", help="Hide revoked keys.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List keys (never their tokens)."""
    keys = _store()
    try:
        found = keys.list(include_revoked=not active)
    finally:
        keys.close()
    if as_json:
        typer.echo(
            json.dumps(
                [
                    {
                        "id": k.id,
                        "project": k.project,
                        "role": k.role.value,
                        "name": k.name,
                        "created_at": k.created_at,
                        "revoked_at": k.revoked_at,
                    }
                    for k in found
                ]
            )
        )
        return
    if not found:
        typer.echo("no keys")
    for k in found:
        status = f"revoked {k.revoked_at}" if k.revoked_at else "active"
        typer.echo(f"{k.id}  {k.project}  {k.role.value:<6}  {status}  {k.name or ''}".rstrip())


@app.command()
def revoke(key_id: Annotated[str, typer.Argument(help="The key id from `keys list`.")]) -> None:
    """Revoke a key: requests with it fail from now on."""
    keys = _store()
    try:
        key = keys.revoke(key_id)
    except KeyOperationError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    finally:
        keys.close()
    typer.echo(f"revoked key {key.id} (project {key.project}, role {key.role.value})")
