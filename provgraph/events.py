"""Native event format v1: what agent runtimes report, validated.

An event says what happened to one node (``node_id``) of a session. Several
events may update one node; ``id`` is the *delivery* id, so the same event sent
twice is recognised and changes nothing. Parents are named by node id in
``parent_ids`` (edge label inferred from the child's type) or in ``edges`` with
an explicit label. See ``docs/events.md`` and ``docs/schema/event-v1.json``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pydantic
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from provgraph.citations import KEY_PATTERN
from provgraph.graph import EdgeLabel, NodeStatus, NodeType

EVENT_SCHEMA_VERSION = "1"
MAX_ID_CHARS = 256
MAX_CONTENT_CHARS = 2_000_000
MAX_LABEL_CHARS = 1_000
MAX_DATA_BYTES = 64 * 1024
MAX_PARENTS = 256
MAX_ERROR_TYPE_CHARS = 256
MAX_ERROR_MESSAGE_CHARS = 4_000

_Id = Field(min_length=1, max_length=MAX_ID_CHARS)


class EdgeSpec(BaseModel):
    """An explicit edge from ``source_id`` into the event's node."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source_id: str = Field(min_length=1, max_length=MAX_ID_CHARS)
    label: EdgeLabel


class ErrorInfo(BaseModel):
    """Why the step failed: exception type and message; bounded, never a stack trace.

    Producers bound what they send (``provgraph.failures.error_info``); the
    limits here reject what would bloat every node read.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: str = Field(
        min_length=1,
        max_length=MAX_ERROR_TYPE_CHARS,
        description="Exception type, e.g. ValueError.",
    )
    message: str = Field(default="", max_length=MAX_ERROR_MESSAGE_CHARS)


class Event(BaseModel):
    """One report about one node (native event format v1)."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False)

    id: str = Field(min_length=1, max_length=MAX_ID_CHARS, description="Delivery id; deduplicates.")
    type: NodeType
    timestamp: datetime = Field(description="RFC 3339 with a UTC offset.")
    session_id: str = Field(min_length=1, max_length=MAX_ID_CHARS)
    node_id: str = Field(min_length=1, max_length=MAX_ID_CHARS)
    run_id: str | None = Field(default=None, max_length=MAX_ID_CHARS)
    agent_name: str | None = Field(default=None, max_length=MAX_ID_CHARS)
    label: str | None = Field(default=None, max_length=MAX_LABEL_CHARS)
    parent_ids: list[str] = Field(default_factory=list, max_length=MAX_PARENTS)
    edges: list[EdgeSpec] = Field(default_factory=list, max_length=MAX_PARENTS)
    citation_key: str | None = Field(default=None, pattern=rf"^{KEY_PATTERN}$", max_length=64)
    content: str | None = Field(default=None, max_length=MAX_CONTENT_CHARS)
    data: dict[str, Any] = Field(default_factory=dict)
    status: NodeStatus | None = Field(
        default=None,
        description="How the step ended (ok/error); an `error` without a status means error.",
    )
    error: ErrorInfo | None = Field(default=None, description="Why the step failed.")

    @field_validator("timestamp")
    @classmethod
    def _require_offset(cls, value: datetime) -> datetime:
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError("timestamp needs a UTC offset (RFC 3339), e.g. 2026-01-01T00:00:00Z")
        year = value.astimezone(UTC).year if 1 < value.year < 9999 else value.year
        if not 1000 <= year <= 9999:
            # versions are fixed-width time text; outside 4-digit years they would misorder
            raise ValueError(f"timestamp year {year} is outside 1000-9999 (UTC)")
        return value

    @field_validator("parent_ids")
    @classmethod
    def _parent_ids_non_empty(cls, value: list[str]) -> list[str]:
        for index, parent in enumerate(value):
            if not parent or len(parent) > MAX_ID_CHARS:
                raise ValueError(f"parent_ids[{index}] must be 1..{MAX_ID_CHARS} characters")
        return value

    @field_validator("data")
    @classmethod
    def _data_size(cls, value: dict[str, Any]) -> dict[str, Any]:
        try:
            encoded = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"data must be JSON-serialisable: {exc}") from exc
        if len(encoded.encode()) > MAX_DATA_BYTES:
            raise ValueError(
                f"data is {len(encoded.encode())} bytes; the limit is {MAX_DATA_BYTES}"
            )
        return value

    @model_validator(mode="after")
    def _not_own_parent(self) -> Event:
        if self.node_id in self.parent_ids or any(e.source_id == self.node_id for e in self.edges):
            raise ValueError("a node cannot be its own parent (node_id appears among its parents)")
        return self

    @field_validator("error")
    @classmethod
    def _error_needs_error_status(
        cls, value: ErrorInfo | None, info: pydantic.ValidationInfo
    ) -> ErrorInfo | None:
        if value is not None and info.data.get("status") is NodeStatus.OK:
            raise ValueError("status is 'ok' but an error is given; send status 'error' or omit it")
        return value

    @property
    def effective_status(self) -> NodeStatus | None:
        """The status this event reports: explicit, or ``error`` when only an error is given."""
        if self.status is None and self.error is not None:
            return NodeStatus.ERROR
        return self.status


@dataclass(frozen=True)
class EventError:
    """Why one event of a batch was rejected: where (index, field path) and why."""

    index: int
    event_id: str | None
    path: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "id": self.event_id, "path": self.path, "reason": self.reason}


def _format_loc(loc: Iterable[int | str]) -> str:
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def parse_event(raw: Any, index: int = 0) -> Event | EventError:
    """Validate one raw object; return the event or the first error with its field path."""
    event_id = raw.get("id") if isinstance(raw, Mapping) else None
    event_id = event_id if isinstance(event_id, str) else None
    if not isinstance(raw, Mapping):
        return EventError(
            index, None, "", f"an event must be a JSON object, got {type(raw).__name__}"
        )
    try:
        return Event.model_validate(raw)
    except pydantic.ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        return EventError(index, event_id, _format_loc(first["loc"]), str(first["msg"]))


def parse_events(raws: Iterable[Any]) -> tuple[list[tuple[int, Event]], list[EventError]]:
    """Validate a batch: the good events (with their index) and the errors; order kept."""
    good: list[tuple[int, Event]] = []
    bad: list[EventError] = []
    for index, raw in enumerate(raws):
        parsed = parse_event(raw, index)
        if isinstance(parsed, Event):
            good.append((index, parsed))
        else:
            bad.append(parsed)
    return good, bad


def event_json_schema() -> dict[str, Any]:
    """The JSON Schema of one event (exported to ``docs/schema/event-v1.json``)."""
    schema = Event.model_json_schema()
    schema["$id"] = "https://provgraph.dev/schema/event-v1.json"
    schema["title"] = "provgraph event v1"
    return schema
