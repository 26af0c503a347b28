"""Throwaway Neo4j + Redis for the test suite (``deploy/test-services.sh start|stop|status``).

Both live under ``<repo>/.provgraph/test`` (gitignored; override with
``PROVGRAPH_TEST_DIR``).  Neo4j runs with auth off (a throwaway instance) and
Redis without persistence.  Ports come from ``PROVGRAPH_TEST_NEO4J_PORT`` /
``PROVGRAPH_TEST_REDIS_PORT``, else the running instance's, else a free one.
``start`` writes ``services.env`` with ``PROVGRAPH_TEST_NEO4J_URI`` and
``PROVGRAPH_TEST_REDIS_URL`` for the tests to read; it is idempotent (a second
``start`` reuses running servers), and ``stop`` stops both and removes the file.
The Neo4j wait budget is ``PROVGRAPH_TEST_NEO4J_TIMEOUT`` (default 240 s: a
loaded 2-core CI box has been measured at ~55 s for a start).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from provgraph.ops import _process as proc
from provgraph.ops.errors import OpsError
from provgraph.ops.neo4j_server import neo4j_status, start_neo4j, stop_neo4j
from provgraph.ops.redis_server import redis_status, start_redis, stop_redis

TEST_DIR_ENV = "PROVGRAPH_TEST_DIR"
NEO4J_PORT_ENV = "PROVGRAPH_TEST_NEO4J_PORT"
REDIS_PORT_ENV = "PROVGRAPH_TEST_REDIS_PORT"
TIMEOUT_ENV = "PROVGRAPH_TEST_NEO4J_TIMEOUT"
NEO4J_URI_VAR = "PROVGRAPH_TEST_NEO4J_URI"
REDIS_URL_VAR = "PROVGRAPH_TEST_REDIS_URL"
ENV_FILE = "services.env"


@dataclass(frozen=True)
class TestServices:
    """Where the test servers answer, and the env file that says so."""

    neo4j_uri: str
    redis_url: str
    env_file: Path


def test_root(root: str | os.PathLike[str] | None = None) -> Path:
    """``root``, ``PROVGRAPH_TEST_DIR`` or ``<repo>/.provgraph/test``."""
    if root is not None:
        return Path(root).resolve()
    if os.environ.get(TEST_DIR_ENV):
        return Path(os.environ[TEST_DIR_ENV]).resolve()
    return Path(__file__).resolve().parents[2] / ".provgraph" / "test"


def _port(env_name: str, data_dir: Path, key: str, running: bool) -> int:
    """Port from the environment, else the instance's previous one, else a free one."""
    if os.environ.get(env_name):
        return int(os.environ[env_name])
    try:
        previous = json.loads((data_dir / "instance.json").read_text()).get(key)
    except (OSError, ValueError):
        previous = None
    if isinstance(previous, int) and (running or not proc.port_in_use(previous)):
        return previous
    return proc.free_port()


def start_test_services(root: str | os.PathLike[str] | None = None) -> TestServices:
    """Start (or reuse) the test Neo4j and Redis and write ``services.env``."""
    base = test_root(root)
    neo4j_dir, redis_dir = base / "neo4j", base / "redis"
    redis_was_running = redis_status(redis_dir).running
    redis_port = _port(REDIS_PORT_ENV, redis_dir, "port", redis_was_running)
    redis = start_redis(redis_dir, redis_port, persistent=False)
    neo4j_port = _port(NEO4J_PORT_ENV, neo4j_dir, "bolt_port", neo4j_status(neo4j_dir).running)
    timeout = float(os.environ.get(TIMEOUT_ENV, "240"))
    try:
        neo4j = start_neo4j(neo4j_dir, neo4j_port, auth=False, timeout=timeout)
    except BaseException:
        if not redis_was_running:  # leave nothing behind that a failed `start` began
            stop_redis(redis_dir)
        raise
    env_file = base / ENV_FILE
    tmp = env_file.with_name(ENV_FILE + ".tmp")
    tmp.write_text(f"{NEO4J_URI_VAR}={neo4j.uri}\n{REDIS_URL_VAR}={redis.url}\n")
    tmp.replace(env_file)
    return TestServices(neo4j_uri=neo4j.uri, redis_url=redis.url, env_file=env_file)


def stop_test_services(root: str | os.PathLike[str] | None = None) -> None:
    """Stop both test servers (if running) and remove ``services.env``."""
    base = test_root(root)
    (base / ENV_FILE).unlink(missing_ok=True)
    stop_neo4j(base / "neo4j")
    stop_redis(base / "redis")


def _masked(url: str) -> str:
    """The URL without its password (it is in services.env, not on the terminal)."""
    scheme, sep, rest = url.partition("://")
    if "@" not in rest:
        return url
    return f"{scheme}{sep}:***@{rest.rsplit('@', 1)[1]}"


def main(argv: list[str] | None = None) -> int:
    """``python -m provgraph.ops.services start|stop|status``; one line per outcome."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in ("start", "stop", "status"):
        print("usage: python -m provgraph.ops.services start|stop|status", file=sys.stderr)
        return 2
    try:
        if args[0] == "start":
            services = start_test_services()
            print(
                f"test services up: {services.neo4j_uri} {_masked(services.redis_url)} "
                f"(env in {services.env_file})"
            )
        elif args[0] == "stop":
            stop_test_services()
            print("test services stopped")
        else:
            base = test_root()
            statuses = [neo4j_status(base / "neo4j"), redis_status(base / "redis")]
            for status in statuses:
                print(status.describe())
            return 0 if all(s.running for s in statuses) else 3
    except OpsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        for line in exc.details:
            print(f"  {line}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
