"""Process and port helpers shared by the Neo4j and Redis runners.

Linux-only on purpose: liveness and port ownership are read from ``/proc`` so
that a stale pid file (pid reused by an unrelated program) or a port held by
someone else's server is never mistaken for ours.  Servers are spawned in their
own session (``start_new_session``) so that a Ctrl-C in the terminal that
started them does not stop them, and so that stopping can signal the whole
process group.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

_POLL_S = 0.1


def read_pid(pid_file: Path) -> int | None:
    """The pid stored in ``pid_file``, or ``None`` when absent or unreadable."""
    try:
        return int(pid_file.read_text().strip())
    except (OSError, ValueError):
        return None


def write_pid(pid_file: Path, pid: int) -> None:
    """Write ``pid`` atomically (rename) so readers never see a half-written file."""
    tmp = pid_file.with_name(pid_file.name + ".tmp")
    tmp.write_text(f"{pid}\n")
    tmp.replace(pid_file)


def is_alive(pid: int) -> bool:
    """True while ``pid`` runs and is not a zombie.

    Reaps the process first when it is our own child (a dead child stays a
    zombie until waited for, and ``kill(pid, 0)`` succeeds on zombies).
    """
    if pid <= 0:
        return False
    try:
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            return False
    except ChildProcessError:
        pass
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    state = stat.rsplit(")", 1)[-1].split()[0]
    return state not in ("Z", "X")


def cmdline(pid: int) -> list[str]:
    """The argv of ``pid`` (empty when it is gone or unreadable)."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def owned_pid(pid_file: Path, belongs: Callable[[int], bool]) -> int | None:
    """The pid from ``pid_file`` if that process is alive and ``belongs(pid)`` holds.

    ``belongs`` ties the process to one data directory (an exact argv element
    such as ``--home-dir=<dir>``, or its working directory), so that a reused
    pid is never reported, let alone killed, as our server.
    """
    pid = read_pid(pid_file)
    if pid is None or not is_alive(pid):
        return None
    return pid if belongs(pid) else None


def has_arg(pid: int, arg: str) -> bool:
    """True when ``arg`` is one element of the argv of ``pid``."""
    return arg in cmdline(pid)


def has_cwd(pid: int, directory: Path) -> bool:
    """True when the working directory of ``pid`` is ``directory`` (Redis chdirs to ``--dir``)."""
    try:
        return Path(os.readlink(f"/proc/{pid}/cwd")) == directory.resolve()
    except OSError:
        return False


def port_in_use(port: int, host: str = "127.0.0.1") -> bool:
    """True when something accepts connections on ``host:port`` or the port cannot be bound."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        if probe.connect_ex((host, port)) == 0:
            return True
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return True
    return False


def free_port(host: str = "127.0.0.1") -> int:
    """A port the kernel considers free right now (racy by nature; callers re-check)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def _listening_inodes(port: int) -> set[str]:
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) < 10 or fields[3] != "0A":  # 0A = LISTEN
                continue
            if int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(fields[9])
    return inodes


def listening(port: int) -> bool:
    """True when any process has a TCP socket listening on ``port`` (IPv4 or IPv6)."""
    return bool(_listening_inodes(port))


def pid_listens_on(pid: int, port: int) -> bool:
    """True when process ``pid`` owns a listening TCP socket on ``port``.

    Used to make sure the server answering on a port is the one we started and
    not another instance that grabbed the same port first.
    """
    inodes = _listening_inodes(port)
    if not inodes:
        return False
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False
    for fd in fds:
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:[") and target[8:-1] in inodes:
                return True
    return False


def spawn_detached(
    argv: Sequence[str], *, log_file: Path, cwd: Path, env: Mapping[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """Start ``argv`` in its own session, stdin closed, stdout+stderr appended to ``log_file``."""
    with log_file.open("ab") as log:
        return subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=dict(env) if env is not None else None,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            close_fds=True,
        )


def wait_gone(pid: int, timeout: float) -> bool:
    """Poll until ``pid`` has exited; False if it is still alive after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while is_alive(pid):
        if time.monotonic() >= deadline:
            return False
        time.sleep(_POLL_S)
    return True


def _signal(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        try:
            group_leader = os.getpgid(pid) == pid
        except ProcessLookupError:
            return
        if group_leader:
            os.killpg(pid, sig)
        else:
            os.kill(pid, sig)


def terminate(pid: int, grace: float = 30.0) -> bool:
    """SIGTERM, wait up to ``grace`` seconds, then SIGKILL.

    Returns True if the process stopped on TERM (a clean shutdown), False if it
    had to be killed.  Signals the process group when ``pid`` leads one, which
    is the case for everything :func:`spawn_detached` starts.
    """
    if not is_alive(pid):
        return True
    _signal(pid, signal.SIGTERM)
    if wait_gone(pid, grace):
        return True
    _signal(pid, signal.SIGKILL)
    wait_gone(pid, 10.0)
    return False


def stop_and_forget(pid: int | None, pid_file: Path, grace: float) -> bool:
    """Stop an owned server (TERM, ``grace`` s, KILL) and remove its pid file.

    ``pid`` is the caller's verified owner pid (``None`` when nothing of ours runs);
    returns whether a server was running. Shared by the Neo4j and Redis runners.
    """
    if pid is not None:
        terminate(pid, grace=grace)
    pid_file.unlink(missing_ok=True)
    return pid is not None


def tail(path: Path, lines: int = 30) -> list[str]:
    """The last ``lines`` lines of a text file (empty when it does not exist)."""
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - 64 * 1024))
            data = handle.read()
    except OSError:
        return []
    return data.decode(errors="replace").splitlines()[-lines:]
