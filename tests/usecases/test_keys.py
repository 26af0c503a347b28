"""The key database is owner-only: created 0600 (WAL/SHM too) and tightened when looser."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from provgraph.errors import ProvgraphError
from provgraph.usecases.keys import KeyOperationError, KeyStore


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_key_file_and_its_wal_are_owner_only(tmp_path: Path) -> None:
    old = os.umask(0o022)  # the usual umask: files would be world-readable by default
    try:
        db = tmp_path / "home" / "keys.sqlite3"
        store = KeyStore(db)
        store.create("acme", "admin")
        wal = db.with_name(db.name + "-wal")
        assert _mode(db) == 0o600
        assert wal.exists() and _mode(wal) == 0o600
        assert _mode(db.parent) == 0o700
        store.close()
    finally:
        os.umask(old)


def test_existing_world_readable_key_file_is_tightened(tmp_path: Path) -> None:
    db = tmp_path / "keys.sqlite3"
    KeyStore(db).close()
    db.chmod(0o644)
    store = KeyStore(db)
    assert _mode(db) == 0o600
    key, token = store.create("acme", "read")
    assert store.authenticate(token) is not None and key.project == "acme"
    store.close()


def test_key_errors_are_provgraph_errors(tmp_path: Path) -> None:
    store = KeyStore(tmp_path / "keys.sqlite3")
    with pytest.raises(ProvgraphError, match="project"):
        store.create("a b", "read")
    with pytest.raises(KeyOperationError, match="role must be one of"):
        store.create("acme", "root")
    store.close()
