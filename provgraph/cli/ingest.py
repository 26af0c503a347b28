"""``provgraph ingest FILE``: load JSON Lines of native events into the configured store.

Reads and parses lines here; validation, the durable store call and the
per-event outcome are the ingest use case's (:mod:`provgraph.usecases.ingest`),
the same as ``POST /v1/events``. Verification of the outputs is left to the
worker's sweep (platform) or ``provgraph verify`` (embedded).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path

from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from provgraph.events import Event, EventError, parse_event
from provgraph.store.port import GraphStore
from provgraph.usecases.ingest import ingest_batch_sync, validated

BATCH_SIZE = 500


@dataclass
class IngestReport:
    """Counts and per-line errors of one file."""

    accepted: int = 0
    duplicates: int = 0
    errors: list[tuple[int, str]] | None = None

    @property
    def failed(self) -> int:
        return len(self.errors or [])


def read_event_lines(path: Path) -> Iterator[tuple[int, Event | EventError]]:
    """Yield (line number, event or error) for each non-blank line; never raises on content."""
    with path.open("r", encoding="utf-8", errors="strict") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
            except json.JSONDecodeError as exc:
                yield (
                    number,
                    EventError(
                        number, None, "", f"not valid JSON: {exc.msg} at column {exc.colno}"
                    ),
                )
                continue
            yield number, parse_event(raw, number)


def ingest_file(
    store: GraphStore, project: str, path: Path, *, show_progress: bool = True
) -> IngestReport:
    """Ingest a file in batches; every bad line is reported with its number."""
    report = IngestReport(errors=[])
    assert report.errors is not None
    total = path.stat().st_size
    batch: list[tuple[int, Event]] = []

    def flush() -> None:
        if not batch:
            return
        outcome = ingest_batch_sync(store, project, validated(batch))
        report.accepted += outcome.counts["accepted"]
        report.duplicates += outcome.counts["duplicate"]
        for result in outcome.results:
            if result["status"] == "rejected":
                path, reason = result["error"]["path"], result["error"]["reason"]
                assert report.errors is not None
                report.errors.append((result["index"], f"{path}: {reason}" if path else reason))
        batch.clear()

    with Progress(
        TextColumn("[bold]ingest[/]"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TimeRemainingColumn(),
        disable=not show_progress,
        transient=True,
    ) as progress:
        task = progress.add_task("ingest", total=total)
        with path.open("rb") as sizes:
            ends = [0, *accumulate(len(line) for line in sizes)]
        for number, parsed in read_event_lines(path):
            consumed = ends[min(number, len(ends) - 1)]
            if isinstance(parsed, EventError):
                where = f"{parsed.path}: " if parsed.path else ""
                report.errors.append((number, f"{where}{parsed.reason}"))
            else:
                batch.append((number, parsed))
                if len(batch) >= BATCH_SIZE:
                    flush()
            progress.update(task, completed=consumed)
        flush()
        progress.update(task, completed=total)
    report.errors.sort()
    return report
