"""Decode an OTLP/HTTP trace export (protobuf or OTLP JSON) into plain span records.

Pure and dependency-light: protobuf decoding imports ``opentelemetry-proto``
lazily (only when a protobuf body arrives). OTLP JSON is decoded by hand
because its ids are hex strings, not the base64 that protobuf's generic JSON
mapping would expect. Attribute values become Python values (lists and
key-value lists included); ids become lowercase hex.
"""

from __future__ import annotations

import base64
import gzip
import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from provgraph.errors import ValidationError

MAX_DECOMPRESSED_BYTES = 64 * 1024 * 1024


class OtlpDecodeError(ValidationError):
    """The body is not a valid OTLP trace export (answered with HTTP 400)."""


@dataclass(frozen=True)
class SpanEventRecord:
    name: str
    time_unix_nano: int
    attributes: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SpanRecord:
    """One span with its resource and scope, in the shape the classifier reads."""

    trace_id: str
    span_id: str
    parent_span_id: str | None
    name: str
    start_time_unix_nano: int = 0
    end_time_unix_nano: int = 0
    attributes: dict[str, Any] = field(default_factory=dict)
    events: tuple[SpanEventRecord, ...] = ()
    resource: dict[str, Any] = field(default_factory=dict)
    scope_name: str = ""
    status_code: int = 0
    status_message: str = ""


def decompress(body: bytes, encoding: str | None) -> bytes:
    """Undo ``Content-Encoding`` (gzip, deflate or identity), bounded against zip bombs."""
    enc = (encoding or "identity").strip().lower()
    if enc in ("", "identity"):
        return body
    try:
        if enc == "gzip":
            decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif enc == "deflate":
            decoder = zlib.decompressobj()
        else:
            raise OtlpDecodeError(f"unsupported Content-Encoding {encoding!r}; use gzip or none")
        out = decoder.decompress(body, MAX_DECOMPRESSED_BYTES + 1)
    except (zlib.error, gzip.BadGzipFile) as exc:
        raise OtlpDecodeError(f"body is not valid {enc}: {exc}") from exc
    if len(out) > MAX_DECOMPRESSED_BYTES:
        raise OtlpDecodeError(f"decompressed body exceeds {MAX_DECOMPRESSED_BYTES} bytes")
    return out


def is_json(content_type: str | None) -> bool:
    return (content_type or "").split(";")[0].strip().lower() == "application/json"


def decode_export(body: bytes, content_type: str | None) -> list[SpanRecord]:
    """Spans of an ``ExportTraceServiceRequest``; OtlpDecodeError when malformed."""
    if is_json(content_type):
        try:
            payload = json.loads(body or b"{}")
        except ValueError as exc:
            raise OtlpDecodeError(f"body is not JSON: {exc}") from exc
        return _from_json(payload)
    return _from_protobuf(body)


# ---------------------------------------------------------------------- protobuf
def _from_protobuf(body: bytes) -> list[SpanRecord]:
    from google.protobuf.message import DecodeError
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    request = ExportTraceServiceRequest()
    try:
        request.ParseFromString(body)
    except DecodeError as exc:
        raise OtlpDecodeError(
            f"body is not an OTLP protobuf ExportTraceServiceRequest: {exc}"
        ) from exc
    spans: list[SpanRecord] = []
    for rs in request.resource_spans:
        resource = {kv.key: _pb_value(kv.value) for kv in rs.resource.attributes}
        for ss in rs.scope_spans:
            for sp in ss.spans:
                spans.append(
                    SpanRecord(
                        trace_id=sp.trace_id.hex(),
                        span_id=sp.span_id.hex(),
                        parent_span_id=sp.parent_span_id.hex() or None,
                        name=sp.name,
                        start_time_unix_nano=sp.start_time_unix_nano,
                        end_time_unix_nano=sp.end_time_unix_nano,
                        attributes={kv.key: _pb_value(kv.value) for kv in sp.attributes},
                        events=tuple(
                            SpanEventRecord(
                                ev.name,
                                ev.time_unix_nano,
                                {kv.key: _pb_value(kv.value) for kv in ev.attributes},
                            )
                            for ev in sp.events
                        ),
                        resource=resource,
                        scope_name=ss.scope.name,
                        status_code=sp.status.code,
                        status_message=sp.status.message,
                    )
                )
    return spans


