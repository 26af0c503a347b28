"""The GraphQL request context: the caller's principal, the store, per-request loaders.

Every resolver reads ``info.context.project`` and passes it to the store, so
scoping to the caller's project happens in one place (authentication here),
not in each resolver.
"""

from __future__ import annotations

from fastapi import Request
from strawberry.fastapi import BaseContext

from provgraph.store.port import AsyncGraphStore
from provgraph.usecases.roles import Permission, Principal
from services.api.auth.dependency import authenticate, authorize
from services.api.errors import PayloadTooLargeError, UnauthenticatedError
from services.api.graphql.loaders import Loaders, create_loaders
from services.api.state import AppState

MAX_GRAPHQL_BODY_BYTES = 256 * 1024


class GraphQLContext(BaseContext):
    """What resolvers see; ``principal`` is None only for the GraphiQL page itself."""

    def __init__(
        self,
        state: AppState,
        store: AsyncGraphStore | None,
        principal: Principal | None,
    ) -> None:
        super().__init__()
        self.state = state
        self._store = store
        self.principal = principal
        self._loaders: Loaders | None = None

    @property
    def project(self) -> str:
        return self.require(Permission.READ).project

    @property
    def store(self) -> AsyncGraphStore:
        if self._store is None:
            raise RuntimeError("no store in this context")
        return self._store

    @property
    def loaders(self) -> Loaders:
        if self._loaders is None:
            self._loaders = create_loaders(self.store, self.project)
        return self._loaders

    def require(self, permission: Permission) -> Principal:
        if self.principal is None:
            raise UnauthenticatedError("missing API key")
        return authorize(self.principal, permission)


async def get_context(request: Request) -> GraphQLContext:
    """Authenticate POSTs (401/403 before any parsing); the GET only serves GraphiQL."""
    state: AppState = request.app.state.provgraph
    if request.method == "GET":
        return GraphQLContext(state, None, None)
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_GRAPHQL_BODY_BYTES:
        raise PayloadTooLargeError(f"GraphQL request exceeds {MAX_GRAPHQL_BODY_BYTES} bytes")
    principal = authorize(authenticate(request), Permission.READ)
    return GraphQLContext(state, await state.store(), principal)
