"""Checkpoints: a Merkle root over a range of the chain, optionally signed (Ed25519).

A checkpoint is itself a chain entry. Periodic ones cover the entries since
the previous checkpoint (verification of a range then needs only that
range's hashes); an audit bundle asks for one over the whole chain. Signing
with a key kept away from the database is what stops someone with database
access from rewriting history and re-sealing the chain (docs/audit.md).
"""

from __future__ import annotations

from provgraph.audit.chain import AuditEntry, EntryKind, PendingEntry
from provgraph.audit.checks import checkpoint_message
from provgraph.audit.merkle import merkle_root
from provgraph.audit.signing import CheckpointSigner
from provgraph.store.port import GraphStore
from provgraph.usecases.audit_replay import load_entries


def create_checkpoint(
    store: GraphStore,
    project: str,
    *,
    signer: CheckpointSigner | None = None,
    whole_chain: bool = False,
) -> AuditEntry | None:
    """Seal a checkpoint over the new entries (or all); None when there is nothing new."""
    entries = load_entries(store, project)
    checkpoints = [e for e in entries if e.kind == EntryKind.CHECKPOINT]
    start = 1 if whole_chain or not checkpoints else checkpoints[-1].seq + 1
    covered = [e for e in entries if e.seq >= start]
    if not covered or (not whole_chain and all(e.kind == EntryKind.CHECKPOINT for e in covered)):
        return None
    header: dict[str, object] = {
        "from": start,
        "to": covered[-1].seq,
        "root": merkle_root([e.hash for e in covered]),
        "head": covered[-1].hash,
        "signature": None,
        "public_key": None,
    }
    if signer is not None:
        header["public_key"] = signer.public_hex
        header["signature"] = signer.sign(checkpoint_message(project, header))
    return store.append_audit(project, PendingEntry(EntryKind.CHECKPOINT, header, None))


def checkpoint_all(store: GraphStore, signer: CheckpointSigner | None = None) -> dict[str, int]:
    """The scheduled job: a checkpoint for every project with new entries ({project: seq})."""
    made: dict[str, int] = {}
    for project in store.audit_projects():
        entry = create_checkpoint(store, project, signer=signer)
        if entry is not None:
            made[project] = entry.seq
    return made
