"""The provgraph SDK: record agent sessions as native events, deliver them reliably.

* :class:`SessionRecorder` builds events and allocates citation keys locally;
* :class:`ProvgraphClient` / :class:`AsyncProvgraphClient` deliver them to the
  API in batches (bounded buffer, retries, spill to disk, never drop);
* :class:`EmbeddedSink` writes them to a graph store in-process (no server).
"""

from __future__ import annotations

from provgraph.sdk.aio import AsyncProvgraphClient
from provgraph.sdk.client import DeliveryStats, ProvgraphClient
from provgraph.sdk.delivery import PROJECT_HEADER, Backoff, SpillStore, parse_retry_after
from provgraph.sdk.recorder import RecordedNode, SessionRecorder
from provgraph.sdk.sinks import EmbeddedSink, EventSink, ListSink, TeeSink

__all__ = [
    "PROJECT_HEADER",
    "AsyncProvgraphClient",
    "Backoff",
    "DeliveryStats",
    "EmbeddedSink",
    "EventSink",
    "ListSink",
    "ProvgraphClient",
    "RecordedNode",
    "SessionRecorder",
    "SpillStore",
    "TeeSink",
    "parse_retry_after",
]
