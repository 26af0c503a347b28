"""Delivery rules shared by the threaded and the async client.

* which answers are retried (connection errors, 408, 425, 429, 500, 502, 503, 504)
  and after how long (``Retry-After`` when the server sends it, otherwise
  exponential backoff with jitter, capped);
* how a 2xx/207 answer is read into per-event outcomes;
* the spill directory: events that did not fit in memory (or were still
  undelivered at exit) are appended to fsynced JSONL files and resent later,
  by this process or the next one using the same directory. Events keep their
  delivery ids, so a resend the server already has is a harmless duplicate.
* dead letters: events the server refused for good (a 4xx other than 408/425/429,
  or a per-event rejection) are written to ``dead-letter.jsonl`` with the
  reason, never dropped silently.
"""

from __future__ import annotations

import json
import logging
import os
import random
import threading
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import pydantic

from provgraph.events import Event

log = logging.getLogger("provgraph.sdk")

RETRYABLE_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})
PROJECT_HEADER = "X-Provgraph-Project"
EVENTS_PATH = "/v1/events"
DEAD_LETTER_FILE = "dead-letter.jsonl"


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff: ``initial * multiplier**attempt``, capped, with ±``jitter``."""

    initial: float = 0.5
    multiplier: float = 2.0
    maximum: float = 30.0
    jitter: float = 0.2

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry ``attempt`` (0-based); a server hint wins, capped."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.maximum)
        base = min(self.initial * self.multiplier**attempt, self.maximum)
        return max(0.0, base * (1 + random.uniform(-self.jitter, self.jitter)))


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """``Retry-After`` as seconds: delta-seconds or an HTTP date; None when absent or bad."""
    if not value:
        return None
    text = value.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


@dataclass
class BatchVerdict:
    """What to do with a batch after one attempt."""

    retry: bool = False
    retry_after: float | None = None
    fatal_reason: str | None = None
    rejected: dict[str, str] = field(default_factory=dict)  # event id → reason
    duplicates: int = 0
    accepted: int = 0


def judge_response(
    status: int, headers: Mapping[str, str], body: bytes, batch: Sequence[Event]
) -> BatchVerdict:
    """Classify one HTTP answer to a batch (pure, so both clients agree)."""
    if status in RETRYABLE_STATUS:
        return BatchVerdict(retry=True, retry_after=parse_retry_after(headers.get("retry-after")))
    if not 200 <= status < 300:
        snippet = body[:300].decode("utf-8", "replace")
        return BatchVerdict(fatal_reason=f"HTTP {status}: {snippet}")
    verdict = BatchVerdict(accepted=len(batch))
    try:
        payload = json.loads(body) if body else {}
    except ValueError:
        return verdict
    for entry in _result_entries(payload):
        status_text = str(entry.get("status", "")).lower()
        event_id = entry.get("id") or entry.get("event_id")
        index = entry.get("index")
        if event_id is None and isinstance(index, int) and 0 <= index < len(batch):
            event_id = batch[index].id
        if not isinstance(event_id, str):
            continue
        if status_text in ("duplicate", "deduplicated"):
            verdict.duplicates += 1
        elif status_text in ("rejected", "error", "failed", "invalid") or (
            entry.get("error") and status_text not in ("accepted", "ok", "created")
        ):
            verdict.rejected[event_id] = _reason(entry)
    verdict.accepted = len(batch) - len(verdict.rejected) - verdict.duplicates
    return verdict


def _result_entries(payload: Any) -> Iterable[Mapping[str, Any]]:
    if not isinstance(payload, Mapping):
        return []
    entries: list[Mapping[str, Any]] = []
    for name in ("results", "events", "errors", "rejected"):
        value = payload.get(name)
        if isinstance(value, list):
            for item in value:
                if isinstance(item, Mapping):
                    entry = dict(item)
                    if name in ("errors", "rejected"):
                        entry.setdefault("status", "rejected")
                    entries.append(entry)
    return entries


def _reason(entry: Mapping[str, Any]) -> str:
    error = entry.get("error")
    if isinstance(error, Mapping):
        return str(error.get("reason") or error.get("message") or error)
    return str(error or entry.get("reason") or entry.get("message") or "rejected")


class SpillStore:
    """Fsynced JSONL files of events waiting to be (re)sent, plus the dead-letter file.

    Files are named ``spill-<pid>-<uuid>.jsonl`` while written and renamed to
    ``claimed-<pid>-<uuid>.jsonl`` when a client takes them for resending, so
    two processes sharing a directory never resend the same file at once. A
    claimed file whose process died is adopted by the next client.
    """

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self._lock = threading.Lock()
        self._current: Path | None = None

    def write(self, events: Sequence[Event]) -> None:
        """Append events durably (flush + fsync before returning)."""
        if not events:
            return
        lines = "".join(e.model_dump_json() + "\n" for e in events)
        with self._lock:
            self.directory.mkdir(parents=True, exist_ok=True)
            if self._current is None or not self._current.exists():
                self._current = self.directory / f"spill-{os.getpid()}-{uuid.uuid4().hex}.jsonl"
            with self._current.open("a", encoding="utf-8") as handle:
                handle.write(lines)
                handle.flush()
                os.fsync(handle.fileno())

    def dead_letter(self, events: Sequence[Event], reasons: Mapping[str, str] | str) -> None:
        """Record events the server refused for good, each with its reason."""
        if not events:
            return
        with self._lock:
            self.directory.mkdir(parents=True, exist_ok=True)
            with (self.directory / DEAD_LETTER_FILE).open("a", encoding="utf-8") as handle:
                for event in events:
                    reason = reasons if isinstance(reasons, str) else reasons.get(event.id, "")
                    record = {
                        "reason": reason,
                        "at": datetime.now(UTC).isoformat(),
                        "event": event.model_dump(mode="json"),
                    }
                    handle.write(json.dumps(record, ensure_ascii=False) + "\n")
                handle.flush()
                os.fsync(handle.fileno())
        log.error(
            "provgraph: %d event(s) refused by the server, kept in %s",
            len(events),
            self.directory / DEAD_LETTER_FILE,
        )

    def pending(self) -> list[Path]:
        """Spill files not being written by this process any more, oldest first."""
        if not self.directory.is_dir():
            return []
        found = [
            p
            for p in self.directory.glob("spill-*.jsonl")
            if _owner(p) == os.getpid() or _owner_dead(p)
        ]
        found += [p for p in self.directory.glob("claimed-*.jsonl") if _owner_dead(p)]
        # another thread may resend and delete a file between the listing and the stat
        stamped: list[tuple[float, Path]] = []
        for path in found:
            try:
                stamped.append((path.stat().st_mtime, path))
            except FileNotFoundError:
                continue
        return [path for _, path in sorted(stamped, key=lambda item: item[0])]

    def has_pending(self) -> bool:
        return bool(self.pending())

    def claim(self) -> Path | None:
        """Take the oldest pending file for resending (atomic rename), or None."""
        with self._lock:
            for path in self.pending():
                target = self.directory / f"claimed-{os.getpid()}-{uuid.uuid4().hex}.jsonl"
                try:
                    path.rename(target)
                except OSError:
                    continue  # another process claimed it first
                if path == self._current:
                    self._current = None
                return target
        return None

    def read(self, path: Path) -> list[Event]:
        """Events of a claimed file; unreadable lines go to the dead-letter file."""
        events: list[Event] = []
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    events.append(Event.model_validate_json(line))
                except pydantic.ValidationError as exc:
                    log.error(
                        "provgraph: %s line %d is not an event (%s); kept aside",
                        path,
                        number,
                        exc.errors(include_url=False)[0]["msg"],
                    )
                    with self._lock, (self.directory / DEAD_LETTER_FILE).open("a") as bad:
                        bad.write(
                            json.dumps(
                                {"reason": "unreadable spill line", "raw": line.rstrip("\n")}
                            )
                            + "\n"
                        )
        return events

    @staticmethod
    def remove(path: Path) -> None:
        path.unlink(missing_ok=True)


def _owner(path: Path) -> int | None:
    parts = path.stem.split("-")
    return int(parts[1]) if len(parts) >= 3 and parts[1].isdigit() else None


def _owner_dead(path: Path) -> bool:
    """True when the process named in the file name no longer exists (its files are ours)."""
    pid = _owner(path)
    if pid is None or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def default_spill_dir() -> Path:
    """``$PROVGRAPH_HOME/spill`` (default ``.provgraph/spill``)."""
    return Path(os.environ.get("PROVGRAPH_HOME") or ".provgraph") / "spill"


def request_headers(api_key: str | None, project: str | None) -> dict[str, str]:
    headers = {"Content-Type": "application/json", "User-Agent": "provgraph-sdk/0.1"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    if project:
        headers[PROJECT_HEADER] = project
    return headers


def encode_batch(batch: Sequence[Event]) -> bytes:
    """The request body of ``POST /v1/events``: a JSON array of events.

    Unset optional fields (``None``) are left out: they mean the same to the
    server, and a server that predates a field added to v1 (``status``,
    ``error``) then still accepts every event that does not use it.
    """
    return ("[" + ",".join(e.model_dump_json(exclude_none=True) for e in batch) + "]").encode()
