"""GraphQL ``Viewer``: who the caller's key is, so a client can honour its role."""

from __future__ import annotations

import strawberry

from provgraph.usecases.roles import Permission, Principal


@strawberry.type(description="The caller's key: its project and role, and what it may do.")
class Viewer:
    project: str
    role: str = strawberry.field(description="ingest, read or admin.")
    key_id: str | None = strawberry.field(
        description="The key's id (null for the bootstrap key and with auth off)."
    )
    can_request_verification: bool

    @classmethod
    def from_principal(cls, principal: Principal) -> Viewer:
        return cls(
            project=principal.project,
            role=str(principal.role),
            key_id=principal.key_id,
            can_request_verification=principal.allows(Permission.REQUEST_VERIFICATION),
        )
