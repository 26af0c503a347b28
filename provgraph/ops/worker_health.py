"""``provgraph worker-health``: the worker probe, run by import string.

The probe needs a Celery client, and the library imports no queue framework:
like ``provgraph worker`` (:mod:`provgraph.ops.worker_process`), this runs
``python -m services.worker.health`` in a child process and reads the one JSON
object it prints (``ok``, ``broker``, ``workers``, ``queue_depths``, ``error``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from provgraph.errors import ConfigurationError

HEALTH_MODULE = "services.worker.health"
"""The probe, by module name (``python -m``)."""

_START_UP_S = 30.0
"""Allowance for the child's interpreter and imports on top of its probe timeouts."""


def probe_workers(timeout: float = 3.0) -> dict[str, Any]:
    """Run the probe in a child process and return what it saw.

    The child bounds each of its two probes (broker, ping) by ``timeout``; the
    child itself is bounded by both plus a start-up allowance, so a hung broker
    never hangs the command. Raises ``ConfigurationError`` when the child cannot
    run or prints no result (its stderr says why).
    """
    argv = [sys.executable, "-m", HEALTH_MODULE, "--timeout", str(timeout)]
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=2 * timeout + _START_UP_S
        )
    except subprocess.TimeoutExpired as exc:
        raise ConfigurationError(f"the worker probe did not finish in {exc.timeout:.0f} s") from exc
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    try:
        result = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        result = None
    if not isinstance(result, dict):
        tail = (done.stderr or done.stdout).strip()[-400:]
        raise ConfigurationError(f"the worker probe failed (exit {done.returncode}): {tail}")
    return result
