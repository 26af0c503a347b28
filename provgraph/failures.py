"""Failures on the record: bounded error info from exceptions, and its node fields.

A failed step (a run, a model call, a tool) keeps its node; the node gets
``status = error`` and an ``error`` (exception type, message). Only the type
and a bounded message are kept: stack traces carry file paths, local values
and sometimes secrets, and a provenance graph is read far more widely than
the logs that need them.
"""

from __future__ import annotations

from collections.abc import Mapping

from provgraph.events import MAX_ERROR_MESSAGE_CHARS, MAX_ERROR_TYPE_CHARS, ErrorInfo
from provgraph.graph import NodeError, NodeStatus

DEFAULT_MESSAGE_CHARS = 1_000
"""How much of an exception message producers keep (the event format allows more)."""

STATUS_FIELDS: tuple[str, ...] = ("status", "error_type", "error_message")
"""The versioned node fields a status report writes, always together."""


def bounded_text(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def error_info(
    type_name: str, message: str = "", *, max_message: int = DEFAULT_MESSAGE_CHARS
) -> ErrorInfo:
    """An :class:`ErrorInfo` within the event limits, whatever the producer supplied."""
    name = bounded_text(type_name.strip() or "Error", MAX_ERROR_TYPE_CHARS)
    limit = min(max_message, MAX_ERROR_MESSAGE_CHARS)
    return ErrorInfo(type=name, message=bounded_text(message, limit))


def exception_type_name(exc: BaseException) -> str:
    """``ValueError`` for builtins, ``package.module.Name`` otherwise (what OTel records)."""
    cls = type(exc)
    if cls.__module__ == "builtins":
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


def error_from_exception(exc: BaseException) -> ErrorInfo:
    """Type and message of ``exc``; the traceback is deliberately dropped."""
    return error_info(exception_type_name(exc), str(exc))


def status_fields(status: NodeStatus | None, error: ErrorInfo | None) -> dict[str, str | None]:
    """Node fields for a reported status; ``{}`` values of ``None`` mean "not reported".

    When a status is reported, the error fields are written with it (empty
    when there is no error) so a later ``ok`` clears an earlier failure and
    status and error never come from different events.
    """
    if status is None:
        return dict.fromkeys(STATUS_FIELDS)
    return {
        "status": status.value,
        "error_type": error.type if error is not None else "",
        "error_message": error.message if error is not None else "",
    }


def status_from_fields(
    fields: Mapping[str, object],
) -> tuple[NodeStatus | None, NodeError | None]:
    """Decode the stored status fields (either adapter) into node values."""
    raw = fields.get("status")
    status = NodeStatus(str(raw)) if raw else None
    error_type = fields.get("error_type")
    if not error_type:
        return status, None
    return status, NodeError(str(error_type), str(fields.get("error_message") or ""))
