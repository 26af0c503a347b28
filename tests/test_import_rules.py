"""The architecture's nevers, as the import-linter contract in pyproject.toml.

``make lint`` runs ``lint-imports`` too; running it here means ``make test``
also fails on a layering break. import-linter reads static imports only, so
a second check closes the ``importlib.import_module("services.worker…")``
back door the API used to have.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept() -> None:
    lint_imports = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint_imports is None:
        pytest.fail("lint-imports is missing: pip install -e '.[dev]' (import-linter)")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [lint_imports, "--no-cache"], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "BROKEN" not in result.stdout and "0 broken" in result.stdout


def test_the_api_names_no_worker_module_even_as_a_string() -> None:
    offenders = [
        str(path.relative_to(REPO))
        for path in (REPO / "services" / "api").rglob("*.py")
        if "services.worker" in path.read_text(encoding="utf-8")
    ]
    assert offenders == []


def test_the_cli_names_services_only_as_import_strings() -> None:
    """The CLI starts the API and the worker by import string; it never imports them."""
    allowed = {"services.api.app:create_app", "services.worker.app"}
    for path in (REPO / "provgraph" / "cli").rglob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            code = line.split("#", 1)[0].strip()
            if code.startswith(("import services", "from services")):
                pytest.fail(f"{path.name} imports a service: {code}")
    source = (REPO / "provgraph" / "ops" / "worker_process.py").read_text(encoding="utf-8")
    assert any(name in source for name in allowed)


def test_the_store_loads_the_seed_facade_only_when_asked() -> None:
    """``provgraph.store`` imports neither the facade, the exporters nor the engine (PEP 562)."""
    code = (
        "import sys, provgraph.store as s;"
        "early=[m for m in sys.modules if m.startswith(('provgraph.provenance_store',"
        " 'provgraph.exports', 'provgraph.verification'))];"
        "cls=s.ProvenanceStore; import provgraph.provenance_store as p;"
        "print(early, cls is p.ProvenanceStore)"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[] True"
