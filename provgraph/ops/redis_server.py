"""Start, stop and inspect a local Redis (the Celery broker) on this machine.

``redis-server`` comes from Debian (``apt-get install -y redis-server``, done
by :func:`ensure_redis_installed` when it is missing; CI machines are fresh and
we run as root).  One instance = one data directory holding ``redis.pid``,
``redis.log`` and, when persistent, the append-only file.

Constraints and reasons:

* AOF persistence is on by default (``--appendonly yes --dir <data_dir>``) so
  that queued Celery jobs survive a Redis restart; RDB snapshots are off
  (``--save ""``): AOF alone is the durability story, and snapshots would only
  fork a 2-core box at random moments.  Throwaway test instances may pass
  ``persistent=False``.
* Bound to 127.0.0.1 only; protected mode stays on.
* A password is required (``requirepass``), generated like the Neo4j one on
  first start and kept in ``redis-auth.conf`` (mode 0600) in the data
  directory, so a restart keeps it. It reaches Redis through that config file,
  never the command line (``ps`` would show it); ``RedisHandle.url`` carries
  it (``redis://:PASSWORD@127.0.0.1:PORT/0``), status output does not.
* Run in the foreground of a detached session (not ``--daemonize``) so that we
  know its pid at once and can tell "exited during start" from "still
  starting".  Redis chdirs to ``--dir`` and rewrites its process title, so its
  pid is tied to the data directory through its working directory.
* Ready when PING answers; stop = SIGTERM (Redis flushes the AOF), 30 s, KILL.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from provgraph.ops import _process as proc
from provgraph.ops.credentials import generate_password
from provgraph.ops.errors import InstallError, StartError, ToolMissingError
from provgraph.ops.status import ServiceStatus

__all__ = [
    "DEFAULT_REDIS_PORT",
    "RedisHandle",
    "ensure_redis_installed",
    "redis_status",
    "start_redis",
    "stop_redis",
]

DEFAULT_REDIS_PORT = 6379
REDIS_ENV = "PROVGRAPH_REDIS_SERVER"
PID_NAME = "redis.pid"
LOG_NAME = "redis.log"
INSTANCE_NAME = "instance.json"
AUTH_CONF_NAME = "redis-auth.conf"
_POLL_S = 0.1


@dataclass(frozen=True)
class RedisHandle:
    """A running Redis: ``url`` (with the password) is what Celery's ``broker_url`` wants."""

    pid: int
    url: str
    port: int
    data_dir: Path
    persistent: bool = True
    startup_s: float = 0.0


def _url(port: int, password: str | None = None) -> str:
    secret = f":{password}@" if password else ""
    return f"redis://{secret}127.0.0.1:{port}/0"


