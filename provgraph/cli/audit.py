"""``provgraph audit``: verify the chain, checkpoints, signing keys, offline bundles.

Exit codes: 0 verified, 1 a check failed (the first failing entry is printed
first), 2 bad arguments or an unreachable store.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from provgraph.cli.common import console, fail, one_line_errors, settings_and_store
from provgraph.config import Settings
from provgraph.usecases.audit_verify import VerifyReport

if TYPE_CHECKING:
    from provgraph.audit.signing import CheckpointSigner

app = typer.Typer(help="Tamper evidence: verify the audit chain, checkpoints, bundles.")

ProjectOption = Annotated[str | None, typer.Option(help="Project (default: PROVGRAPH_PROJECT).")]
KeyOption = Annotated[
    Path | None,
    typer.Option(
        "--public-key", help="Ed25519 public key (PEM) every checkpoint must be signed by."
    ),
]


def _pinned(path: Path | None) -> str | None:
    if path is None:
        return None
    from provgraph.audit.signing import public_hex_from_pem

    return public_hex_from_pem(path.read_bytes())


def _signer(settings: Settings) -> CheckpointSigner | None:
    if settings.audit_signing_key is None:
        return None
    from provgraph.audit.signing import CheckpointSigner

    return CheckpointSigner.from_pem_file(settings.audit_signing_key)


def _print(report: VerifyReport, limit: int = 20) -> None:
    scope = f"session {report.session_id}" if report.session_id else "every session"
    if report.ok:
        console.print(
            f"[green]verified[/]: project {report.project}, {report.entries} entries, {scope}",
            highlight=False,
        )
        return
    first = report.first
    assert first is not None
    console.print("[red]FAILED[/] first at ", end="")
    console.print(first.describe(), markup=False, highlight=False, soft_wrap=True)
    for failure in report.failures[:limit]:
        console.print(f"  {failure.describe()}", markup=False, highlight=False, soft_wrap=True)
    if len(report.failures) > limit:
        console.print(f"  … {len(report.failures) - limit} more", highlight=False)
    raise typer.Exit(1)


@app.command("verify")
@one_line_errors
def verify(
    project: ProjectOption = None,
    session: Annotated[str | None, typer.Option(help="Check only this session's data.")] = None,
    public_key: KeyOption = None,
) -> None:
    """Recompute the chain and check the stored graph, reports and reviews against it."""
    from provgraph.usecases.audit_verify import verify_project

    pinned = _pinned(public_key)
    settings, store = settings_and_store()
    try:
        report = verify_project(
            store, project or settings.project, session_id=session, pinned_key=pinned
        )
    finally:
        store.close()
    _print(report)


@app.command("checkpoint")
@one_line_errors
def checkpoint(project: ProjectOption = None) -> None:
    """Seal a checkpoint (Merkle root, signed with PROVGRAPH_AUDIT_SIGNING_KEY if set)."""
    from provgraph.usecases.audit_checkpoint import create_checkpoint

    settings, store = settings_and_store()
    try:
        entry = create_checkpoint(store, project or settings.project, signer=_signer(settings))
    finally:
        store.close()
    if entry is None:
        console.print("nothing new since the last checkpoint")
        return
    signed = "signed" if entry.header.get("signature") else "unsigned"
    console.print(
        f"checkpoint entry {entry.seq}: entries {entry.header['from']}..{entry.header['to']}, "
        f"root {entry.header['root']} ({signed})",
        highlight=False,
    )


@app.command("export-bundle")
@one_line_errors
def export_bundle(
    session: Annotated[str, typer.Argument(help="Session id.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Bundle file (JSON).")],
    project: ProjectOption = None,
) -> None:
    """Write one session's audit bundle (verifiable offline with ``verify-bundle``)."""
    from provgraph.usecases.audit_bundle import export_bundle as export

    settings, store = settings_and_store()
    try:
        bundle = export(store, project or settings.project, session, signer=_signer(settings))
    finally:
        store.close()
    out.write_text(json.dumps(bundle, ensure_ascii=False), encoding="utf-8")
    console.print(f"wrote {out} ({len(bundle['entries'])} entries)", highlight=False)


@app.command("verify-bundle")
@one_line_errors
def verify_bundle(
    file: Annotated[Path, typer.Argument(help="Bundle written by export-bundle.")],
    public_key: KeyOption = None,
) -> None:
    """Verify a bundle with no server: chain segment, checkpoint, signature, graph, reports."""
    from provgraph.usecases.audit_bundle_verify import verify_bundle as check

    if not file.is_file():
        raise fail(f"{file}: no such file")
    try:
        bundle = json.loads(file.read_text(encoding="utf-8"))
        report = check(bundle, pinned_key=_pinned(public_key))
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise fail(f"{file}: not a readable audit bundle ({type(exc).__name__}: {exc})") from None
    _print(report)


@app.command("keygen")
@one_line_errors
def keygen(
    private: Annotated[Path, typer.Argument(help="Where to write the private key (PEM).")],
    public: Annotated[Path, typer.Argument(help="Where to write the public key (PEM).")],
) -> None:
    """Make an Ed25519 key pair for signing checkpoints (keep the private key off the DB host)."""
    from provgraph.audit.signing import generate_key_pem

    if private.exists():
        raise fail(f"{private} exists; refusing to overwrite a key")
    key, pub = generate_key_pem()
    private.write_bytes(key)
    private.chmod(0o600)
    public.write_bytes(pub)
    console.print(f"wrote {private} (private, mode 600) and {public}", highlight=False)
