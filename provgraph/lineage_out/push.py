"""A stored session's OpenLineage events, exported or pushed through the client's transports.

``transport_for`` picks the ``openlineage-python`` transport from a target:
``http://…``/``https://…`` → ``HttpTransport`` (``POST <url>/api/v1/lineage``
by default; an API key is sent as ``Authorization: Bearer``), ``file://PATH``
→ ``FileTransport`` (JSON Lines appended to PATH), ``console`` →
``ConsoleTransport`` (the client's logger). Every event is sent in order
(parents before children, START before COMPLETE); the first failure stops
the push with a :class:`~provgraph.errors.ProvgraphError` naming the event —
the ids are deterministic, so pushing the session again is safe.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from provgraph.errors import NotFoundError, ProvgraphError, ValidationError
from provgraph.lineage_out.openlineage import require_client, session_run_events
from provgraph.store.port import GraphStore

if TYPE_CHECKING:
    from openlineage.client.event_v2 import RunEvent
    from openlineage.client.transport import Transport


@dataclass(frozen=True)
class PushResult:
    """How many events were sent for how many runs, and to where."""

    events: int
    runs: int
    target: str


def stored_session_events(store: GraphStore, project: str, session_id: str) -> list[RunEvent]:
    """The session's run events with the newest stored report of each output as a facet."""
    graph = store.session_graph(project, session_id)
    if not graph.nodes:
        raise NotFoundError(f"session '{session_id}' has no nodes in project '{project}'")

    def newest_report(output_id: str) -> tuple[dict[str, Any], int] | None:
        stored = store.get_report(project, output_id)
        return None if stored is None else (stored.report, stored.version)

    return session_run_events(graph, project, session_id, reports=newest_report)


def transport_for(
    target: str,
    *,
    api_key: str | None = None,
    endpoint: str = "api/v1/lineage",
    timeout: float = 5.0,
) -> Transport:
    """The client transport for ``target`` (``http(s)://…``, ``file://PATH`` or ``console``)."""
    require_client()
    if target.startswith(("http://", "https://")):
        from openlineage.client.transport.http import (
            ApiKeyTokenProvider,
            HttpConfig,
            HttpTransport,
            TokenProvider,
        )

        auth = ApiKeyTokenProvider({"apiKey": api_key}) if api_key else TokenProvider({})
        config = HttpConfig(url=target, endpoint=endpoint, timeout=timeout, auth=auth)
        return HttpTransport(config)
    if target.startswith("file://"):
        from openlineage.client.transport.file import FileConfig, FileTransport

        path = target.removeprefix("file://")
        if not path:
            raise ValidationError(
                "file:// target needs a path (file:///tmp/lineage.jsonl)", path="url"
            )
        return FileTransport(FileConfig(log_file_path=path, append=True))
    if target == "console":
        from openlineage.client.transport.console import ConsoleConfig, ConsoleTransport

        return ConsoleTransport(ConsoleConfig())
    raise ValidationError(
        f"unsupported OpenLineage target {target!r}: use http(s)://HOST, file://PATH or console",
        path="url",
    )


def push_events(events: list[RunEvent], transport: Transport, *, target: str = "") -> PushResult:
    """Emit ``events`` in order through an ``OpenLineageClient`` on ``transport``."""
    from openlineage.client import OpenLineageClient

    client = OpenLineageClient(transport=transport)
    try:
        for index, event in enumerate(events):
            try:
                client.emit(event)
            except Exception as exc:  # the transports raise requests/OS errors of their own
                raise ProvgraphError(
                    f"OpenLineage push to {target or transport.kind!s} failed at event "
                    f"{index + 1}/{len(events)} ({getattr(event.eventType, 'value', '?')} of job "
                    f"'{event.job.name}'): {exc}"
                ) from exc
    finally:
        client.close(timeout=5.0)
    where = target or str(transport.kind)
    return PushResult(len(events), len({e.run.runId for e in events}), where)


def push_session(
    store: GraphStore,
    project: str,
    session_id: str,
    target: str,
    *,
    api_key: str | None = None,
    endpoint: str = "api/v1/lineage",
    timeout: float = 5.0,
) -> PushResult:
    """Build the session's events from ``store`` and push them to ``target``."""
    events = stored_session_events(store, project, session_id)
    transport = transport_for(target, api_key=api_key, endpoint=endpoint, timeout=timeout)
    return push_events(events, transport, target=target)


def push_after_report(
    store: GraphStore, project: str, output_id: str, target: str, *, api_key: str | None = None
) -> PushResult | None:
    """Push the session of a freshly verified output (``PROVGRAPH_OPENLINEAGE_URL``).

    Called by the worker after it stored a report, so the lineage backend gets
    the verdicts as the ``provgraph_verification`` facet. Returns None when the
    output has no session. Failures raise like :func:`push_session`; the
    caller logs them — a lineage backend being down never fails a verification.
    """
    node = store.get_node(project, output_id)
    if node is None or not node.session_id:
        return None
    return push_session(store, project, node.session_id, target, api_key=api_key)
