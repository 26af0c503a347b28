"""A non-editable install migrates and serves: the wheel carries the Cypher schema.

Builds a wheel from a copy of the sources (the checkout stays clean), installs
it with ``--no-deps`` into a fresh virtual environment, and runs that
environment's Python with the shared environment's site-packages on
``PYTHONPATH`` for the dependencies only: the editable install of the checkout
is a ``.pth`` finder, which ``PYTHONPATH`` does not activate, and the test
checks that ``provgraph`` is imported from the wheel. Then the wheel's code
opens the test Neo4j (which applies and verifies the migrations it ships) and
``provgraph serve`` from the wheel answers ``/readyz`` against it.

The packaged NLI weights are left out of the copy (45 MB to compress, and not
what this test is about).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

PROBE = """
import json, os, sys, uuid
import provgraph
from provgraph.config import Settings
from provgraph.events import Event
from provgraph.store.neo4j import open_neo4j_store
from provgraph.store.neo4j.migrations import SCHEMA_DIR, load_migrations

settings = Settings(neo4j_uri=sys.argv[1], neo4j_password=os.environ.get("PW") or None)
store = open_neo4j_store(settings)
project = "wheel-" + uuid.uuid4().hex[:8]
event = Event.model_validate({
    "id": "e1", "type": "data_read", "timestamp": "2026-01-01T00:00:00Z",
    "session_id": "s", "node_id": "n1", "run_id": "r", "agent_name": "a",
})
result = store.ingest(project, [event])
node = store.get_node(project, "n1")
store.close()
print(json.dumps({
    "provgraph": provgraph.__file__,
    "schema_dir": str(SCHEMA_DIR),
    "migrations": [m.name for m in load_migrations()],
    "accepted": list(result.accepted),
    "stored": node is not None,
}))
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def wheel_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with only the provgraph wheel installed in it."""
    work = tmp_path_factory.mktemp("wheel")
    src = work / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, src / name)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "model")
    for package in ("provgraph", "services"):
        shutil.copytree(REPO / package, src / package, ignore=skip)
    dist = work / "dist"
    pip = [sys.executable, "-m", "pip"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", dist, src],
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("provgraph-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    subprocess.run(
        [
            *pip,
            "--python",
            venv / "bin" / "python",
            "install",
            "--no-deps",
            "--no-index",
            "-q",
            wheel,
        ],
        check=True,
        capture_output=True,
    )
    return venv


def _env(venv: Path, **extra: str) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("PROVGRAPH_", "PYTHON"))}
    return {**keep, "PYTHONPATH": sysconfig.get_paths()["purelib"], **extra}


def test_the_wheel_ships_the_schema_and_migrates(wheel_env: Path, neo4j_uri: str) -> None:
    password = os.environ.get("PROVGRAPH_TEST_NEO4J_PASSWORD", "")
    out = subprocess.run(
        [wheel_env / "bin" / "python", "-c", PROBE, neo4j_uri],
        env=_env(wheel_env, PW=password),
        cwd=wheel_env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["provgraph"].startswith(str(wheel_env)), seen  # the wheel, not the checkout
    assert seen["schema_dir"].startswith(str(wheel_env))
    shipped = sorted(p.name for p in (REPO / "provgraph/store/neo4j/schema").glob("*.cypher"))
    assert seen["migrations"] == shipped and shipped
    assert seen["accepted"] == ["e1"] and seen["stored"]


def test_provgraph_serve_from_the_wheel_is_ready_on_neo4j(
    wheel_env: Path, neo4j_uri: str, tmp_path: Path
) -> None:
    port = _free_port()
    env = _env(
        wheel_env,
        PROVGRAPH_NEO4J_URI=neo4j_uri,
        PROVGRAPH_NEO4J_PASSWORD=os.environ.get("PROVGRAPH_TEST_NEO4J_PASSWORD", ""),
        PROVGRAPH_HOME=str(tmp_path / "home"),
    )
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        [wheel_env / "bin" / "provgraph", "serve", "--no-auth", "--port", str(port)],
        env=env,
        cwd=wheel_env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 120
        status = None
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5) as r:
                    status = r.status
                    break
            except OSError:
                time.sleep(0.5)
        text = (tmp_path / "serve.log").read_text(errors="replace")
        assert status == 200, text[-3000:]
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
