"""Embedding vectors cached by (model, text hash): in memory and on disk, shared by processes.

Why: a source is cited by many claims and re-read by many reports; its
windows' vectors depend only on the model and the window text, so they are
computed once. Two layers:

* :class:`MemoryVectorCache` — a bounded LRU per process (always on);
* :class:`SqliteVectorCache` — an SQLite file under the cache folder
  (``PROVGRAPH_CACHE_DIR``, default ``<home>/cache``) that the worker's
  processes share: WAL journal (readers never block the writer), a busy
  timeout, one connection per process opened after fork, and a row cap
  (``PROVGRAPH_EMBEDDING_CACHE_ROWS``): past it the oldest inserted rows are
  deleted (first in, first out — reads never write, so hits stay cheap).
  A 384-dimension float32 vector is 1.5 kB, so 200,000 rows ≈ 300 MB.

Keys are ``(model id, sha256 of the text)``; the model id includes the model's
version fingerprint, so retrained weights never read stale vectors. A cache
that cannot be opened or written degrades to "miss", never to a failed report.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Protocol

import numpy as np

log = logging.getLogger(__name__)


def text_key(text: str) -> str:
    """sha256 hex digest of ``text`` (the cache key of its vector)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class VectorCache(Protocol):
    """Where vectors of one model are looked up and stored."""

    def get_many(self, model: str, keys: list[str]) -> dict[str, np.ndarray]: ...

    def put_many(self, model: str, vectors: dict[str, np.ndarray]) -> None: ...


class MemoryVectorCache:
    """A bounded LRU of vectors in this process (thread-safe)."""

    def __init__(self, max_items: int = 100_000) -> None:
        self._max = max_items
        self._data: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._data)

    def get_many(self, model: str, keys: list[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        with self._lock:
            for key in keys:
                vec = self._data.get((model, key))
                if vec is not None:
                    self._data.move_to_end((model, key))
                    out[key] = vec
        return out

    def put_many(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        with self._lock:
            for key, vec in vectors.items():
                self._data[(model, key)] = vec
                self._data.move_to_end((model, key))
            while len(self._data) > self._max:
                self._data.popitem(last=False)


_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS vectors ("
    " model TEXT NOT NULL, key TEXT NOT NULL, dim INTEGER NOT NULL, vec BLOB NOT NULL,"
    " PRIMARY KEY (model, key))"
)
_CHUNK = 500  # SQLite's default limit on bound parameters is 999 (older builds)


class SqliteVectorCache:
    """Vectors in one SQLite file, shared by every process that opens the same path."""

    def __init__(self, path: str | Path, *, max_rows: int = 200_000) -> None:
        self.path = Path(path)
        self.max_rows = max_rows
        self._conn: sqlite3.Connection | None = None
        self._pid: int | None = None
        self._lock = threading.Lock()
        self._disabled: str | None = None
        self.hits = 0
        self.misses = 0

    def _connection(self) -> sqlite3.Connection | None:
        """This process's connection (a connection must not cross a fork)."""
        if self._disabled:
            return None
        if self._conn is None or self._pid != os.getpid():
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(str(self.path), timeout=10.0, check_same_thread=False)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute(_SCHEMA)
                conn.commit()
            except (sqlite3.Error, OSError) as exc:
                self._disabled = f"{type(exc).__name__}: {exc}"
                log.warning("embedding cache %s disabled: %s", self.path, self._disabled)
                return None
            self._conn, self._pid = conn, os.getpid()
        return self._conn

    def get_many(self, model: str, keys: list[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        with self._lock:
            conn = self._connection()
            if conn is None or not keys:
                return out
            try:
                for i in range(0, len(keys), _CHUNK):
                    part = keys[i : i + _CHUNK]
                    marks = ",".join("?" * len(part))
                    rows = conn.execute(
                        f"SELECT key, dim, vec FROM vectors WHERE model = ? AND key IN ({marks})",
                        [model, *part],
                    ).fetchall()
                    for key, dim, blob in rows:
                        vec = np.frombuffer(blob, dtype=np.float32)
                        if vec.shape[0] == dim:
                            out[str(key)] = vec
            except sqlite3.Error as exc:
                log.info("embedding cache read failed: %s", exc)
        self.hits += len(out)
        self.misses += len(keys) - len(out)
        return out

    def put_many(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        if not vectors:
            return
        with self._lock:
            conn = self._connection()
            if conn is None:
                return
            rows = [
                (model, key, int(v.shape[0]), np.asarray(v, dtype=np.float32).tobytes())
                for key, v in vectors.items()
            ]
            try:
                with conn:
                    conn.executemany(
                        "INSERT OR IGNORE INTO vectors (model, key, dim, vec) VALUES (?, ?, ?, ?)",
                        rows,
                    )
                    self._evict(conn)
            except sqlite3.Error as exc:  # e.g. locked past the timeout, disk full
                log.info("embedding cache write failed: %s", exc)

    def _evict(self, conn: sqlite3.Connection) -> None:
        """Delete the oldest inserted rows beyond ``max_rows`` (rowid order = insertion)."""
        (count,) = conn.execute("SELECT COUNT(*) FROM vectors").fetchone()
        excess = int(count) - self.max_rows
        if excess > 0:
            conn.execute(
                "DELETE FROM vectors WHERE rowid IN "
                "(SELECT rowid FROM vectors ORDER BY rowid LIMIT ?)",
                (excess,),
            )

    def close(self) -> None:
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None


class TieredVectorCache:
    """Memory first, then disk; disk hits are promoted to memory."""

    def __init__(self, memory: MemoryVectorCache, disk: VectorCache | None) -> None:
        self.memory = memory
        self.disk = disk

    def get_many(self, model: str, keys: list[str]) -> dict[str, np.ndarray]:
        found = self.memory.get_many(model, keys)
        if self.disk is not None and len(found) < len(keys):
            rest = [k for k in keys if k not in found]
            from_disk = self.disk.get_many(model, rest)
            if from_disk:
                self.memory.put_many(model, from_disk)
                found.update(from_disk)
        return found

    def put_many(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        self.memory.put_many(model, vectors)
        if self.disk is not None:
            self.disk.put_many(model, vectors)
