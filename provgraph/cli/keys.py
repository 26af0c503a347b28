"""``provgraph keys``: create, list and revoke API keys (project-scoped, with a role).

With ``PROVGRAPH_NEO4J_URI`` set, keys live in the graph (``:ApiKey`` nodes) and
every API replica sees them; else in the embedded key file ``PROVGRAPH_KEYS_DB``
(default ``<home>/keys.sqlite3``), which the embedded API reads.
``import-file`` copies a key file's keys into the graph once (moving an
embedded deployment to Neo4j). A token is printed once, at creation: only its
hash is stored. This module imports no web framework (the CLI must
start fast and work without the server extras).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from provgraph.config import load_settings
from provgraph.errors import ProvgraphError
from provgraph.store.key_factory import open_key_repository
from provgraph.store.key_file import SqliteKeyRepository
from provgraph.usecases.keys import KeyOperationError, KeyStore
from provgraph.usecases.roles import Role

app = typer.Typer(
    help="Manage API keys (project-scoped: ingest, read or admin).", no_args_is_help=True
)


def _store() -> KeyStore:
    """The deployment's keys; a store that cannot be opened is a clear error, exit 1."""
    try:
        return KeyStore(open_key_repository(load_settings()))
    except ProvgraphError as exc:
        typer.echo(f"error: cannot open the key store: {exc}", err=True)
        raise typer.Exit(1) from exc


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


@app.command("import-file")
def import_file(
    path: Annotated[
        Path | None,
        typer.Argument(help="The key file (default: PROVGRAPH_KEYS_DB or <home>/keys.sqlite3)."),
    ] = None,
) -> None:
    """Copy a key file's keys (hashes, revocations) into the graph; ids already there stay.

    Run once when an embedded deployment moves to Neo4j; running it again adds nothing.
    """
    settings = load_settings()
    if not settings.uses_neo4j:
        typer.echo("error: import-file copies keys into Neo4j: set PROVGRAPH_NEO4J_URI", err=True)
        raise typer.Exit(2)
    source_path = path or settings.keys_db_path
    if not source_path.is_file():
        typer.echo(f"error: no key file at {source_path}", err=True)
        raise typer.Exit(2)
    source = SqliteKeyRepository(source_path)
    keys = _store()
    try:
        read, added = keys.import_from(source)
    finally:
        keys.close()
        source.close()
    typer.echo(f"imported {added} of {read} keys from {source_path} ({read - added} already there)")
