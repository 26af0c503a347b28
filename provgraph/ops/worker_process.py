"""Starting a worker (what ``provgraph worker`` calls), by import string.

The CLI never imports the worker service nor Celery: this module builds the
``celery worker`` arguments and replaces the process with
``python -m celery -A services.worker.app worker …``, so Celery imports the
app itself and the signals (TERM: warm shutdown) reach it directly.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from provgraph.config import load_settings
from provgraph.errors import ConfigurationError
from provgraph.usecases.queues import QUEUES

WORKER_APP = "services.worker.app"
"""The worker's Celery app, by import string (``celery -A``)."""


def worker_argv(
    *,
    queues: Sequence[str] = QUEUES,
    concurrency: int = 2,
    loglevel: str = "INFO",
    beat: bool = False,
    hostname: str | None = None,
    pool: str = "prefork",
) -> list[str]:
    """The ``celery worker`` arguments for these options (pure, tested).

    Gossip and mingle are off: they add start-up latency and broker chatter and
    provgraph uses neither (job state is in the graph).
    """
    unknown = [q for q in queues if q not in QUEUES]
    if unknown or not queues:
        raise ConfigurationError(f"queues must be among {', '.join(QUEUES)}, got {list(queues)}")
    if concurrency < 1:
        raise ConfigurationError(f"concurrency must be at least 1, got {concurrency}")
    argv = [
        "worker",
        "-Q",
        ",".join(queues),
        "-c",
        str(concurrency),
        "-l",
        loglevel.upper(),
        "-P",
        pool,
        "--without-gossip",
        "--without-mingle",
    ]
    if beat:
        argv.append("-B")
    if hostname:
        argv += ["-n", hostname]
    return argv


def run_worker(
    *,
    queues: Sequence[str] = QUEUES,
    concurrency: int = 2,
    loglevel: str = "INFO",
    beat: bool = False,
    hostname: str | None = None,
    pool: str = "prefork",
) -> None:
    """Run a worker until it is stopped (TERM: warm shutdown; tasks in flight are redelivered).

    Refuses to start without ``PROVGRAPH_BROKER_URL``: a worker with no broker
    would silently poll localhost.
    """
    settings = load_settings()
    if not settings.uses_broker:
        raise ConfigurationError(
            "PROVGRAPH_BROKER_URL is not set: a worker needs a broker (redis://host:port/db)"
        )
    argv = worker_argv(
        queues=queues,
        concurrency=concurrency,
        loglevel=loglevel,
        beat=beat,
        hostname=hostname,
        pool=pool,
    )
    if beat:
        settings.home.mkdir(parents=True, exist_ok=True)  # beat keeps its schedule file there
    command = celery_command(argv)
    os.execv(command[0], command)


def celery_command(argv: Sequence[str], app: str = WORKER_APP) -> list[str]:
    """``python -m celery -A <app> <argv…>`` with this interpreter (pure, tested)."""
    return [sys.executable, "-m", "celery", "-A", app, *argv]
