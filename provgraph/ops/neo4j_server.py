"""Start, stop and inspect a real Neo4j 5.26 Community server on this machine.

The server is the official one: ``org.neo4j.server.CommunityEntryPoint`` (what
``bin/neo4j`` runs in its child JVM) on jars assembled from Maven Central by
:func:`ensure_neo4j_installed`.  One instance = one data directory holding its
generated ``conf/neo4j.conf``, databases, logs, ``neo4j.pid``,
``neo4j-console.log`` (JVM stdout/stderr), ``instance.json`` (port, auth) and,
with auth on, ``credentials.env``.

Constraints and reasons:

* The JVM runs detached (own session) so it outlives the command that started
  it; the pid file plus an exact ``--home-dir=<data_dir>`` argv match identify
  it, so a reused pid is never taken for our server.
* Ready means ``RETURN 1`` on database ``neo4j`` succeeds, polled every 0.5 s
  within ``timeout`` (120 s default; a start measured 18 s on a quiet 2-core
  box and up to 75 s on the same box at load 15).  If the JVM exits meanwhile
  we fail at once with its own log lines; if another process owns the Bolt
  port we fail instead of talking to it.
* Auth is on by default.  The password (given, found in ``credentials.env``,
  or generated) is installed before the first start with the admin tool's
  ``dbms set-initial-password``; a data directory first started with auth off
  gets it through ``ALTER CURRENT USER`` as ``neo4j``/``neo4j`` instead.
* Stop = SIGTERM, up to 30 s for Neo4j's clean shutdown, then SIGKILL.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from provgraph.ops import _process as proc
from provgraph.ops.credentials import (
    MIN_PASSWORD_LENGTH,
    PASSWORD_VAR,
    generate_password,
    read_credentials,
    write_credentials,
)
from provgraph.ops.errors import AuthSetupError, StartError
from provgraph.ops.neo4j_config import instance_dirs, jvm_args, render_neo4j_conf
from provgraph.ops.neo4j_install import ENTRY_POINT, ensure_neo4j_installed, neo4j_version
from provgraph.ops.neo4j_probe import Probe, change_initial_password, probe
from provgraph.ops.status import ServiceStatus
from provgraph.ops.tools import find_java

__all__ = [
    "DEFAULT_BOLT_PORT",
    "Neo4jHandle",
    "ensure_neo4j_installed",
    "neo4j_status",
    "start_neo4j",
    "stop_neo4j",
]

DEFAULT_BOLT_PORT = 7687
DEFAULT_USER = "neo4j"
PID_NAME = "neo4j.pid"
CONSOLE_LOG = "neo4j-console.log"
INSTANCE_NAME = "instance.json"
_POLL_S = 0.5
_EXIT_HINTS = {
    3: "exit code 3 means heap + page cache exceed memory, or logging set-up failed",
}


@dataclass(frozen=True)
class Neo4jHandle:
    """A running instance: how to reach it and where it lives.

    ``password`` is ``None`` when auth is off.  ``startup_s`` is how long this
    call waited for readiness (0 when the instance was already running).
    """

    pid: int
    uri: str
    user: str
    password: str | None
    data_dir: Path
    bolt_port: int = DEFAULT_BOLT_PORT
    auth: bool = True
    startup_s: float = 0.0

    @property
    def driver_auth(self) -> tuple[str, str] | None:
        """The ``auth`` argument for ``neo4j.GraphDatabase.driver``."""
        return (self.user, self.password) if self.auth and self.password is not None else None


def _uri(port: int) -> str:
    return f"bolt://127.0.0.1:{port}"


def _home_marker(data_dir: Path) -> str:
    return f"--home-dir={data_dir}"


def _running_pid(data_dir: Path) -> int | None:
    marker = _home_marker(data_dir)
    return proc.owned_pid(data_dir / PID_NAME, lambda pid: proc.has_arg(pid, marker))


def _read_instance(data_dir: Path) -> dict[str, object]:
    try:
        loaded = json.loads((data_dir / INSTANCE_NAME).read_text())
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _server_logs(data_dir: Path) -> list[str]:
    """The evidence shown when start-up fails: the server's own last log lines."""
    out: list[str] = []
    dirs = instance_dirs(data_dir)
    console = [line for line in proc.tail(data_dir / CONSOLE_LOG, 15) if line.strip()]
    if console:
        out += [f"--- {data_dir / CONSOLE_LOG}", *console]
    user_log = proc.tail(dirs["logs"] / "neo4j.log", 12)
    if user_log:
        out += [f"--- {dirs['logs'] / 'neo4j.log'}", *user_log]
    debug = proc.tail(dirs["logs"] / "debug.log", 400)
    errors = [i for i, line in enumerate(debug) if " ERROR " in line or " WARN " in line]
    if errors:
        first = errors[-1]
        out += [f"--- {dirs['logs'] / 'debug.log'} (last error)", *debug[first : first + 12]]
    return out


