"""What an erasure leaves on a real Neo4j server's disk (docs/audit.md, "Erasure limits").

A throwaway server of its own (so it can be stopped, which checkpoints the
store files): events carrying a unique subject id go in, the subject is
erased, then every property in the database is scanned, the server is
stopped cleanly, and its store files and transaction logs are grepped.
What this pins: the live database holds no trace; the *transaction logs*
still do (Neo4j keeps them until rotation and pruning, default retention
two days), which is the documented limit.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from provgraph.config import Settings
from provgraph.events import Event
from provgraph.usecases.audit_verify import verify_project
from provgraph.usecases.erasure import apply_erasure, plan_subject_erasure
from tests.conftest import free_port

pytestmark = pytest.mark.neo4j


def _files_containing(folder: Path, needle: bytes) -> list[str]:
    found = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and needle in path.read_bytes():
            found.append(str(path.relative_to(folder)))
    return found


def test_erased_subject_is_gone_from_the_database_but_not_from_transaction_logs(
    tmp_path: Path,
) -> None:
    try:
        from provgraph.ops.neo4j_server import start_neo4j, stop_neo4j
        from provgraph.store.neo4j import open_neo4j_store

        handle = start_neo4j(
            tmp_path / "db", bolt_port=free_port(), auth=False, heap="512m", pagecache="64m"
        )
    except Exception as exc:  # no java/mvn on this machine
        pytest.skip(f"cannot start a throwaway Neo4j: {exc}")
    subject = f"subject-{uuid.uuid4().hex}"
    events = [
        Event.model_validate(raw)
        for raw in (
            {
                "id": "e1",
                "type": "data_read",
                "timestamp": "2026-01-01T00:00:00Z",
                "session_id": "s1",
                "node_id": "n1",
                "content": f"record of {subject} here",
                "data": {"customer": subject},
            },
            {
                "id": "e2",
                "type": "data_read",
                "timestamp": "2026-01-01T00:00:01Z",
                "session_id": "s1",
                "node_id": "n2",
                "content": "unrelated text",
            },
        )
    ]
    data_dir = Path(handle.data_dir) / "data"
    try:
        store = open_neo4j_store(Settings(neo4j_uri=handle.uri))
        store.ingest("p", events)
        result = apply_erasure(store, "p", plan_subject_erasure(store, "p", subject))
        assert result.nodes == 1
        assert verify_project(store, "p").ok
        with store.driver.session() as session:
            left = session.run(
                "MATCH (n) WHERE any(k IN keys(n) WHERE toString(n[k]) CONTAINS $s) "
                "RETURN labels(n) AS labels",
                s=subject,
            ).data()
        assert left == []  # no node of any label (graph, chain, bookkeeping) keeps it
        payloads = [e.payload for e in store.audit_entries("p")]
        assert subject not in json.dumps(payloads)  # chain payloads are stored packed
        assert store.get_node("p", "n2") is not None
        store.close()
    finally:
        stop_neo4j(handle.data_dir)
    needle = subject.encode()
    in_store_files = _files_containing(data_dir / "databases" / "neo4j", needle)
    in_tx_logs = _files_containing(data_dir / "transactions" / "neo4j", needle)
    print(f"store files with the subject: {in_store_files}; transaction logs: {in_tx_logs}")
    assert in_tx_logs, "transaction logs no longer keep it: update docs/audit.md"
