"""Append-only, fsynced JSON Lines log behind the embedded store.

Every accepted batch (and every report or job write) is one line, written and
fsynced before the store call returns, so a crash never loses an acknowledged
write. Opening replays the log. A torn last line (a crash mid-append: bytes
with no final newline) is detected, reported through ``recovery`` and a
warning, and truncated away; everything before it is kept. Damage anywhere
else is not something a crash can cause, so it raises instead of guessing.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from provgraph.errors import EventLogCorruptionError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LogRecovery:
    """What opening the log had to repair: a torn tail of ``dropped_bytes`` at ``offset``."""

    offset: int
    dropped_bytes: int

    def describe(self) -> str:
        return (
            f"event log had a torn last line ({self.dropped_bytes} bytes at offset "
            f"{self.offset}, from an interrupted write); it was truncated and every "
            "complete batch before it was kept"
        )


class EventLog:
    """One log file; thread-safe appends; replay on open."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self.recovery: LogRecovery | None = None
        self._records: list[dict[str, Any]] = self._load_and_repair()
        self._file = open(self.path, "ab")  # noqa: SIM115 - held open for the store's life

    def _load_and_repair(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        raw = self.path.read_bytes()
        complete_end = raw.rfind(b"\n") + 1  # 0 when there is no newline at all
        records: list[dict[str, Any]] = []
        line_start = 0
        for number, line in enumerate(raw[:complete_end].split(b"\n")[:-1], start=1):
            try:
                record = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise EventLogCorruptionError(
                    f"{self.path}: line {number} (byte {line_start}) is not valid JSON "
                    f"({exc}); this is not a torn write, so the log was left untouched. "
                    "Restore it from a backup or remove the damaged line by hand."
                ) from exc
            if not isinstance(record, dict):
                raise EventLogCorruptionError(f"{self.path}: line {number} is not a JSON object")
            records.append(record)
            line_start += len(line) + 1
        if complete_end < len(raw):
            self.recovery = LogRecovery(offset=complete_end, dropped_bytes=len(raw) - complete_end)
            log.warning("%s: %s", self.path, self.recovery.describe())
            with open(self.path, "r+b") as handle:
                handle.truncate(complete_end)
                handle.flush()
                os.fsync(handle.fileno())
        return records

    def replay(self) -> Iterator[dict[str, Any]]:
        """The records read at open (once; the store applies them in order)."""
        records, self._records = self._records, []
        yield from records

    def append(self, record: dict[str, Any]) -> None:
        """Write one record and fsync it before returning."""
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
        data = line.encode() + b"\n"
        with self._lock:
            self._file.write(data)
            self._file.flush()
            os.fsync(self._file.fileno())

    def rewrite(self, records: list[dict[str, Any]]) -> None:
        """Replace the whole log with ``records`` (erasure), atomically.

        A new file is written and fsynced beside the log, then renamed over
        it: a crash leaves either the old log or the new one, never a mix. The
        old file's blocks are released to the file system, not overwritten
        (see docs/audit.md on what erasure can and cannot promise on disk).
        """
        tmp = self.path.with_name(self.path.name + ".rewrite")
        with self._lock:
            with open(tmp, "wb") as handle:
                for record in records:
                    line = json.dumps(
                        record, ensure_ascii=False, separators=(",", ":"), default=str
                    )
                    handle.write(line.encode() + b"\n")
                handle.flush()
                os.fsync(handle.fileno())
            self._file.close()
            os.replace(tmp, self.path)
            directory = os.open(self.path.parent, os.O_RDONLY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)
            self._file = open(self.path, "ab")  # noqa: SIM115 - held open for the store's life

    def close(self) -> None:
        with self._lock:
            if not self._file.closed:
                self._file.close()
