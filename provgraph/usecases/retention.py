"""Retention: erase the sessions whose last event is older than a project's limit.

The policy is ``PROVGRAPH_RETENTION`` = ``project=days,…`` with ``*`` for every
project that has an audit chain; a named project overrides ``*``. Each
expired session is erased like a session erasure (same tombstones), so
``audit verify`` still passes afterwards. Run by the worker's beat schedule
and by ``provgraph retention apply``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from provgraph.errors import ConfigurationError
from provgraph.store.audit_types import ErasureResult
from provgraph.store.port import GraphStore
from provgraph.store.types import MAX_PAGE_SIZE, SessionSummary
from provgraph.usecases.erasure import apply_erasure, plan_session_erasure

MAX_RETENTION_DAYS = 36_500


def parse_policy(text: str | None) -> dict[str, int]:
    """``"acme=30,*=365"`` → ``{"acme": 30, "*": 365}``; a bad item names itself."""
    policy: dict[str, int] = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        project, sep, days = item.partition("=")
        try:
            value = int(days)
        except ValueError:
            value = -1
        if not sep or not project.strip() or not 1 <= value <= MAX_RETENTION_DAYS:
            raise ConfigurationError(
                f"PROVGRAPH_RETENTION: '{item.strip()}' is not project=days "
                f"(days 1..{MAX_RETENTION_DAYS})"
            )
        policy[project.strip()] = value
    return policy


@dataclass(frozen=True)
class RetentionResult:
    project: str
    days: int
    cutoff: datetime
    sessions: tuple[str, ...]
    erased: tuple[ErasureResult, ...] = field(default=())


def expired_sessions(store: GraphStore, project: str, cutoff: datetime) -> list[SessionSummary]:
    found: list[SessionSummary] = []
    after: str | None = None
    while True:
        page = store.list_sessions(project, first=MAX_PAGE_SIZE, after=after)
        found.extend(s for s in page.items if s.last_event_at and s.last_event_at < cutoff)
        if not page.has_next_page:
            return sorted(found, key=lambda s: s.id)
        after = page.end_cursor


def apply_retention(
    store: GraphStore,
    project: str,
    days: int,
    *,
    dry_run: bool,
    now: datetime | None = None,
) -> RetentionResult:
    cutoff = (now or datetime.now(UTC)) - timedelta(days=days)
    sessions = expired_sessions(store, project, cutoff)
    ids = tuple(s.id for s in sessions)
    if dry_run:
        return RetentionResult(project, days, cutoff, ids)
    erased = tuple(
        apply_erasure(store, project, plan_session_erasure(store, project, sid)) for sid in ids
    )
    return RetentionResult(project, days, cutoff, ids, erased)


def apply_policy(
    store: GraphStore,
    policy: dict[str, int],
    *,
    dry_run: bool,
    now: datetime | None = None,
    projects: list[str] | None = None,
) -> list[RetentionResult]:
    """Apply to the named projects, and ``*`` to every other project with a chain."""
    targets = dict.fromkeys(p for p in policy if p != "*")
    if "*" in policy:
        targets.update(dict.fromkeys(projects if projects is not None else store.audit_projects()))
    return [
        apply_retention(store, p, policy.get(p, policy.get("*", 0)), dry_run=dry_run, now=now)
        for p in targets
    ]
