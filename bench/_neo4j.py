"""The Neo4j a benchmark runs against: the configured one, or a throwaway it starts itself.

``PROVGRAPH_NEO4J_URI`` (the project's setting, with user and password) wins;
otherwise a fresh instance (auth off, free port, temporary data folder) is
started through the project's entry point, :mod:`provgraph.ops.neo4j_server`,
and stopped again when the benchmark ends, even on failure.
"""

from __future__ import annotations

import socket
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from provgraph.config import Settings, load_settings


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def neo4j_for_benchmark(
    batch_size: int, heap: str = "1g", pagecache: str = "512m"
) -> Iterator[tuple[Settings, bool]]:
    """Settings for the server to use, and whether it was started here (with this
    JVM heap and page cache: a configured server keeps its own sizes)."""
    settings = load_settings()
    if settings.neo4j_uri:
        yield settings.model_copy(update={"neo4j_batch_size": batch_size}), False
        return
    from provgraph.ops.neo4j_server import start_neo4j, stop_neo4j

    with tempfile.TemporaryDirectory(prefix="provgraph-bench-neo4j-") as folder:
        data_dir = Path(folder)
        handle = start_neo4j(
            data_dir, bolt_port=_free_port(), auth=False, heap=heap, pagecache=pagecache
        )
        try:
            yield Settings(neo4j_uri=handle.uri, neo4j_batch_size=batch_size), True
        finally:
            stop_neo4j(data_dir)
