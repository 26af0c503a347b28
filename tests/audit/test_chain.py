"""The chain's pure parts: sealing, link checks, payload checks, Merkle roots, signatures."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from provgraph.audit.canonical import digest
from provgraph.audit.chain import (
    GENESIS,
    AuditEntry,
    EntryKind,
    PendingEntry,
    encoded_ingest_entry,
    ingest_entry,
    report_entry,
    seal,
)
from provgraph.audit.checks import (
    check_checkpoints,
    check_links,
    check_payloads,
    checkpoint_message,
    first_failure,
)
from provgraph.audit.merkle import merkle_root
from provgraph.audit.signing import CheckpointSigner, generate_key_pem, verify_signature

EVENTS = [{"id": f"e{i}", "node_id": f"n{i}", "content": f"text {i}"} for i in range(3)]


def chain(n: int = 4) -> list[AuditEntry]:
    entries: list[AuditEntry] = []
    head = (0, GENESIS)
    for i in range(n):
        entry = seal("p", head, ingest_entry([EVENTS[i % 3]]), at=f"2026-01-0{i + 1}T00:00:00Z")
        entries.append(entry)
        head = (entry.seq, entry.hash)
    return entries


def test_seal_covers_the_previous_hash_and_every_sealed_field() -> None:
    entries = chain(2)
    assert entries[0].prev == GENESIS and entries[1].prev == entries[0].hash
    assert [e.seq for e in entries] == [1, 2]
    for entry in entries:
        assert entry.hash == digest(entry.sealed_fields()) == entry.recomputed_hash()
    for field in ("project", "kind", "at", "prev"):
        assert replace(entries[1], **{field: "x"}).recomputed_hash() != entries[1].hash
    assert replace(entries[1], header={"events": []}).recomputed_hash() != entries[1].hash
    # the payload is outside the hash (so erasure can drop it), but its digest is inside
    assert replace(entries[1], payload=None).recomputed_hash() == entries[1].hash


def test_a_clean_chain_passes_every_check() -> None:
    entries = chain()
    assert check_links(entries, (entries[-1].seq, entries[-1].hash)) == []
    assert check_payloads(entries) == []


def test_removed_reordered_and_edited_entries_are_named() -> None:
    entries = chain()
    removed = entries[:1] + entries[2:]
    assert first_failure(check_links(removed, None)).seq == 2  # type: ignore[union-attr]
    swapped = [entries[0], entries[2], entries[1], entries[3]]
    assert first_failure(check_links(swapped, None)).seq == 2  # type: ignore[union-attr]
    edited = list(entries)
    edited[2] = replace(edited[2], at="2030-01-01T00:00:00Z")
    failures = check_links(edited, None)
    assert [(f.seq, f.check) for f in failures] == [(3, "hash")]
    tail_cut = entries[:-1]
    failure = first_failure(check_links(tail_cut, (entries[-1].seq, entries[-1].hash)))
    assert failure is not None and failure.check == "head"


def test_an_edited_payload_event_fails_its_entry() -> None:
    entries = chain()
    tampered = {"events": [{**EVENTS[1], "content": "changed"}]}
    entries[1] = replace(entries[1], payload=tampered)
    failure = first_failure(check_payloads(entries))
    assert failure is not None and failure.seq == 2 and "differs" in failure.message


def test_a_dropped_event_needs_a_tombstone_listing_its_digest() -> None:
    entries = chain()
    entries[0] = replace(entries[0], payload={"events": [None]})
    assert first_failure(check_payloads(entries)).seq == 1  # type: ignore[union-attr]
    tombstone = PendingEntry(
        EntryKind.ERASURE, {"events": [entries[0].header["events"][0]], "entries": [1]}, None
    )
    entries.append(seal("p", (entries[-1].seq, entries[-1].hash), tombstone))
    assert check_payloads(entries) == []
    assert check_links(entries, None) == []


def test_report_entry_identity_is_checked() -> None:
    report = {"output_id": "o", "config_hash": "c", "version": 1, "report": {"x": 1}}
    entry = seal("p", (0, GENESIS), report_entry(report))
    assert check_payloads([entry]) == []
    moved = replace(entry, payload={**entry.payload, "output_id": "other"})  # type: ignore[dict-item]
    assert first_failure(check_payloads([moved])).check == "payload"  # type: ignore[union-attr]


def test_merkle_root_follows_rfc6962() -> None:
    hashes = [hashlib.sha256(bytes([i])).hexdigest() for i in range(3)]

    def leaf(h: str) -> bytes:
        return hashlib.sha256(b"\x00" + bytes.fromhex(h)).digest()

    def node(a: bytes, b: bytes) -> bytes:
        return hashlib.sha256(b"\x01" + a + b).digest()

    expected = node(node(leaf(hashes[0]), leaf(hashes[1])), leaf(hashes[2])).hex()
    assert merkle_root(hashes) == expected
    assert merkle_root(hashes[:1]) == leaf(hashes[0]).hex()
    assert merkle_root(hashes) != merkle_root([hashes[1], hashes[0], hashes[2]])
    with pytest.raises(ValueError):
        merkle_root([])


def _checkpoint(entries: list[AuditEntry], signer: CheckpointSigner | None) -> AuditEntry:
    header = {
        "from": 1,
        "to": entries[-1].seq,
        "root": merkle_root([e.hash for e in entries]),
        "head": entries[-1].hash,
        "signature": None,
        "public_key": None,
    }
    if signer is not None:
        header["public_key"] = signer.public_hex
        header["signature"] = signer.sign(checkpoint_message("p", header))
    return seal(
        "p", (entries[-1].seq, entries[-1].hash), PendingEntry(EntryKind.CHECKPOINT, header, None)
    )


def test_signed_checkpoints_verify_and_detect_a_changed_range(tmp_path) -> None:  # type: ignore[no-untyped-def]
    private, _ = generate_key_pem()
    key_file = tmp_path / "k.pem"
    key_file.write_bytes(private)
    signer = CheckpointSigner.from_pem_file(key_file)
    entries = chain()
    entries.append(_checkpoint(entries, signer))
    assert check_checkpoints(entries, verify_signature) == []
    rewritten = [replace(entries[0], hash="0" * 64), *entries[1:]]
    assert first_failure(check_checkpoints(rewritten, verify_signature)).seq == 5  # type: ignore[union-attr]
    forged = dict(entries[-1].header, signature="00" * 64)
    entries[-1] = replace(entries[-1], header=forged)
    failure = first_failure(check_checkpoints(entries, verify_signature))
    assert failure is not None and failure.check == "signature"


def test_the_encoded_ingest_entry_is_the_ingest_entry_and_its_payload_parses_back() -> None:
    import json

    events = [
        *EVENTS,
        {"id": "big", "data": {"n": 2**64, "f": 1.0, "g": 1e21}},  # beyond I-JSON, floats
        {"id": "astral", "content": "\U0001f600 \u2028", "data": {"\U0001f600": [1, None]}},
    ]
    pending, payload_json = encoded_ingest_entry(events)
    assert pending == ingest_entry(events)
    assert json.loads(payload_json) == {"events": events}  # the big integer stays an integer
    entry = seal("p", (0, GENESIS), pending)
    assert check_payloads([replace(entry, payload=json.loads(payload_json))]) == []
