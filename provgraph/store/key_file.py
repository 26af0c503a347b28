"""The embedded key repository: an owner-only SQLite file (stdlib ``sqlite3``, WAL).

The file is created owner-only (``0600``) and an existing file that group or
others can read is tightened on open: hashes of high-entropy tokens are not
secrets in themselves, but the file also names every project and key, and
SQLite's WAL and shared-memory files copy the database file's mode.

Used by the embedded mode (one API process) and as the source of
``provgraph keys import-file`` when a deployment moves its keys into Neo4j.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

from provgraph.store.key_types import KeyRecord

KEY_FILE_MODE = 0o600
"""Owner read/write only: the key database and its WAL/SHM companions."""
KEY_DIR_MODE = 0o700

_SCHEMA = """
CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    project TEXT NOT NULL,
    role TEXT NOT NULL,
    token_sha256 TEXT NOT NULL,
    name TEXT,
    created_at TEXT NOT NULL,
    revoked_at TEXT
)
"""
_COLUMNS = "id, project, role, token_sha256, name, created_at, revoked_at"


def prepare_key_file(path: Path) -> None:
    """Create the key database file owner-only (0600), or tighten an existing one.

    The file is created before SQLite opens it so there is no moment when it
    exists with the process umask's (often world-readable) mode.
    """
    if not path.parent.exists():
        path.parent.mkdir(parents=True, mode=KEY_DIR_MODE, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, KEY_FILE_MODE)
    try:
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, KEY_FILE_MODE)
    finally:
        os.close(fd)
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        if companion.exists() and companion.stat().st_mode & 0o077:
            companion.chmod(KEY_FILE_MODE)


def _record(row: Sequence[str | None]) -> KeyRecord:
    return KeyRecord(
        id=str(row[0]),
        project=str(row[1]),
        role=str(row[2]),
        token_sha256=str(row[3]),
        name=row[4],
        created_at=str(row[5]),
        revoked_at=row[6],
    )


class SqliteKeyRepository:
    """The key file; safe to share between threads (one connection, one lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            prepare_key_file(self.path)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.execute(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def insert_key(self, record: KeyRecord) -> None:
        with self._lock:
            self._conn.execute(
                f"INSERT INTO api_keys ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                _values(record),
            )

    def import_keys(self, records: Sequence[KeyRecord]) -> int:
        with self._lock:
            before = self._conn.total_changes
            self._conn.executemany(
                f"INSERT OR IGNORE INTO api_keys ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [_values(r) for r in records],
            )
            return self._conn.total_changes - before

    def get_key(self, key_id: str) -> KeyRecord | None:
        with self._lock:
            row = self._conn.execute(
                f"SELECT {_COLUMNS} FROM api_keys WHERE id = ?", (key_id,)
            ).fetchone()
        return _record(row) if row is not None else None

    def list_keys(self) -> list[KeyRecord]:
        with self._lock:
            rows = self._conn.execute(
                f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at, id"
            ).fetchall()
        return [_record(r) for r in rows]

    def revoke_key(self, key_id: str, at: str) -> KeyRecord | None:
        with self._lock:
            self._conn.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                (at, key_id),
            )
        return self.get_key(key_id)


def _values(record: KeyRecord) -> tuple[str | None, ...]:
    return (
        record.id,
        record.project,
        record.role,
        record.token_sha256,
        record.name,
        record.created_at,
        record.revoked_at,
    )
