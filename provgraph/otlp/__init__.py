"""OTLP trace ingestion, pure part: decode an export, classify spans, build native events.

The HTTP endpoint (``services/api/otlp_route.py``) is a thin shell over
:func:`decode_export`, :func:`group_by_project` and :func:`spans_to_events`.
"""

from __future__ import annotations

from provgraph.otlp.attrs import Document, messages_text
from provgraph.otlp.builder import Conversion, SpanRejection, node_id
from provgraph.otlp.classify import SpanInfo, classify_span
from provgraph.otlp.convert import spans_to_events
from provgraph.otlp.decode import (
    OtlpDecodeError,
    SpanEventRecord,
    SpanRecord,
    decode_export,
    decompress,
    is_json,
)
from provgraph.otlp.failure import SpanFailure, span_failure
from provgraph.otlp.routing import adopt_events, group_by_project, resolve_project, trace_session
from provgraph.otlp.sources import SOURCE_TOOLS_HEADER, header_key, next_keys, tool_names

__all__ = [
    "SOURCE_TOOLS_HEADER",
    "Conversion",
    "Document",
    "OtlpDecodeError",
    "SpanEventRecord",
    "SpanFailure",
    "SpanInfo",
    "SpanRecord",
    "SpanRejection",
    "adopt_events",
    "classify_span",
    "decode_export",
    "decompress",
    "group_by_project",
    "header_key",
    "is_json",
    "messages_text",
    "next_keys",
    "node_id",
    "resolve_project",
    "span_failure",
    "spans_to_events",
    "tool_names",
    "trace_session",
]
