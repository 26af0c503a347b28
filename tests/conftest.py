"""Shared fixtures: a real Neo4j for the whole test session, and the adapter-parametrised store.

Where the Neo4j server comes from, in order:

1. ``PROVGRAPH_TEST_NEO4J_URI`` (``make test`` sets it from
   ``.provgraph/test/services.env``, written by ``deploy/test-services.sh``);
2. else a throwaway instance started here with
   ``provgraph.ops.neo4j_server.start_neo4j`` (auth off, free port, temporary
   data folder) once per session and stopped at the end;
3. else the Neo4j tests are skipped, saying why.

Tests never share data: each one writes under its own project id (the tenant),
which the adapter's project scoping isolates completely.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from provgraph.config import Settings
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import GraphStore

URI_VAR = "PROVGRAPH_TEST_NEO4J_URI"

pytest_plugins = ["tests.fixtures.fake_openai"]  # the `fake_openai` server fixture


def free_port() -> int:
    """A Bolt port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def neo4j_uri(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Bolt URI of a real Neo4j (auth off), or skip with the reason."""
    given = os.environ.get(URI_VAR)
    if given:
        yield given
        return
    try:
        from provgraph.ops.neo4j_server import start_neo4j, stop_neo4j
    except ImportError as exc:
        pytest.skip(f"no Neo4j: {URI_VAR} is not set and provgraph.ops cannot start one ({exc})")
    data_dir: Path = tmp_path_factory.mktemp("neo4j")
    try:
        handle = start_neo4j(data_dir, bolt_port=free_port(), auth=False)
    except Exception as exc:  # a machine without Java/Maven: skip with the server's reason
        pytest.skip(f"no Neo4j: {URI_VAR} is not set and starting one failed: {exc}")
    try:
        yield str(handle.uri)
    finally:
        stop_neo4j(data_dir)


@pytest.fixture(scope="session")
def neo4j_settings(neo4j_uri: str) -> Settings:
    """Settings pointing at the session's Neo4j (small batches exercise chunking)."""
    return Settings(neo4j_uri=neo4j_uri, neo4j_batch_size=25)


@pytest.fixture(scope="session")
def neo4j_store(neo4j_settings: Settings) -> Iterator[Any]:
    """One migrated sync Neo4j store for the session (tests isolate by project)."""
    from provgraph.store.neo4j import open_neo4j_store

    store = open_neo4j_store(neo4j_settings)
    yield store
    store.close()


@pytest.fixture
def project() -> str:
    """A project id no other test uses."""
    return f"test-{uuid.uuid4().hex[:12]}"


@pytest.fixture(params=["memory", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def store(request: pytest.FixtureRequest) -> Iterator[GraphStore]:
    """Each adapter in turn: a fresh embedded store, or the shared Neo4j store
    (then the test's unique ``project`` keeps its data apart)."""
    if request.param == "memory":
        memory = MemoryGraphStore()
        yield memory
        memory.close()
    else:
        yield request.getfixturevalue("neo4j_store")