def _password(data: Path) -> str:
    """The instance's password: read from ``redis-auth.conf``, else generated and written."""
    conf = data / AUTH_CONF_NAME
    try:
        for line in conf.read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == "requirepass" and value.strip():
                return value.strip()
    except OSError:
        pass
    password = generate_password()
    tmp = conf.with_name(conf.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(f"# written by provgraph.ops: the broker password\nrequirepass {password}\n")
    tmp.replace(conf)
    return password


def _find_redis(redis_bin: str | os.PathLike[str] | None) -> Path | None:
    candidate = redis_bin if redis_bin is not None else os.environ.get(REDIS_ENV)
    if candidate:
        found = shutil.which(str(candidate))
        return Path(found) if found else None
    found = shutil.which("redis-server")
    return Path(found) if found else None


def ensure_redis_installed(redis_bin: str | os.PathLike[str] | None = None) -> Path:
    """Return the ``redis-server`` path, installing it with apt-get when absent.

    Needs root (or a configured apt) for the install; runs ``apt-get update``
    once if the first install attempt fails (fresh images ship empty lists).
    Raises :class:`ToolMissingError` / :class:`InstallError` with apt's last lines.
    """
    found = _find_redis(redis_bin)
    if found is not None:
        return found
    if redis_bin is not None or os.environ.get(REDIS_ENV):
        raise ToolMissingError(f"redis-server not found at {redis_bin or os.environ[REDIS_ENV]}")
    apt = shutil.which("apt-get")
    if apt is None:
        raise ToolMissingError(
            "redis-server is not installed and apt-get is unavailable; "
            "install Redis 7 yourself or set " + REDIS_ENV
        )
    if os.geteuid() != 0:
        raise ToolMissingError(
            "redis-server is not installed; run `sudo apt-get install -y "
            "redis-server` (installing needs root)"
        )
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = [apt, "install", "-y", "--no-install-recommends", "redis-server"]
    result = subprocess.run(install, capture_output=True, text=True, env=env, check=False)
    if result.returncode != 0:
        subprocess.run([apt, "update"], capture_output=True, text=True, env=env, check=False)
        result = subprocess.run(install, capture_output=True, text=True, env=env, check=False)
    found = _find_redis(None)
    if result.returncode != 0 or found is None:
        lines = (result.stdout + result.stderr).strip().splitlines()[-10:]
        raise InstallError(
            f"`apt-get install -y redis-server` failed (exit {result.returncode})", details=lines
        )
    return found


def _running_pid(data: Path) -> int | None:
    return proc.owned_pid(data / PID_NAME, lambda pid: proc.has_cwd(pid, data))


def _ping(port: int, password: str | None = None) -> bool:
    try:
        import redis
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ToolMissingError(
            "redis-py is not installed: pip install 'provgraph[worker]'"
        ) from exc
    client: Any = redis.Redis(
        host="127.0.0.1", port=port, password=password, socket_connect_timeout=1, socket_timeout=1
    )
    try:
        return bool(client.ping())
    except (
        redis.exceptions.AuthenticationError,
        redis.exceptions.ConnectionError,
        redis.exceptions.TimeoutError,
        redis.exceptions.BusyLoadingError,
    ):
        return False
    finally:
        client.close()


def _read_instance(data: Path) -> dict[str, object]:
    try:
        loaded = json.loads((data / INSTANCE_NAME).read_text())
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def start_redis(
    data_dir: str | os.PathLike[str],
    port: int = DEFAULT_REDIS_PORT,
    persistent: bool = True,
    *,
    redis_bin: str | os.PathLike[str] | None = None,
    timeout: float = 30.0,
) -> RedisHandle:
    """Start (or find already running) the Redis of ``data_dir`` and wait for PING.

    Idempotent for the same port; raises :class:`StartError` when the port is
    taken, Redis exits (its log lines attached) or PING never answers.
    """
    data = Path(data_dir).expanduser().resolve()
    data.mkdir(parents=True, exist_ok=True)
    password = _password(data)
    running = _running_pid(data)
    if running is not None:
        instance = _read_instance(data)
        if instance.get("port") != port:
            raise StartError(
                f"Redis for {data} already runs (pid {running}) on port "
                f"{instance.get('port')}; stop it first to change the port"
            )
        return RedisHandle(
            pid=running,
            url=_url(port, password),
            port=port,
            data_dir=data,
            persistent=bool(instance.get("persistent", persistent)),
        )
    binary = ensure_redis_installed(redis_bin)
    if proc.port_in_use(port):
        raise StartError(
            f"port {port} is already in use on 127.0.0.1; "
            "pick another with --port / PROVGRAPH_REDIS_PORT"
        )
    argv = [
        str(binary),
        str(data / AUTH_CONF_NAME),
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        str(data),
        "--daemonize",
        "no",
        "--pidfile",
        str(data / "redis-server.pid"),
        "--logfile",
        "",
        "--save",
        "",
        "--appendonly",
        "yes" if persistent else "no",
    ]
    if persistent:
        argv += ["--appendfsync", "everysec"]
    started = time.monotonic()
    child = proc.spawn_detached(argv, log_file=data / LOG_NAME, cwd=data)
    proc.write_pid(data / PID_NAME, child.pid)
    (data / INSTANCE_NAME).write_text(
        json.dumps({"pid": child.pid, "port": port, "url": _url(port), "persistent": persistent})
        + "\n"
    )
    deadline = started + timeout
    while not (proc.pid_listens_on(child.pid, port) and _ping(port, password)):
        code = child.poll()
        if code is not None:
            raise StartError(
                f"redis-server exited with code {code} during start-up",
                details=proc.tail(data / LOG_NAME, 15),
            )
        if time.monotonic() >= deadline:
            proc.terminate(child.pid, grace=5.0)
            raise StartError(
                f"Redis did not answer PING within {timeout:.0f} s; stopped it",
                details=proc.tail(data / LOG_NAME, 15),
            )
        time.sleep(_POLL_S)
    return RedisHandle(
        pid=child.pid,
        url=_url(port, password),
        port=port,
        data_dir=data,
        persistent=persistent,
        startup_s=round(time.monotonic() - started, 2),
    )


def stop_redis(data_dir: str | os.PathLike[str], grace: float = 30.0) -> bool:
    """TERM (Redis fsyncs its AOF and exits), wait ``grace`` s, then KILL.

    Returns True if a server was running, False if none was.
    """
    data = Path(data_dir).expanduser().resolve()
    return proc.stop_and_forget(_running_pid(data), data / PID_NAME, grace)


def redis_status(data_dir: str | os.PathLike[str]) -> ServiceStatus:
    """Whether the Redis of ``data_dir`` runs, its pid and URL, and whether PING answers."""
    data = Path(data_dir).expanduser().resolve()
    pid = _running_pid(data)
    instance = _read_instance(data)
    port = instance.get("port")
    url = _url(port) if isinstance(port, int) else None
    if pid is None:
        return ServiceStatus("redis", running=False, data_dir=data, uri=url)
    ready = isinstance(port, int) and _ping(port, _password(data))
    detail = "AOF on" if instance.get("persistent") else "no persistence"
    return ServiceStatus(
        "redis", running=True, data_dir=data, pid=pid, uri=url, ready=ready, detail=detail
    )
