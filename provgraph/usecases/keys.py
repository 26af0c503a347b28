"""API keys: tokens, roles and validation over a key repository (only hashes are stored).

A token is ``pgk_<key id>_<secret>`` with a 256-bit random secret, so a plain
SHA-256 is enough (no password stretching needed for high-entropy secrets) and
the key id lets a lookup go straight to one record; the stored hash is compared
in constant time. The bootstrap admin key (``PROVGRAPH_BOOTSTRAP_ADMIN_KEY``) is
never stored: it is checked against the environment on each request so
rotating it needs only a restart.

Where keys live is the store's business (:mod:`provgraph.store.key_types`):
Neo4j when ``PROVGRAPH_NEO4J_URI`` is set (every API replica sees the same
keys), else the embedded owner-only SQLite file. The API authenticates through
:class:`KeyAuthenticator`, which caches a found key for at most
``PROVGRAPH_KEY_CACHE_TTL_S`` seconds: a revocation made through another
process is refused everywhere within that time (at once in the process that
made it). Unknown keys are never cached, so a new key works at once.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from provgraph.errors import NotFoundError, ValidationError
from provgraph.store.key_file import KEY_DIR_MODE, KEY_FILE_MODE, prepare_key_file
from provgraph.store.key_file import SqliteKeyRepository as SqliteKeyRepository
from provgraph.store.key_types import AsyncKeyRepository, KeyRecord, KeyRepository
from provgraph.usecases.roles import Principal, Role

TOKEN_PREFIX = "pgk_"
_TOKEN_RE = re.compile(r"^pgk_([0-9a-f]{16})_([A-Za-z0-9_-]{20,128})$")
_PROJECT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
BOOTSTRAP_KEY_ID = "bootstrap"
DEFAULT_CACHE_TTL_S = 5.0
MAX_CACHED_KEYS = 10_000

__all__ = [
    "KEY_DIR_MODE",
    "KEY_FILE_MODE",
    "ApiKey",
    "KeyAuthenticator",
    "KeyOperationError",
    "KeyStore",
    "prepare_key_file",
]


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

    @classmethod
    def from_record(cls, record: KeyRecord) -> ApiKey:
        return cls(
            record.id,
            record.project,
            Role(record.role),
            record.name,
            record.created_at,
            record.revoked_at,
        )


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def validate_project(project: str) -> str:
    """Projects are tenant names: short, printable, no separators that could confuse ids."""
    if not _PROJECT_RE.match(project):
        raise KeyOperationError(
            f"project {project!r} must be 1-128 characters of letters, digits, '.', '_' or '-'"
        )
    return project


def new_key(project: str, role: Role | str, name: str | None = None) -> tuple[KeyRecord, str]:
    """A new key record and its token (validated; nothing stored yet)."""
    validate_project(project)
    try:
        role = Role(role)
    except ValueError as exc:
        roles = ", ".join(r.value for r in Role)
        raise KeyOperationError(f"role must be one of {roles}") from exc
    key_id = secrets.token_hex(8)
    token = f"{TOKEN_PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
    record = KeyRecord(
        id=key_id,
        project=project,
        role=role.value,
        token_sha256=hash_token(token),
        name=name,
        created_at=datetime.now(UTC).isoformat(),
    )
    return record, token


def key_id_of(token: str) -> str | None:
    """The key id a well-formed token names (None: malformed)."""
    match = _TOKEN_RE.match(token)
    return match.group(1) if match else None


def principal_of(record: KeyRecord | None, token: str) -> Principal | None:
    """The principal if ``record`` is active and ``token`` is its secret."""
    if record is None or record.revoked_at is not None:
        return None
    if not hmac.compare_digest(record.token_sha256, hash_token(token)):
        return None
    return Principal(
        project=record.project, role=Role(record.role), key_id=record.id, key_name=record.name
    )


def unknown_key(key_id: str) -> KeyOperationError:
    return KeyOperationError(f"no API key with id {key_id!r} (see `provgraph keys list`)")


class KeyStore:
    """Create, list, revoke and check keys over a repository (a path: the SQLite file).

    ``on_revoke`` is told the id of each key revoked here, so an authentication
    cache in the same process forgets it at once.
    """

    def __init__(
        self,
        repository: KeyRepository | str | Path,
        *,
        on_revoke: Callable[[str], None] | None = None,
    ) -> None:
        self.repository: KeyRepository = (
            SqliteKeyRepository(repository) if isinstance(repository, str | Path) else repository
        )
        self._on_revoke = on_revoke

    def close(self) -> None:
        self.repository.close()

    def create(self, project: str, role: Role | str, name: str | None = None) -> tuple[ApiKey, str]:
        """A new key and its token; the token is returned once and never stored."""
        record, token = new_key(project, role, name)
        self.repository.insert_key(record)
        return ApiKey.from_record(record), token

    def list(self, *, include_revoked: bool = True) -> list[ApiKey]:
        keys = [ApiKey.from_record(r) for r in self.repository.list_keys()]
        return keys if include_revoked else [k for k in keys if k.active]

    def revoke(self, key_id: str) -> ApiKey:
        """Revoke a key (idempotent: revoking twice keeps the first revocation time)."""
        record = self.repository.revoke_key(key_id, datetime.now(UTC).isoformat())
        if record is None:
            raise unknown_key(key_id)
        if self._on_revoke is not None:
            self._on_revoke(key_id)
        return ApiKey.from_record(record)

    def count_active(self) -> int:
        return sum(1 for k in self.repository.list_keys() if k.revoked_at is None)

    def import_from(self, source: KeyRepository) -> tuple[int, int]:
        """Copy every key of ``source`` not stored here yet: (keys read, keys added)."""
        records = source.list_keys()
        return len(records), self.repository.import_keys(records)

    def authenticate(self, token: str) -> Principal | None:
        """The principal a token stands for, or None (unknown, malformed or revoked)."""
        key_id = key_id_of(token)
        if key_id is None:
            return None
        return principal_of(self.repository.get_key(key_id), token)


class KeyAuthenticator:
    """Token → principal for the API, with a short per-key cache (see the module docstring).

    ``lookup`` reads one key by id (the Neo4j async repository, or the embedded
    file). ``ttl_s = 0`` turns the cache off. The clock is injected so the
    expiry is testable without sleeping.
    """

    def __init__(
        self,
        lookup: Callable[[str], Awaitable[KeyRecord | None]],
        ttl_s: float = DEFAULT_CACHE_TTL_S,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._lookup = lookup
        self._ttl_s = ttl_s
        self._clock = clock
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[float, KeyRecord]] = {}

    async def authenticate(self, token: str) -> Principal | None:
        key_id = key_id_of(token)
        if key_id is None:
            return None
        record = self._cached(key_id)
        if record is None:
            record = await self._lookup(key_id)
            if record is not None and record.revoked_at is None and self._ttl_s > 0:
                self._remember(key_id, record)
        return principal_of(record, token)

    def forget(self, key_id: str) -> None:
        """Drop a key from the cache (it was revoked in this process)."""
        with self._lock:
            self._cache.pop(key_id, None)

    def _cached(self, key_id: str) -> KeyRecord | None:
        with self._lock:
            found = self._cache.get(key_id)
            if found is None:
                return None
            if found[0] <= self._clock():
                del self._cache[key_id]
                return None
            return found[1]

    def _remember(self, key_id: str, record: KeyRecord) -> None:
        with self._lock:
            if len(self._cache) >= MAX_CACHED_KEYS:
                self._cache.clear()
            self._cache[key_id] = (self._clock() + self._ttl_s, record)


# ---------------------------------------------------------------------- the API's key routes
async def create_key_async(
    repository: AsyncKeyRepository, project: str, role: Role | str, name: str | None
) -> tuple[ApiKey, str]:
    """A new key of ``project`` (the caller's own: an admin manages its project only)."""
    record, token = new_key(project, role, name)
    await repository.insert_key(record)
    return ApiKey.from_record(record), token


async def list_keys_async(repository: AsyncKeyRepository, project: str) -> list[ApiKey]:
    return [ApiKey.from_record(r) for r in await repository.list_keys() if r.project == project]


async def revoke_key_async(repository: AsyncKeyRepository, project: str, key_id: str) -> ApiKey:
    """Revoke a key of ``project``; another project's key is reported as unknown (404)."""
    found = await repository.get_key(key_id)
    if found is None or found.project != project:
        raise NotFoundError(f"no API key with id {key_id!r} in project {project!r}")
    record = await repository.revoke_key(key_id, datetime.now(UTC).isoformat())
    if record is None:
        raise NotFoundError(f"no API key with id {key_id!r} in project {project!r}")
    return ApiKey.from_record(record)


def authenticate_bootstrap(token: str, bootstrap_key: str | None, project: str) -> Principal | None:
    """The bootstrap admin key, scoped to the configured project (``PROVGRAPH_PROJECT``)."""
    if not bootstrap_key:
        return None
    if hmac.compare_digest(hash_token(token), hash_token(bootstrap_key)):
        return Principal(project=project, role=Role.ADMIN, key_id=BOOTSTRAP_KEY_ID)
    return None