def _resolve_password(data_dir: Path, password: str | None) -> str:
    chosen = password or read_credentials(data_dir).get(PASSWORD_VAR) or generate_password()
    if len(chosen) < MIN_PASSWORD_LENGTH:
        raise StartError(f"Neo4j passwords need at least {MIN_PASSWORD_LENGTH} characters")
    return chosen


def _set_initial_password(java: Path, lib: Path, data_dir: Path, password: str) -> None:
    """Run ``neo4j-admin dbms set-initial-password`` (class ``org.neo4j.cli.AdminTool``).

    It writes ``data/dbms/auth.ini``, which Neo4j consumes when it creates the
    ``system`` database; it is therefore only run before the first start.  The
    ``--`` matters: a password starting with ``-`` is otherwise parsed as an
    option (exit 64).
    """
    dirs = instance_dirs(data_dir)
    env = dict(os.environ, NEO4J_HOME=str(data_dir), NEO4J_CONF=str(dirs["conf"]))
    argv = [
        str(java),
        "-cp",
        f"{lib}/*",
        "org.neo4j.cli.AdminTool",
        "dbms",
        "set-initial-password",
        "--",
        password,
    ]
    result = subprocess.run(
        argv, capture_output=True, text=True, env=env, cwd=data_dir, timeout=120, check=False
    )
    if result.returncode != 0:
        lines = (result.stdout + result.stderr).strip().splitlines()[:4]  # picocli: error first
        raise AuthSetupError(
            f"neo4j-admin dbms set-initial-password failed (exit {result.returncode})",
            details=lines,
        )


