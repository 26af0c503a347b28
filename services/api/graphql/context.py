"""The GraphQL request context: the caller's principal, the store, per-request loaders.

Every resolver reads ``info.context.project`` and passes it to the store, so
scoping to the caller's project happens in one place (authentication here),
not in each resolver.

WebSocket subscriptions (``graphql-transport-ws``) cannot carry headers from a
browser: the key arrives in the ``connection_init`` payload as
``{"authorization": "Bearer <key>"}`` and is checked by :meth:`accept_websocket`;
long-lived subscriptions call :meth:`recheck` on every poll, so a revoked key
stops its stream.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection
from strawberry.fastapi import BaseContext

from provgraph.store.port import AsyncGraphStore
from provgraph.usecases.roles import Permission, Principal
from services.api.auth.dependency import authenticate, authorize, principal_for_token
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
        self.connection_params: dict[str, Any] | None = None
        """Set by Strawberry from a WebSocket's ``connection_init`` payload."""
        self._ws_token: str | None = None

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

    async def accept_websocket(self) -> None:
        """Authenticate a WebSocket from its ``connection_init`` payload (read role or more)."""
        params = self.connection_params or {}
        raw = params.get("authorization") or params.get("Authorization")
        token = raw.partition(" ")[2].strip() if isinstance(raw, str) and " " in raw else raw
        self._ws_token = token if isinstance(token, str) else None
        self.principal = authorize(
            await principal_for_token(self.state, self._ws_token), Permission.READ
        )
        self._store = await self.state.store()

    async def recheck(self) -> None:
        """Re-resolve a WebSocket's key (revoked since the connection opened → error)."""
        if self._ws_token is not None or self.principal is None:
            self.principal = await principal_for_token(self.state, self._ws_token)

    def use_store(self, store: AsyncGraphStore) -> None:
        """Serve this request from ``store`` (the read thread's own), with fresh loaders."""
        self._store = store
        self._loaders = None

    def fresh_loaders(self) -> None:
        """Drop cached loads: a subscription's context outlives any one result."""
        self._loaders = None


async def get_context(request: HTTPConnection) -> GraphQLContext:
    """Authenticate POSTs (401/403 before any parsing); the GET only serves GraphiQL.

    WebSockets are authenticated later, from their ``connection_init`` payload.
    """
    state: AppState = request.app.state.provgraph
    if request.scope["type"] == "websocket" or request.scope.get("method") == "GET":
        return GraphQLContext(state, None, None)
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_GRAPHQL_BODY_BYTES:
        raise PayloadTooLargeError(f"GraphQL request exceeds {MAX_GRAPHQL_BODY_BYTES} bytes")
    principal = authorize(await authenticate(request), Permission.READ)
    return GraphQLContext(state, await state.store(), principal)
