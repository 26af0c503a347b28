"""Which session the spans of one trace land in (pure).

One trace is one session: a coordinator and the sub-agents it calls through
tools share a trace, and their provenance is only useful in one graph. The
session is named, in this order, by

1. a session the application named on any span of the trace
   (``provgraph.session_id``, OpenInference ``session.id``): the earliest wins;
2. ``gen_ai.conversation.id`` of the trace's *outermost* classified span: one
   whose ancestors in the export are all unclassified (HTTP, DB …) up to the
   trace root. pydantic-ai gives every agent run its own conversation id, so a
   nested run's id must not split the trace;
3. a session already stored for the trace (the caller looks up the stored
   parent of a span that arrived without its ancestors);
4. otherwise the provisional ``trace-<id>`` session, which the endpoint moves
   into the real one when a later export names it (``routing.adopt_events``).

A span exported without its parent cannot tell whether it is outermost, so
with one-span exports (``SimpleSpanProcessor``) the trace stays provisional
until its root arrives — which it does last, as parents end after children.
"""

from __future__ import annotations

from collections.abc import Mapping

from provgraph.otlp.classify import GENERIC, SpanInfo
from provgraph.otlp.decode import SpanRecord

SpanKey = tuple[str, str]


def _outermost(
    key: SpanKey, spans: Mapping[SpanKey, SpanRecord], infos: Mapping[SpanKey, SpanInfo]
) -> bool:
    """Every ancestor is in the export and unclassified, up to the root."""
    parent = spans[key].parent_span_id
    seen = {key}
    while parent:
        pkey = (key[0], parent)
        if pkey in seen or pkey not in spans or infos[pkey].kind != GENERIC:
            return False
        seen.add(pkey)
        parent = spans[pkey].parent_span_id
    return True


def trace_sessions(
    spans: Mapping[SpanKey, SpanRecord],
    infos: Mapping[SpanKey, SpanInfo],
    stored: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """trace id → session named by rules 1–3 (traces without one are absent)."""
    named: dict[str, str] = {}
    conversations: dict[str, str] = {}
    for key in sorted(infos, key=lambda k: (spans[k].start_time_unix_nano, k[1])):
        info, trace = infos[key], key[0]
        if info.session_id and trace not in named:
            named[trace] = info.session_id
        if (
            info.conversation_id
            and info.kind != GENERIC
            and trace not in conversations
            and _outermost(key, spans, infos)
        ):
            conversations[trace] = info.conversation_id
    for trace, conversation in conversations.items():
        named.setdefault(trace, conversation)
    for trace, session in (stored or {}).items():
        named.setdefault(trace, session)
    return named
