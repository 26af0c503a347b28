"""Turning :class:`~provgraph.evals_out.spans.SpanSpec` lists into real OpenTelemetry SDK spans.

The SDK draws span and trace ids from its ``IdGenerator``; a small generator
hands out the ids the plan chose, so the spans any exporter sends carry
provgraph-derived ids. Spans are finished into an in-memory exporter first
and then handed to the caller's exporter in one ``export`` call, whose
result is checked (a refused export is an error, not a log line).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from provgraph.errors import ConfigurationError, ProvgraphError
from provgraph.evals_out.spans import SpanSpec


def _ns(when: datetime) -> int:
    return int(when.timestamp() * 1_000_000_000)


def build_sdk_spans(
    specs: Sequence[SpanSpec], trace_id: int, resource_attributes: dict[str, Any]
) -> list[Any]:
    """Finished ``ReadableSpan`` objects for ``specs`` (parents must precede children)."""
    try:
        from opentelemetry import trace
        from opentelemetry.context import Context
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
            InMemorySpanExporter,
        )
        from opentelemetry.sdk.trace.id_generator import IdGenerator
        from opentelemetry.trace import (
            NonRecordingSpan,
            SpanContext,
            Status,
            StatusCode,
            TraceFlags,
        )
    except ImportError as exc:
        raise ConfigurationError(
            f"the OpenTelemetry SDK is not installed ({exc}); pip install 'provgraph[otel]'"
        ) from None

    class _PlannedIds(IdGenerator):
        next_span_id = 1

        def generate_span_id(self) -> int:
            return self.next_span_id

        def generate_trace_id(self) -> int:
            return trace_id

    ids = _PlannedIds()
    memory = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create(resource_attributes), id_generator=ids)
    provider.add_span_processor(SimpleSpanProcessor(memory))
    tracer = provider.get_tracer("provgraph.evals_out")
    flags = TraceFlags(TraceFlags.SAMPLED)
    for spec in specs:
        context = Context()  # a root span: the generator supplies the session's trace id
        if spec.parent_span_id is not None:
            parent = SpanContext(trace_id, spec.parent_span_id, is_remote=True, trace_flags=flags)
            context = trace.set_span_in_context(NonRecordingSpan(parent))
        ids.next_span_id = spec.span_id
        span = tracer.start_span(
            spec.name, context=context, start_time=_ns(spec.start), attributes=spec.attributes
        )
        if spec.error is not None:
            span.set_status(Status(StatusCode.ERROR, spec.error))
        span.end(end_time=_ns(spec.end))
    provider.shutdown()
    return list(memory.get_finished_spans())


def export_spans(spans: Sequence[Any], exporter: Any) -> None:
    """Send ``spans`` through an OTel ``SpanExporter``; raise when it reports failure."""
    from opentelemetry.sdk.trace.export import SpanExportResult

    result = exporter.export(list(spans))
    exporter.shutdown()
    if result is not SpanExportResult.SUCCESS:
        raise ProvgraphError(f"the span exporter refused {len(spans)} spans ({result.name})")
