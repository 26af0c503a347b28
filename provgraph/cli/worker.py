"""``provgraph worker`` and ``provgraph worker-health``: run and probe verification workers.

This module never imports Celery nor the worker service: the worker is started
as ``celery -A services.worker.app`` (:mod:`provgraph.ops.worker_process`) and
probed by ``python -m services.worker.health`` (:mod:`provgraph.ops.worker_health`),
so a CLI without the worker extra still starts (the command then says what to
install).
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from provgraph.cli.common import console, fail, one_line_errors

app = typer.Typer(add_completion=False)

_MISSING = "the worker needs the worker extra: pip install 'provgraph[worker]'"


@app.command("worker")
@one_line_errors
def worker(
    queues: Annotated[
        str, typer.Option("--queues", "-Q", help="Comma-separated queues: light, heavy.")
    ] = "light,heavy",
    concurrency: Annotated[
        int,
        typer.Option("--concurrency", "-c", min=1, help="Worker processes (models per process)."),
    ] = 2,
    beat: Annotated[
        bool,
        typer.Option(
            "--beat/--no-beat", help="Also run the re-enqueue sweep (in one worker only)."
        ),
    ] = True,
    loglevel: Annotated[str, typer.Option("--loglevel", "-l", help="Log level.")] = "INFO",
    hostname: Annotated[
        str | None, typer.Option("--hostname", "-n", help="Worker node name.")
    ] = None,
) -> None:
    """Start a verification worker (needs PROVGRAPH_BROKER_URL; TERM stops it warmly)."""
    import importlib.util

    from provgraph.ops.worker_process import run_worker

    if importlib.util.find_spec("celery") is None:
        raise fail(_MISSING)
    run_worker(
        queues=[q.strip() for q in queues.split(",") if q.strip()],
        concurrency=concurrency,
        loglevel=loglevel,
        beat=beat,
        hostname=hostname,
    )


@app.command("worker-health")
@one_line_errors
def worker_health(
    timeout: Annotated[float, typer.Option(help="Seconds to wait for each probe.")] = 3.0,
) -> None:
    """Check the broker and the workers; exit 1 when no worker answers."""
    import importlib.util

    from provgraph.ops.worker_health import probe_workers

    if importlib.util.find_spec("celery") is None:
        raise fail(_MISSING)
    health = probe_workers(timeout=timeout)
    console.print_json(json.dumps(health))
    if not health.get("ok"):
        raise typer.Exit(1)
