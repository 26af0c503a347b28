"""``make up`` / ``make down``: the whole platform locally on real components.

Neo4j (auth on, generated password), Redis (AOF on), one Celery worker and the
API, each started only if it is not already running (so ``up`` also restarts a
crashed service), each with a pid file in ``.provgraph/run/<service>.pid`` and a
log in ``.provgraph/logs/``. ``up`` writes ``.provgraph/up.env``
(``PROVGRAPH_API_URL``, ``PROVGRAPH_API_KEY`` and the store/broker settings) so
scripts can ``source`` it; ``down`` stops everything in reverse order.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from provgraph.errors import ProvgraphError
from provgraph.ops._process import is_alive, read_pid, spawn_detached, terminate, write_pid
from provgraph.ops.neo4j_server import start_neo4j, stop_neo4j
from provgraph.ops.redis_server import start_redis, stop_redis

API_READY_TIMEOUT_S = 90.0


@dataclass(frozen=True)
class PlatformPaths:
    """Where the local platform keeps its state (all under one folder, gitignored)."""

    root: Path

    @property
    def run(self) -> Path:
        return self.root / "run"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def up_env(self) -> Path:
        return self.root / "up.env"

    @property
    def admin_key(self) -> Path:
        return self.root / "bootstrap-admin.key"

    def pid_file(self, service: str) -> Path:
        return self.run / f"{service}.pid"


def _admin_key(paths: PlatformPaths) -> str:
    """The bootstrap admin key: generated once, kept with mode 600."""
    if paths.admin_key.exists():
        return paths.admin_key.read_text().strip()
    key = "pgk_" + secrets.token_urlsafe(32)
    paths.admin_key.write_text(key + "\n")
    paths.admin_key.chmod(0o600)
    return key


def _running(paths: PlatformPaths, service: str) -> int | None:
    pid = read_pid(paths.pid_file(service))
    return pid if pid is not None and is_alive(pid) else None


def _spawn(paths: PlatformPaths, service: str, argv: list[str], env: dict[str, str]) -> int:
    process = spawn_detached(argv, log_file=paths.logs / f"{service}.log", cwd=Path.cwd(), env=env)
    write_pid(paths.pid_file(service), process.pid)
    return process.pid


def _wait_http(url: str, pid: int, log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not is_alive(pid):
            tail = log.read_text(errors="replace").splitlines()[-20:] if log.exists() else []
            raise ProvgraphError(
                "the API exited while starting; last log lines:\n" + "\n".join(tail)
            )
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.5)
    raise ProvgraphError(f"the API did not answer {url} within {timeout:.0f}s (log: {log})")


def up(paths: PlatformPaths, *, api_port: int, bolt_port: int, redis_port: int) -> dict[str, str]:
    """Start what is not running; return the environment written to ``up.env``."""
    for folder in (paths.root, paths.run, paths.logs):
        folder.mkdir(parents=True, exist_ok=True)
    neo4j = start_neo4j(paths.root / "neo4j", bolt_port=bolt_port, auth=True, timeout=240.0)
    write_pid(paths.pid_file("neo4j"), neo4j.pid)
    redis = start_redis(paths.root / "redis", port=redis_port, persistent=True)
    write_pid(paths.pid_file("redis"), redis.pid)
    admin_key = _admin_key(paths)
    env = {
        "PROVGRAPH_HOME": str(paths.root),
        "PROVGRAPH_NEO4J_URI": neo4j.uri,
        "PROVGRAPH_NEO4J_USER": neo4j.user,
        "PROVGRAPH_NEO4J_PASSWORD": neo4j.password or "",
        "PROVGRAPH_BROKER_URL": redis.url,
        "PROVGRAPH_BOOTSTRAP_ADMIN_KEY": admin_key,
    }
    child_env = {**os.environ, **env}
    bin_dir = Path(sys.executable).parent
    provgraph_bin = str(bin_dir / "provgraph")
    if _running(paths, "worker") is None:
        _spawn(paths, "worker", [provgraph_bin, "worker", "-c", "1", "--beat"], child_env)
    api_pid = _running(paths, "api")
    if api_pid is None:
        api_pid = _spawn(
            paths,
            "api",
            [provgraph_bin, "serve", "--host", "127.0.0.1", "--port", str(api_port)],
            child_env,
        )
    api_url = f"http://127.0.0.1:{api_port}"
    _wait_http(f"{api_url}/healthz", api_pid, paths.logs / "api.log", API_READY_TIMEOUT_S)
    published = {**env, "PROVGRAPH_API_URL": api_url, "PROVGRAPH_API_KEY": admin_key}
    paths.up_env.write_text("".join(f"{k}={v}\n" for k, v in published.items()))
    paths.up_env.chmod(0o600)
    return published


def down(paths: PlatformPaths) -> list[str]:
    """Stop the API, the worker, Redis and Neo4j; return what was stopped."""
    stopped = []
    for service in ("api", "worker"):
        pid = _running(paths, service)
        if pid is not None and terminate(pid, grace=30.0):
            stopped.append(service)
        paths.pid_file(service).unlink(missing_ok=True)
    if stop_redis(paths.root / "redis"):
        stopped.append("redis")
    if stop_neo4j(paths.root / "neo4j"):
        stopped.append("neo4j")
    for service in ("redis", "neo4j"):
        paths.pid_file(service).unlink(missing_ok=True)
    return stopped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("action", choices=["up", "down"])
    parser.add_argument("--root", type=Path, default=Path(".provgraph"))
    parser.add_argument(
        "--api-port", type=int, default=int(os.environ.get("PROVGRAPH_UP_API_PORT", "8000"))
    )
    parser.add_argument(
        "--bolt-port", type=int, default=int(os.environ.get("PROVGRAPH_UP_BOLT_PORT", "7687"))
    )
    parser.add_argument(
        "--redis-port", type=int, default=int(os.environ.get("PROVGRAPH_UP_REDIS_PORT", "6379"))
    )
    args = parser.parse_args(argv)
    paths = PlatformPaths(args.root.resolve())
    try:
        if args.action == "down":
            stopped = down(paths)
            print(f"stopped: {', '.join(stopped) or 'nothing was running'}")
            return 0
        env = up(
            paths, api_port=args.api_port, bolt_port=args.bolt_port, redis_port=args.redis_port
        )
    except ProvgraphError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"API:      {env['PROVGRAPH_API_URL']}  (GraphQL: {env['PROVGRAPH_API_URL']}/graphql)")
    print(f"Neo4j:    {env['PROVGRAPH_NEO4J_URI']}  Redis: {env['PROVGRAPH_BROKER_URL']}")
    print(f"API key:  {env['PROVGRAPH_API_KEY']}  (admin, project 'default')")
    print(f"Settings: {paths.up_env}  (source it: set -a; . {paths.up_env}; set +a)")
    print(f"Logs:     {paths.logs}   pid files: {paths.run}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