def start_neo4j(
    data_dir: str | os.PathLike[str],
    bolt_port: int = DEFAULT_BOLT_PORT,
    auth: bool = True,
    password: str | None = None,
    heap: str = "1g",
    pagecache: str = "512m",
    *,
    java_bin: str | os.PathLike[str] | None = None,
    timeout: float = 120.0,
    version: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Neo4jHandle:
    """Start (or find already running) the instance in ``data_dir`` and wait until it answers.

    Idempotent: if this data directory's server already runs on ``bolt_port``
    with the same auth setting, its handle is returned.  Raises
    :class:`ToolMissingError` (java/mvn), :class:`StartError` (port taken, JVM
    exited, not ready in time: the server is then stopped, never left half
    started) or :class:`AuthSetupError`.
    """
    data = Path(data_dir).expanduser().resolve()
    data.mkdir(parents=True, exist_ok=True)
    chosen = _resolve_password(data, password) if auth else None
    running = _running_pid(data)
    if running is not None:
        return _attach(data, running, bolt_port, auth, chosen, timeout)
    java = find_java(java_bin)
    lib = ensure_neo4j_installed(version, cache_dir=cache_dir, java_bin=java)
    if proc.port_in_use(bolt_port):
        raise StartError(
            f"port {bolt_port} is already in use on 127.0.0.1; "
            "pick another with --port / PROVGRAPH_NEO4J_BOLT_PORT"
        )
    dirs = instance_dirs(data)
    for folder in dirs.values():
        folder.mkdir(parents=True, exist_ok=True)
    conf = render_neo4j_conf(
        data_dir=data, lib=lib, bolt_port=bolt_port, auth=auth, heap=heap, pagecache=pagecache
    )
    (dirs["conf"] / "neo4j.conf").write_text(conf)
    if chosen is not None and not (dirs["data"] / "databases" / "system").exists():
        # First start: record the password before anything can fail, then install it.
        write_credentials(data, uri=_uri(bolt_port), user=DEFAULT_USER, password=chosen)
        _set_initial_password(java, lib, data, chosen)
    argv = [
        str(java),
        *jvm_args(heap),
        "-cp",
        f"{dirs['plugins']}/*:{dirs['conf']}/*:{lib}/*",
        ENTRY_POINT,
        _home_marker(data),
        f"--config-dir={dirs['conf']}",
    ]
    started = time.monotonic()
    child = proc.spawn_detached(argv, log_file=data / CONSOLE_LOG, cwd=data)
    proc.write_pid(data / PID_NAME, child.pid)
    instance = {
        "pid": child.pid,
        "bolt_port": bolt_port,
        "uri": _uri(bolt_port),
        "auth": auth,
        "version": neo4j_version(version),
        "java": str(java),
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    (data / INSTANCE_NAME).write_text(json.dumps(instance, indent=2) + "\n")
    try:
        _wait_ready(data, child, bolt_port, chosen, timeout)
    except BaseException:  # OpsError, Ctrl-C, driver surprises: never leave it half started
        proc.terminate(child.pid, grace=10.0)
        raise
    if chosen is not None:  # only now: a wrong --password must not overwrite the right one
        write_credentials(data, uri=_uri(bolt_port), user=DEFAULT_USER, password=chosen)
    return Neo4jHandle(
        pid=child.pid,
        uri=_uri(bolt_port),
        user=DEFAULT_USER,
        password=chosen,
        data_dir=data,
        bolt_port=bolt_port,
        auth=auth,
        startup_s=round(time.monotonic() - started, 2),
    )


def _attach(
    data: Path, pid: int, bolt_port: int, auth: bool, password: str | None, timeout: float
) -> Neo4jHandle:
    instance = _read_instance(data)
    if instance.get("bolt_port") != bolt_port or instance.get("auth") != auth:
        raise StartError(
            f"Neo4j for {data} already runs (pid {pid}) on port {instance.get('bolt_port')} "
            f"with auth {'on' if instance.get('auth') else 'off'}; stop it first to change that"
        )
    _wait_ready(data, None, bolt_port, password, timeout, pid=pid)
    return Neo4jHandle(
        pid=pid,
        uri=_uri(bolt_port),
        user=DEFAULT_USER,
        password=password,
        data_dir=data,
        bolt_port=bolt_port,
        auth=auth,
    )


def _wait_ready(
    data: Path,
    child: subprocess.Popen[bytes] | None,
    port: int,
    password: str | None,
    timeout: float,
    *,
    pid: int | None = None,
) -> None:
    server_pid = child.pid if child is not None else pid
    assert server_pid is not None
    auth = (DEFAULT_USER, password) if password is not None else None
    deadline = time.monotonic() + timeout
    changed_initial = False
    while True:
        code = child.poll() if child is not None else (None if proc.is_alive(server_pid) else -1)
        if code is not None:
            hint = _EXIT_HINTS.get(code, "")
            raise StartError(
                f"Neo4j exited with code {code} during start-up"
                f"{' (' + hint + ')' if hint else ''}; its log follows",
                details=_server_logs(data),
            )
        if _listener_is_foreign(server_pid, port):
            raise StartError(
                f"another process answers on port {port}; choose a free port",
                details=_server_logs(data),
            )
        outcome = (
            probe(_uri(port), auth) if proc.pid_listens_on(server_pid, port) else Probe.NOT_READY
        )
        if outcome is Probe.READY:
            return
        if outcome is Probe.AUTH_REJECTED:
            if changed_initial or password is None:
                raise AuthSetupError(
                    "Neo4j rejects the password in credentials.env; pass the "
                    "right one (--password / PROVGRAPH_NEO4J_PASSWORD) or use a "
                    "fresh data directory",
                    details=_server_logs(data),
                )
            changed_initial = True
            change_initial_password(_uri(port), DEFAULT_USER, password)
            continue
        if time.monotonic() >= deadline:
            raise StartError(
                f"Neo4j did not answer RETURN 1 within {timeout:.0f} s; stopped it",
                details=_server_logs(data),
            )
        time.sleep(_POLL_S)


def _listener_is_foreign(server_pid: int, port: int) -> bool:
    """Whether a LISTEN socket on ``port`` exists that ``server_pid`` does not own.

    Checked twice a short moment apart: a socket our JVM is just binding can
    show up in ``/proc/net/tcp`` before its fd is visible in ``/proc/<pid>/fd``.
    """
    if not proc.listening(port) or proc.pid_listens_on(server_pid, port):
        return False
    time.sleep(0.2)
    return proc.listening(port) and not proc.pid_listens_on(server_pid, port)


def stop_neo4j(data_dir: str | os.PathLike[str], grace: float = 30.0) -> bool:
    """Stop the instance in ``data_dir``: TERM, up to ``grace`` seconds, then KILL.

    Returns True if a server was running (and is now stopped), False if none
    was.  Never signals a process that does not belong to ``data_dir``.
    """
    data = Path(data_dir).expanduser().resolve()
    return proc.stop_and_forget(_running_pid(data), data / PID_NAME, grace)


def neo4j_status(data_dir: str | os.PathLike[str]) -> ServiceStatus:
    """Whether the instance in ``data_dir`` runs, its pid and URI, and whether Bolt accepts."""
    data = Path(data_dir).expanduser().resolve()
    pid = _running_pid(data)
    instance = _read_instance(data)
    port = instance.get("bolt_port")
    uri = _uri(port) if isinstance(port, int) else None
    if pid is None:
        return ServiceStatus("neo4j", running=False, data_dir=data, uri=uri)
    ready = isinstance(port, int) and proc.pid_listens_on(pid, port)
    detail = f"auth {'on' if instance.get('auth') else 'off'}"
    if instance.get("auth"):
        detail += f", credentials in {data / 'credentials.env'}"
    return ServiceStatus(
        "neo4j", running=True, data_dir=data, pid=pid, uri=uri, ready=ready, detail=detail
    )
