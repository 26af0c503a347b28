"""Reading an ingestion body safely: size caps before and after gunzip, content types.

The body is streamed and counted, so a client lying in ``Content-Length`` (or
sending none) still cannot make the server buffer more than
``max_body_bytes``; gzip output is capped the same way (a zip bomb stops at
the limit, it is never inflated in full).
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request

from services.api.errors import MalformedBodyError, PayloadTooLargeError, UnsupportedMediaTypeError

JSON_TYPES = frozenset({"application/json"})
JSON_LINES_TYPES = frozenset(
    {
        "application/x-ndjson",
        "application/jsonl",
        "application/x-jsonlines",
        "application/jsonlines",
        "application/json-lines",
        "application/jsonlines+json",
    }
)


@dataclass(frozen=True)
class UnparseableLine:
    """A JSON Lines line that is not JSON: rejected as one event, the rest still ingested."""

    reason: str


def media_type(request: Request) -> str:
    raw = request.headers.get("content-type", "")
    return raw.split(";", 1)[0].strip().lower()


def check_media_type(request: Request) -> str:
    kind = media_type(request)
    if kind in JSON_TYPES or kind in JSON_LINES_TYPES:
        return kind
    raise UnsupportedMediaTypeError(
        f"Content-Type {kind or '(none)'!r} is not accepted: send application/json "
        "(a JSON array of events) or application/x-ndjson (JSON Lines)"
    )


async def read_body(request: Request, limit: int) -> bytes:
    """The decoded body, at most ``limit`` bytes before and after decompression (else 413)."""
    encoding = request.headers.get("content-encoding", "identity").strip().lower()
    if encoding not in ("identity", "gzip", "x-gzip", ""):
        raise UnsupportedMediaTypeError(
            f"Content-Encoding {encoding!r} is not accepted: send gzip or no encoding"
        )
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _too_large(limit)
        chunks.append(chunk)
    body = b"".join(chunks)
    if encoding in ("gzip", "x-gzip"):
        return gunzip_capped(body, limit)
    return body


def gunzip_capped(body: bytes, limit: int) -> bytes:
    inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(body, limit + 1)
        if len(out) > limit or inflater.unconsumed_tail:
            raise _too_large(limit, after_gunzip=True)
        out += inflater.flush()
    except zlib.error as exc:
        raise MalformedBodyError(f"body is not valid gzip: {exc}") from exc
    if len(out) > limit:
        raise _too_large(limit, after_gunzip=True)
    if not inflater.eof:
        raise MalformedBodyError("gzip body is truncated")
    return out


def _too_large(limit: int, *, after_gunzip: bool = False) -> PayloadTooLargeError:
    where = " after decompression" if after_gunzip else ""
    return PayloadTooLargeError(
        f"body exceeds {limit} bytes{where} (PROVGRAPH_MAX_BODY_BYTES): split the batch"
    )


def parse_json_array(body: bytes) -> list[Any]:
    """A JSON array of anything (each element is validated as an event later)."""
    try:
        value = json.loads(body)
    except UnicodeDecodeError as exc:
        raise MalformedBodyError("body is not UTF-8") from exc
    except json.JSONDecodeError as exc:
        raise MalformedBodyError(
            f"body is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from exc
    if not isinstance(value, list):
        raise MalformedBodyError(
            f"body must be a JSON array of events, got a JSON {type(value).__name__} "
            "(for one event per line use Content-Type application/x-ndjson)"
        )
    return value


def parse_json_lines(body: bytes) -> list[Any]:
    """One event per non-blank line; a line that is not JSON becomes :class:`UnparseableLine`."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedBodyError("body is not UTF-8") from exc
    items: list[Any] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            items.append(json.loads(line))
        except json.JSONDecodeError as exc:
            items.append(UnparseableLine(f"line {number} is not valid JSON: {exc.msg}"))
    return items
