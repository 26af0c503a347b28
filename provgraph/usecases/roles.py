"""Roles and the authenticated caller (a principal is always bound to one project)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Role(StrEnum):
    """What a key may do: ingest writes events, read queries, admin does both and more."""

    INGEST = "ingest"
    READ = "read"
    ADMIN = "admin"
    REVIEW = "review"


class Permission(StrEnum):
    WRITE_EVENTS = "write_events"
    READ = "read"
    REQUEST_VERIFICATION = "request_verification"
    REVIEW = "review"
    MANAGE_KEYS = "manage_keys"


_GRANTS: dict[Role, frozenset[Permission]] = {
    Role.INGEST: frozenset({Permission.WRITE_EVENTS}),
    Role.READ: frozenset({Permission.READ}),
    Role.ADMIN: frozenset(Permission),
    Role.REVIEW: frozenset({Permission.READ, Permission.REVIEW}),
}
"""Ingest keys cannot read and read keys cannot write: a leaked runtime key exposes no
data, a leaked dashboard key cannot forge provenance. Requesting verification writes
jobs and reports, so it needs admin, as does managing the project's keys. Reviewers
read and record reviews (confirm or override a citation's verdict), nothing else."""


@dataclass(frozen=True)
class Principal:
    """Who is calling: the project every store call is scoped to, and the role."""

    project: str
    role: Role
    key_id: str | None = None
    key_name: str | None = None
    """The key's name (who a review is attributed to); never the secret."""

    def allows(self, permission: Permission) -> bool:
        return permission in _GRANTS[self.role]
