"""Where recorded events go: the embedded graph store, a client, or several at once.

A sink takes validated native events and is responsible for delivering them.
The recorder and the pydantic-ai capability depend only on this protocol, so
the same agent code writes to the embedded store (no server) or to the
platform through :class:`~provgraph.sdk.client.ProvgraphClient`.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from provgraph.errors import ValidationError
from provgraph.events import Event
from provgraph.store.port import GraphStore
from provgraph.store.types import IngestResult

DEFAULT_PROJECT = "default"


@runtime_checkable
class EventSink(Protocol):
    """Accepts events for delivery; must not block an event loop for long."""

    def send(self, events: Sequence[Event]) -> None:
        """Take ownership of ``events``; deliver them or raise, never drop silently."""
        ...


class EmbeddedSink:
    """Writes events straight into a :class:`GraphStore` in this process (no server).

    Ingestion is synchronous and durable before ``send`` returns (the embedded
    store fsyncs its log). A rejected event raises :class:`ValidationError`
    rather than being dropped: in-process there is nobody to retry it later.
    """

    def __init__(self, graph_store: GraphStore, project: str = DEFAULT_PROJECT) -> None:
        self.graph_store = graph_store
        self.project = project
        self._lock = threading.Lock()
        self.last_result: IngestResult | None = None

    def send(self, events: Sequence[Event]) -> None:
        if not events:
            return
        with self._lock:
            result = self.graph_store.ingest(self.project, list(events))
            self.last_result = result
        if result.rejected:
            error = result.rejected[0]
            raise ValidationError(
                f"event {error.event_id!r} rejected by the embedded store: {error.reason}",
                path=error.path,
            )


class TeeSink:
    """Sends every event to each sink in order (e.g. a local mirror and the platform).

    The first sink that raises stops the fan-out, so a local validation error is
    reported before anything is queued for the network.
    """

    def __init__(self, *sinks: EventSink) -> None:
        self.sinks: tuple[EventSink, ...] = sinks

    def send(self, events: Sequence[Event]) -> None:
        for sink in self.sinks:
            sink.send(events)


class ListSink:
    """Keeps events in a list (tests, dry runs, and batching by hand)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def send(self, events: Sequence[Event]) -> None:
        self.events.extend(events)
