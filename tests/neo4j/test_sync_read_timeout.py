"""The sync adapter's reads (workers, CLI) carry the same server-side timeout as the API's.

Real Neo4j: a read that would count for minutes is stopped by the server after
``PROVGRAPH_NEO4J_READ_TIMEOUT_S`` and becomes a retryable ``StoreTimeoutError``
(a Celery retry in a worker), and the store keeps working afterwards.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from provgraph.config import Settings
from provgraph.errors import RetryableError, StoreTimeoutError
from provgraph.store.neo4j import Neo4jGraphStore
from provgraph.store.neo4j.driver import ConnectionConfig
from provgraph.store.neo4j.operations import Statement

pytestmark = pytest.mark.neo4j


def endless() -> Generator[Statement, list[Any], list[Any]]:
    """Test-only statement: minutes of counting (one row at the end) unless the server stops it."""
    records = yield Statement(
        "UNWIND range(1, 1000000000) AS x WITH x WHERE x % 7 = 0 RETURN count(*) AS n"
    )
    return records


def test_a_worker_read_past_its_timeout_is_stopped_with_a_clear_error(neo4j_uri: str) -> None:
    settings = Settings(neo4j_uri=neo4j_uri, neo4j_read_timeout_s=0.5)
    store = Neo4jGraphStore(ConnectionConfig.from_settings(settings))
    try:
        with pytest.raises(StoreTimeoutError) as caught:
            store._run("endless", endless, write=False)
        assert store.get_node("p-timeout", "missing") is None  # the store still answers
    finally:
        store.close()
    message = str(caught.value)
    assert isinstance(caught.value, RetryableError)
    assert "PROVGRAPH_NEO4J_READ_TIMEOUT_S" in message and "bolt://" not in message
