"""A real Redis Sentinel set for the tests: a master, a replica and one sentinel.

Debian's ``redis-server`` runs all three (``redis-server sentinel.conf
--sentinel`` is the sentinel mode of the same binary). Each gets a free port on
127.0.0.1 and its own folder; the master requires a password (so the URL's
password reaches the master through the sentinel). One sentinel with quorum 1
may fail over on its own; ``down-after-milliseconds`` is 1 s so a killed
master is replaced within seconds.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from provgraph.ops import _process

MASTER_NAME = "pgmaster"
PASSWORD = "sentinel-test-pw"
START_TIMEOUT = 30.0


@dataclass
class SentinelSet:
    """The running processes and their ports."""

    root: Path
    master_port: int = 0
    replica_port: int = 0
    sentinel_port: int = 0
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"sentinel://:{PASSWORD}@127.0.0.1:{self.sentinel_port}/0"

    def client(self, port: int, password: str | None = PASSWORD) -> Any:
        import redis

        return redis.Redis(host="127.0.0.1", port=port, password=password, socket_timeout=2)

    def master_address(self) -> tuple[str, int] | None:
        """What the sentinel currently names as the master."""
        reply = self.client(self.sentinel_port, None).execute_command(
            "SENTINEL", "get-master-addr-by-name", MASTER_NAME
        )
        if not reply:
            return None
        host, port = reply
        return (host.decode() if isinstance(host, bytes) else host, int(port))

    def settled(self) -> bool:
        """The sentinel sees its master up (what clients check before using it)."""
        state = self.client(self.sentinel_port, None).sentinel_master(MASTER_NAME)
        return bool(state["is_master"] and not state["is_sdown"] and not state["is_odown"])

    def kill(self, name: str) -> None:
        popen = self.processes[name]
        if popen.poll() is None:
            popen.send_signal(signal.SIGKILL)
        popen.wait(timeout=10)

    def stop(self) -> None:
        for popen in self.processes.values():
            if popen.poll() is None:
                popen.terminate()
        for popen in self.processes.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                popen.wait(timeout=10)
            if popen.poll() is None:
                popen.kill()
                popen.wait(timeout=10)

    def logs(self) -> str:
        return "\n".join(
            f"--- {log.name} ---\n" + "\n".join(log.read_text(errors="replace").splitlines()[-20:])
            for log in sorted(self.root.glob("*.log"))
        )


def _spawn(root: Path, name: str, argv: list[str]) -> subprocess.Popen[bytes]:
    with (root / f"{name}.log").open("wb") as log:
        return subprocess.Popen(argv, cwd=root, stdout=log, stderr=subprocess.STDOUT)


def _wait(check: Any, what: str, servers: SentinelSet, timeout: float = START_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if check():
                return
        time.sleep(0.2)
    raise RuntimeError(f"{what} not within {timeout:.0f}s\n{servers.logs()}")


def start_sentinel_set(root: Path) -> SentinelSet:
    """Start master, replica and sentinel; return once the sentinel knows the replica."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server not found (apt-get install -y redis-server)")
    servers = SentinelSet(root)
    servers.master_port, servers.replica_port, servers.sentinel_port = (
        _process.free_port(),
        _process.free_port(),
        _process.free_port(),
    )
    common = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    auth = ["--requirepass", PASSWORD, "--masterauth", PASSWORD]
    for name, port, extra in (
        ("master", servers.master_port, []),
        ("replica", servers.replica_port, ["--replicaof", "127.0.0.1", str(servers.master_port)]),
    ):
        folder = root / name
        folder.mkdir()
        argv = [binary, "--port", str(port), "--dir", str(folder), *common, *auth, *extra]
        servers.processes[name] = _spawn(root, name, argv)
    try:
        _wait(
            lambda: (
                servers.client(servers.replica_port).info("replication")["master_link_status"]
                == "up"
            ),
            "replica in sync",
            servers,
        )
        conf = root / "sentinel.conf"  # the sentinel rewrites it: it must be its own file
        conf.write_text(
            f"port {servers.sentinel_port}\nbind 127.0.0.1\ndir {root}\n"
            f"sentinel monitor {MASTER_NAME} 127.0.0.1 {servers.master_port} 1\n"
            f"sentinel auth-pass {MASTER_NAME} {PASSWORD}\n"
            f"sentinel down-after-milliseconds {MASTER_NAME} 1000\n"
            f"sentinel failover-timeout {MASTER_NAME} 5000\n",
            encoding="utf-8",
        )
        servers.processes["sentinel"] = _spawn(root, "sentinel", [binary, str(conf), "--sentinel"])
        _wait(
            lambda: servers.client(servers.sentinel_port, None).execute_command(
                "SENTINEL", "replicas", MASTER_NAME
            ),
            "the sentinel discovering the replica",
            servers,
        )
    except BaseException:
        servers.stop()
        raise
    return servers


def wait_for_failover(servers: SentinelSet, timeout: float = 60.0) -> tuple[str, int]:
    """Block until the sentinel names the replica as master (after the master died)."""
    _wait(
        lambda: servers.master_address() == ("127.0.0.1", servers.replica_port),
        "failover to the replica",
        servers,
        timeout,
    )
    _wait(
        lambda: servers.client(servers.replica_port).info("replication")["role"] == "master",
        "the replica promoted",
        servers,
        timeout,
    )
    _wait(lambda: servers.settled(), "the sentinel's view of the new master settled", servers)
    return ("127.0.0.1", servers.replica_port)
