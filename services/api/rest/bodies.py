"""Reading an ingestion body safely: size caps before and after gunzip, content types, JSON.

The body is streamed and counted, so a client lying in ``Content-Length`` (or
sending none) still cannot make the server buffer more than
``max_body_bytes``; gzip output is capped the same way (a zip bomb stops at
the limit, it is never inflated in full).

JSON is read so that no input can make the parser fail with anything but a
4xx: nesting deeper than Python's recursion limit becomes a 422 naming the
line, column and event; an integer literal too long for Python's int/str
limit becomes a marker (:class:`~provgraph.json_values.OversizedInt`) that
event validation rejects with its field path, keeping the rest of the batch.
"""

from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request

from provgraph.json_values import MAX_DEPTH, MAX_INT_DIGITS, OversizedInt
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


def _int_or_marker(literal: str) -> int | OversizedInt:
    digits = len(literal) - literal.startswith("-")
    return OversizedInt(digits) if digits > MAX_INT_DIGITS else int(literal)


def loads_bounded(text: str | bytes) -> Any:
    """``json.loads`` that never fails on a long integer (see :class:`OversizedInt`).

    Raises ``RecursionError`` for nesting deeper than the interpreter allows and
    ``json.JSONDecodeError`` / ``UnicodeDecodeError`` as ``json.loads`` does.
    """
    return json.loads(text, parse_int=_int_or_marker)


_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{},\n]')


_DATA_HINT = f"; event data may nest at most {MAX_DEPTH} levels"


def too_deep_message(body: bytes, what: str = "body", hint: str = _DATA_HINT) -> str:
    """Where ``body`` first nests deeper than the documented limit: line, column, element."""
    depth = element = 0
    line, line_start = 1, 0
    for match in _TOKEN.finditer(body):
        token = match.group()
        if token == b"\n":
            line, line_start = line + 1, match.end()
        elif token in (b"[", b"{"):
            depth += 1
            if depth > MAX_DEPTH + 2:  # the batch array, the event object, then data's levels
                column = match.start() - line_start + 1
                where = (
                    f"line {line} column {column} (element [{element}])"
                    if what == "body"
                    else f"column {column}"
                )
                return (
                    f"{what} nests JSON arrays/objects deeper than this server parses, first "
                    f"past {MAX_DEPTH + 2} levels at {where}{hint}"
                )
        elif token in (b"]", b"}"):
            depth -= 1
        elif token == b"," and depth == 1:
            element += 1
    return f"{what} nests JSON arrays/objects deeper than this server parses"


def parse_json_array(body: bytes) -> list[Any]:
    """A JSON array of anything (each element is validated as an event later)."""
    try:
        value = loads_bounded(body)
    except UnicodeDecodeError as exc:
        raise MalformedBodyError("body is not UTF-8") from exc
    except RecursionError as exc:
        raise MalformedBodyError(too_deep_message(body)) from exc
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
            items.append(loads_bounded(line))
        except RecursionError:
            message = too_deep_message(line.encode("utf-8", "surrogatepass"), f"line {number}")
            items.append(UnparseableLine(message))
        except json.JSONDecodeError as exc:
            items.append(UnparseableLine(f"line {number} is not valid JSON: {exc.msg}"))
    return items
