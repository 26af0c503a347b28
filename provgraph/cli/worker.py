"""``provgraph worker`` and ``provgraph worker-health``: run and probe verification workers.

This module never imports Celery: it calls into ``services.worker``, which does,
so that a CLI without the worker extra still starts (the command then says
what to install).
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
    try:
        from services.worker.run import run_worker
    except ImportError as exc:
        raise fail(f"{_MISSING} ({exc})") from None
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
    try:
        from services.worker.health import worker_health as probe
    except ImportError as exc:
        raise fail(f"{_MISSING} ({exc})") from None
    health = probe(timeout=timeout)
    console.print_json(json.dumps(health.as_dict()))
    if not health.ok:
        raise typer.Exit(1)
