"""Health of the worker service: broker reachable, workers answering, queue depths.

Run by ``provgraph worker-health`` as ``python -m services.worker.health``, so
the library never imports Celery (the CLI starts the worker the same way, by
import string). Every probe is bounded by ``timeout`` so a dead broker makes the
check fail quickly instead of hanging. It talks to the workers through a bare
Celery client configured from the settings and the shared queue names; it does
not import the worker's app or tasks.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from typing import Any

from celery import Celery

from provgraph.config import Settings, load_settings
from provgraph.usecases.publishing import broker_connection, queue_topology
from provgraph.usecases.queues import QUEUES


@dataclass(frozen=True)
class WorkerHealth:
    """What the probes saw; ``ok`` when the broker answers and at least one worker does."""

    broker: bool
    workers: dict[str, Any] = field(default_factory=dict)
    queue_depths: dict[str, int] = field(default_factory=dict)
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.broker and bool(self.workers)

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "broker": self.broker,
            "workers": self.workers,
            "queue_depths": self.queue_depths,
            "error": self.error,
        }


def worker_health(settings: Settings | None = None, *, timeout: float = 3.0) -> WorkerHealth:
    """Probe the broker (connect, queue lengths) and the workers (``control.ping``)."""
    settings = settings or load_settings()
    if not settings.uses_broker:
        return WorkerHealth(broker=False, error="no broker configured (PROVGRAPH_BROKER_URL)")
    app = Celery("provgraph-health", set_as_current=False)
    app.conf.update(**queue_topology(), **broker_connection(settings))
    depths: dict[str, int] = {}
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
            client = conn.default_channel.client
            for queue in QUEUES:
                depths[queue] = int(client.llen(queue))
    except Exception as exc:
        return WorkerHealth(broker=False, error=f"broker unreachable: {exc}")
    try:
        replies = app.control.ping(timeout=timeout) or []
    except Exception as exc:
        return WorkerHealth(broker=True, queue_depths=depths, error=f"ping failed: {exc}")
    workers: dict[str, Any] = {}
    for reply in replies:
        workers.update(reply)
    return WorkerHealth(broker=True, workers=workers, queue_depths=depths)


def main(argv: list[str] | None = None) -> int:
    """Print the probe's result as one JSON object; exit 1 when no worker answers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=3.0)
    args = parser.parse_args(argv)
    health = worker_health(timeout=args.timeout)
    print(json.dumps(health.as_dict()))
    return 0 if health.ok else 1


if __name__ == "__main__":
    sys.exit(main())
