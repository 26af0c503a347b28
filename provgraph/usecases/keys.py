"""API keys in SQLite (stdlib ``sqlite3``, WAL): only a SHA-256 of each token is stored.

A token is ``pgk_<key id>_<secret>`` with a 256-bit random secret, so a plain
SHA-256 is enough (no password stretching needed for high-entropy secrets) and
the key id lets a lookup go straight to one row; the stored hash is compared in
constant time. The bootstrap admin key (``PROVGRAPH_BOOTSTRAP_ADMIN_KEY``) is
never written to the database: it is checked against the environment on each
request so rotating it needs only a restart.

The database file is created owner-only (``0600``) and an existing file that
group or others can read is tightened on open: hashes of high-entropy tokens
are not secrets in themselves, but the file also names every project and key,
and SQLite's WAL and shared-memory files copy the database file's mode.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from provgraph.errors import ValidationError
from provgraph.usecases.roles import Principal, Role

TOKEN_PREFIX = "pgk_"
_TOKEN_RE = re.compile(r"^pgk_([0-9a-f]{16})_([A-Za-z0-9_-]{20,128})$")
_PROJECT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
BOOTSTRAP_KEY_ID = "bootstrap"

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


KEY_FILE_MODE = 0o600
"""Owner read/write only: the key database and its WAL/SHM companions."""
KEY_DIR_MODE = 0o700


class KeyOperationError(ValidationError, ValueError):
    """A key operation was refused (bad project or role, unknown key id).

    Also a ``ValueError``, as it was before it joined the ``ProvgraphError`` tree.
    """


@dataclass(frozen=True)
class ApiKey:
    """One stored key, without its secret (the token is shown once, at creation)."""

    id: str
    project: str
    role: Role
    name: str | None
    created_at: str
    revoked_at: str | None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def validate_project(project: str) -> str:
    """Projects are tenant names: short, printable, no separators that could confuse ids."""
    if not _PROJECT_RE.match(project):
        raise KeyOperationError(
            f"project {project!r} must be 1-128 characters of letters, digits, '.', '_' or '-'"
        )
    return project


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


class KeyStore:
    """The key database; safe to share between threads (one connection, one lock)."""

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

    def create(self, project: str, role: Role | str, name: str | None = None) -> tuple[ApiKey, str]:
        """A new key and its token; the token is returned once and never stored."""
        validate_project(project)
        try:
            role = Role(role)
        except ValueError as exc:
            roles = ", ".join(r.value for r in Role)
            raise KeyOperationError(f"role must be one of {roles}") from exc
        key_id = secrets.token_hex(8)
        token = f"{TOKEN_PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
        created = datetime.now(UTC).isoformat()
        with self._lock:
            self._conn.execute(
                "INSERT INTO api_keys (id, project, role, token_sha256, name, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (key_id, project, role.value, hash_token(token), name, created),
            )
        return ApiKey(key_id, project, role, name, created, None), token

    def list(self, *, include_revoked: bool = True) -> list[ApiKey]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, project, role, name, created_at, revoked_at FROM api_keys"
                " ORDER BY created_at, id"
            ).fetchall()
        keys = [ApiKey(r[0], r[1], Role(r[2]), r[3], r[4], r[5]) for r in rows]
        return keys if include_revoked else [k for k in keys if k.active]

    def revoke(self, key_id: str) -> ApiKey:
        """Revoke a key (idempotent: revoking twice keeps the first revocation time)."""
        now = datetime.now(UTC).isoformat()
        with self._lock:
            self._conn.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                (now, key_id),
            )
            row = self._conn.execute(
                "SELECT id, project, role, name, created_at, revoked_at FROM api_keys WHERE id = ?",
                (key_id,),
            ).fetchone()
        if row is None:
            raise KeyOperationError(f"no API key with id {key_id!r} (see `provgraph keys list`)")
        return ApiKey(row[0], row[1], Role(row[2]), row[3], row[4], row[5])

    def count_active(self) -> int:
        with self._lock:
            row = self._conn.execute(
                "SELECT COUNT(*) FROM api_keys WHERE revoked_at IS NULL"
            ).fetchone()
        return int(row[0])

    def authenticate(self, token: str) -> Principal | None:
        """The principal a token stands for, or None (unknown, malformed or revoked)."""
        match = _TOKEN_RE.match(token)
        if match is None:
            return None
        with self._lock:
            row = self._conn.execute(
                "SELECT project, role, token_sha256, revoked_at, name FROM api_keys WHERE id = ?",
                (match.group(1),),
            ).fetchone()
        if row is None or row[3] is not None:
            return None
        if not hmac.compare_digest(row[2], hash_token(token)):
            return None
        return Principal(project=row[0], role=Role(row[1]), key_id=match.group(1), key_name=row[4])


def authenticate_bootstrap(token: str, bootstrap_key: str | None, project: str) -> Principal | None:
    """The bootstrap admin key, scoped to the configured project (``PROVGRAPH_PROJECT``)."""
    if not bootstrap_key:
        return None
    if hmac.compare_digest(hash_token(token), hash_token(bootstrap_key)):
        return Principal(project=project, role=Role.ADMIN, key_id=BOOTSTRAP_KEY_ID)
    return None