def _pb_value(value: Any) -> Any:
    kind = value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [_pb_value(v) for v in value.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: _pb_value(kv.value) for kv in value.kvlist_value.values}
    if kind == "bytes_value":
        return base64.b64encode(value.bytes_value).decode()
    return getattr(value, kind)


# ---------------------------------------------------------------------- OTLP JSON
def _from_json(payload: Any) -> list[SpanRecord]:
    if not isinstance(payload, Mapping):
        raise OtlpDecodeError("OTLP JSON body must be an object with resourceSpans")
    resource_spans = payload.get("resourceSpans", payload.get("resource_spans", []))
    if not isinstance(resource_spans, list):
        raise OtlpDecodeError("resourceSpans must be a list", path="resourceSpans")
    spans: list[SpanRecord] = []
    for i, rs in enumerate(resource_spans):
        if not isinstance(rs, Mapping):
            raise OtlpDecodeError("must be an object", path=f"resourceSpans[{i}]")
        resource = _json_attrs((rs.get("resource") or {}).get("attributes"))
        for j, ss in enumerate(rs.get("scopeSpans", rs.get("scope_spans", [])) or []):
            if not isinstance(ss, Mapping):
                raise OtlpDecodeError(
                    "must be an object", path=f"resourceSpans[{i}].scopeSpans[{j}]"
                )
            scope_name = str((ss.get("scope") or {}).get("name", ""))
            for sp in ss.get("spans", []) or []:
                if not isinstance(sp, Mapping):
                    raise OtlpDecodeError(
                        "span must be an object", path=f"resourceSpans[{i}].scopeSpans[{j}].spans"
                    )
                status = sp.get("status") or {}
                spans.append(
                    SpanRecord(
                        trace_id=_json_id(sp.get("traceId", sp.get("trace_id"))),
                        span_id=_json_id(sp.get("spanId", sp.get("span_id"))),
                        parent_span_id=_json_id(sp.get("parentSpanId", sp.get("parent_span_id")))
                        or None,
                        name=str(sp.get("name", "")),
                        start_time_unix_nano=_int(sp.get("startTimeUnixNano")),
                        end_time_unix_nano=_int(sp.get("endTimeUnixNano")),
                        attributes=_json_attrs(sp.get("attributes")),
                        events=tuple(
                            SpanEventRecord(
                                str(ev.get("name", "")),
                                _int(ev.get("timeUnixNano")),
                                _json_attrs(ev.get("attributes")),
                            )
                            for ev in sp.get("events", []) or []
                            if isinstance(ev, Mapping)
                        ),
                        resource=resource,
                        scope_name=scope_name,
                        status_code=_status_code(status.get("code"))
                        if isinstance(status, Mapping)
                        else 0,
                        status_message=str(status.get("message", ""))
                        if isinstance(status, Mapping)
                        else "",
                    )
                )
    return spans


def _int(value: Any) -> int:
    try:
        return int(value) if value not in (None, "") else 0
    except (TypeError, ValueError) as exc:
        raise OtlpDecodeError(f"expected an integer, got {value!r}") from exc


_STATUS_NAMES = {"STATUS_CODE_UNSET": 0, "STATUS_CODE_OK": 1, "STATUS_CODE_ERROR": 2}


def _status_code(value: Any) -> int:
    """``status.code`` as a number; protobuf's JSON mapping also allows the enum name."""
    if isinstance(value, str) and value in _STATUS_NAMES:
        return _STATUS_NAMES[value]
    return _int(value)


def _json_id(value: Any) -> str:
    return str(value).lower() if value else ""


def _json_attrs(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, list):
        return {}
    return {
        str(kv.get("key")): _json_value(kv.get("value"))
        for kv in raw
        if isinstance(kv, Mapping) and "key" in kv
    }


def _json_value(value: Any) -> Any:
    if not isinstance(value, Mapping):
        return value
    if "stringValue" in value:
        return value["stringValue"]
    if "boolValue" in value:
        return bool(value["boolValue"])
    if "intValue" in value:
        return _int(value["intValue"])
    if "doubleValue" in value:
        return float(value["doubleValue"])
    if "arrayValue" in value:
        return [_json_value(v) for v in (value["arrayValue"] or {}).get("values", []) or []]
    if "kvlistValue" in value:
        return _json_attrs((value["kvlistValue"] or {}).get("values"))
    if "bytesValue" in value:
        return value["bytesValue"]
    return None
