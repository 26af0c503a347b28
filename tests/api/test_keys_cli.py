"""``provgraph keys`` and ``serve`` sub-apps: key lifecycle, and no web framework imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from provgraph.usecases.keys import KeyStore


@pytest.fixture
def keys_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "keys.sqlite3"
    monkeypatch.setenv("PROVGRAPH_KEYS_DB", str(db))
    return db


def test_create_list_revoke(keys_env: Path) -> None:
    from provgraph.cli.keys import app

    runner = CliRunner()
    created = runner.invoke(app, ["create", "--project", "acme", "--role", "read", "--json"])
    assert created.exit_code == 0, created.output
    info = json.loads(created.output)
    assert info["token"].startswith("pgk_") and info["role"] == "read"
    store = KeyStore(keys_env)
    principal = store.authenticate(info["token"])
    assert principal is not None and principal.project == "acme"
    raw = keys_env.read_bytes() + (
        keys_env.with_suffix(".sqlite3-wal").read_bytes()
        if keys_env.with_suffix(".sqlite3-wal").exists()
        else b""
    )
    assert info["token"].encode() not in raw  # only the hash is stored
    listed = runner.invoke(app, ["list"])
    assert info["id"] in listed.output and "active" in listed.output
    assert info["token"] not in listed.output
    revoked = runner.invoke(app, ["revoke", info["id"]])
    assert revoked.exit_code == 0 and store.authenticate(info["token"]) is None
    assert runner.invoke(app, ["revoke", "nope"]).exit_code == 2
    bad_role = runner.invoke(app, ["create", "--project", "acme", "--role", "root"])
    assert bad_role.exit_code != 0
    bad_project = runner.invoke(app, ["create", "--project", "a b", "--role", "read"])
    assert bad_project.exit_code == 2 and "project" in bad_project.output
    store.close()


def test_cli_modules_import_no_web_framework() -> None:
    code = (
        "import sys, provgraph.cli.keys, provgraph.cli.serve;"
        "bad=[m for m in sys.modules if m.split('.')[0] in"
        " ('fastapi','strawberry','celery','uvicorn','starlette')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    for name in ("keys.py", "serve.py"):
        source = (Path(__file__).resolve().parents[2] / "provgraph" / "cli" / name).read_text()
        for line in source.splitlines():
            assert not line.lstrip().startswith(
                (
                    "from fastapi",
                    "import strawberry",
                    "import fastapi",
                    "from strawberry",
                    "import celery",
                    "from celery",
                )
            )


def test_provgraph_serve_runs_the_api(tmp_path: Path) -> None:
    """`provgraph serve --no-auth` on a free port: the embedded store, a loud warning."""
    import os
    import time

    import httpx

    from tests.api.conftest import free_port

    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROVGRAPH_")}
    env["PROVGRAPH_HOME"] = str(tmp_path)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from provgraph.cli.main import main; main()",
            "serve",
            "--no-auth",
            "--port",
            str(port),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "serve did not start"
            time.sleep(0.2)
        r = httpx.post(
            f"http://127.0.0.1:{port}/graphql",
            json={"query": "{ sessions { edges { cursor } } }"},
            timeout=10,
        )
        assert r.json() == {"data": {"sessions": {"edges": []}}}
    finally:
        proc.terminate()
        output = proc.communicate(timeout=30)[0].decode()
    assert "authentication is OFF" in output and "AUTHENTICATION IS OFF" in output
