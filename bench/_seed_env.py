"""The real predecessor, ``pydantic-ai-provenance``, in its own Python ≥ 3.12 venv.

The package needs Python ≥ 3.12 and provgraph's venv may be older, so the
bench builds a separate venv once (default ``.provgraph/bench/seed-venv``,
git-ignored; reused while it imports the package) with a 3.12+ interpreter
found on PATH (``python3.12``, ``python3.13``) or under pyenv
(``~/.pyenv/versions/3.1[2-9]*``), installs the package from PyPI with pip,
and talks to ``bench/_seed_runner.py`` running there over pipes. Any failure
is returned as a reason string — the bench then says it could not compare,
never pretends.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

RUNNER = Path(__file__).with_name("_seed_runner.py")
PACKAGE = "pydantic-ai-provenance"


def _runs(python: str) -> bool:
    """Does ``python`` start? A pyenv shim is on PATH but fails when the global
    version is another one ("pyenv: python3.12: command not found")."""
    try:
        done = subprocess.run([python, "-c", "pass"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def find_python312() -> str | None:
    """A Python ≥ 3.12 interpreter that starts: PATH first, then pyenv versions by path."""
    candidates = [
        found for n in ("python3.12", "python3.13", "python3.14") if (found := shutil.which(n))
    ]
    for root in sorted(Path.home().glob(".pyenv/versions/3.1[2-9]*"), reverse=True):
        candidates.append(str(root / "bin" / "python"))
    return next((c for c in candidates if _runs(c)), None)


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def ensure_venv(venv: Path, python: str | None) -> tuple[Path | None, str | None]:
    """``(venv python, None)`` with the package importable, or ``(None, reason)``."""
    py = _venv_python(venv)
    probe = [str(py), "-c", "import pydantic_ai_provenance.verification"]
    if py.is_file() and subprocess.run(probe, capture_output=True).returncode == 0:
        return py, None
    python = python or find_python312()
    if python is None:
        return None, "no Python >= 3.12 found (PATH python3.12/3.13, ~/.pyenv/versions/3.12*)"
    steps = [
        [python, "-m", "venv", str(venv)],
        [str(py), "-m", "pip", "install", "-q", PACKAGE],
    ]
    for cmd in steps:
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            return None, f"{' '.join(cmd[:4])} failed: {(done.stderr or done.stdout)[-400:]}"
    if subprocess.run(probe, capture_output=True).returncode != 0:
        return None, f"{PACKAGE} installed in {venv} but does not import"
    return py, None


class SeedProcess:
    """The runner in the predecessor's venv, holding the workload in its own store."""

    def __init__(self, python: Path, text: str, sources: dict[str, str]) -> None:
        self._proc = subprocess.Popen(
            [str(python), str(RUNNER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.info = self._ask({"text": text, "sources": sources})

    def _ask(self, msg: dict[str, Any]) -> dict[str, Any]:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps(msg) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            err = self._proc.stderr.read() if self._proc.stderr else ""
            raise RuntimeError(f"predecessor runner exited: {err[-600:]}")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def run(self, op: str) -> dict[str, Any]:
        """Run ``tfidf`` or ``verify_citations`` once; timing measured inside the runner."""
        return self._ask({"op": op})

    def close(self) -> None:
        if self._proc.poll() is None:
            assert self._proc.stdin is not None
            self._proc.stdin.write(json.dumps({"op": "quit"}) + "\n")
            self._proc.stdin.flush()
            self._proc.wait(timeout=30)
