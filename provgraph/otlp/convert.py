"""Turn classified OTLP spans into native events (pure: no store, no HTTP).

Node ids are derived from ``(trace_id, span_id)`` and event ids are
deterministic, so an exporter that re-sends a span produces duplicates the
store recognises. A parent span that is not in this export is named anyway:
the store creates it as a placeholder and fills it in when it arrives.

The steps, each in its own module: classify every span
(:mod:`~provgraph.otlp.classify`), choose each trace's session
(:mod:`~provgraph.otlp.sessions`), arrange the spans that get nodes
(:mod:`~provgraph.otlp.tree`), emit their events
(:mod:`~provgraph.otlp.emit`, data reads per :mod:`~provgraph.otlp.sources`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from provgraph.otlp.builder import Conversion, SpanEventBuilder, SpanRejection
from provgraph.otlp.classify import classify_span
from provgraph.otlp.decode import SpanRecord
from provgraph.otlp.emit import SpanEmitter
from provgraph.otlp.sessions import SpanKey, trace_sessions
from provgraph.otlp.tree import SpanTree

_HEX = re.compile(r"^[0-9a-f]+$")


def _valid_id(value: str, length: int) -> bool:
    return len(value) == length and bool(_HEX.match(value)) and set(value) != {"0"}


def spans_to_events(
    spans: list[SpanRecord],
    *,
    source_tools: frozenset[str] = frozenset(),
    stored_sessions: Mapping[str, str] | None = None,
) -> Conversion:
    """Map one export's spans to events; invalid spans are rejected with a reason.

    ``source_tools`` names tools whose results are data sources (beyond those
    the spans name, :mod:`provgraph.otlp.sources`); ``stored_sessions`` maps
    traces to the session their already-stored spans live in.
    """
    b = SpanEventBuilder()
    valid: dict[SpanKey, SpanRecord] = {}
    for span in spans:
        if not _valid_id(span.trace_id, 32) or not _valid_id(span.span_id, 16):
            b.out.rejections.append(
                SpanRejection(
                    span.trace_id,
                    span.span_id,
                    "traceId must be 32 and spanId 16 hex digits, not all zero",
                )
            )
            continue
        valid[(span.trace_id, span.span_id)] = span
    infos = {k: classify_span(s) for k, s in valid.items()}
    tree = SpanTree(valid, infos, trace_sessions(valid, infos, stored_sessions))
    b.out.trace_sessions.update(tree.sessions)
    SpanEmitter(b, tree, source_tools).emit_all()
    return b.finish()
