"""The API's Celery *client*: publishes tasks by name, registers none, imports no worker.

Configured from the settings (broker URL) and the shared queue topology
(:func:`provgraph.usecases.publishing.queue_topology`), so a message lands in the
queue the worker reads even if no worker has declared it yet. One client per
broker URL and process.
"""

from __future__ import annotations

import threading

from celery import Celery

from provgraph.config import Settings
from provgraph.usecases.publishing import broker_connection, queue_topology

_lock = threading.Lock()
_clients: dict[str, Celery] = {}


def celery_client(settings: Settings) -> Celery:
    """The publishing client for ``settings.broker_url`` (created once per broker and process)."""
    key = f"{settings.broker_url or ''}|{settings.redis_sentinel_master or ''}"
    with _lock:
        client = _clients.get(key)
        if client is None:
            client = Celery("provgraph-api", set_as_current=False)
            client.conf.update(
                broker_connection_retry_on_startup=False,
                task_ignore_result=True,
                **queue_topology(),
                **broker_connection(settings),  # the URL, and the master with Sentinel
            )
            _clients[key] = client
        return client
