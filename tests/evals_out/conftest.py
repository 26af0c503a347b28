"""A real Arize Phoenix server (SQLite, 127.0.0.1) for the session, from its own venv.

Phoenix pins many packages that conflict with the project's, so
``deploy/phoenix-env.sh`` installs it into ``~/.cache/provgraph/phoenix-venv-VERSION``
(idempotent; ``deploy/run-tests.sh`` runs it before pytest). The server
gets a temporary working directory (its SQLite database), free HTTP and gRPC
ports, no telemetry, and is stopped at the end of the session.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import free_port

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="session")
def phoenix_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a running Phoenix server."""
    env_script = subprocess.run(
        ["bash", str(ROOT / "deploy/phoenix-env.sh")], capture_output=True, text=True
    )
    if env_script.returncode != 0:
        pytest.fail(f"deploy/phoenix-env.sh failed: {env_script.stderr[-800:]}")
    python = ROOT / env_script.stdout.strip().splitlines()[-1]
    work = tmp_path_factory.mktemp("phoenix")
    port = free_port()
    env = {
        **os.environ,
        "PHOENIX_WORKING_DIR": str(work),
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_PORT": str(port),
        "PHOENIX_GRPC_PORT": str(free_port()),
        "PHOENIX_TELEMETRY_ENABLED": "false",
    }
    log = (work / "server.log").open("w")
    server = subprocess.Popen(
        [str(python), "-m", "phoenix.server.main", "serve"], env=env, stdout=log, stderr=log
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            if server.poll() is not None:
                pytest.fail(f"Phoenix exited: {(work / 'server.log').read_text()[-1500:]}")
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("Phoenix did not answer /healthz within 180 s")
            time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


# the verified multi-agent session (embedded and Neo4j stores) shared with the lineage tests
from tests.lineage_out.conftest import cli, verified_session  # noqa: E402, F401
