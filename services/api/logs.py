"""Structured JSON logs with a request id carried in a context variable.

One JSON object per line on stderr, so log shippers need no parser config; the
request id comes from ``X-Request-ID`` when the caller sends a sane one (so a
runtime can correlate its retries) and is generated otherwise.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

REQUEST_ID_HEADER = "X-Request-ID"
_request_id: ContextVar[str | None] = ContextVar("provgraph_request_id", default=None)
_SANE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message", "asctime"}


def current_request_id() -> str | None:
    return _request_id.get()


def set_request_id(value: str | None) -> object:
    return _request_id.set(value)


def request_id_from(header: str | None) -> str:
    """Accept the caller's id only if it is short and printable (it ends up in logs)."""
    if header and _SANE_ID.match(header):
        return header
    return uuid.uuid4().hex


class JsonFormatter(logging.Formatter):
    """``{"ts", "level", "logger", "msg", "request_id", …extra fields}`` per line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        request_id = current_request_id()
        if request_id:
            entry["request_id"] = request_id
        for name, value in record.__dict__.items():
            if name not in _STANDARD and not name.startswith("_"):
                entry[name] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def configure_logging(level: str = "INFO") -> None:
    """Give the ``provgraph`` logger a JSON handler once (idempotent across app factories)."""
    logger = logging.getLogger("provgraph")
    logger.setLevel(level.upper())
    if not any(getattr(h, "_provgraph_json", False) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        handler._provgraph_json = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
        logger.propagate = False
