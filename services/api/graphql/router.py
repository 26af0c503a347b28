"""Mount GraphQL at ``/graphql``: POST for queries (authenticated), GET for GraphiQL,
and WebSocket subscriptions (``graphql-transport-ws``, the key in ``connection_init``).

The request body is parsed so that no input yields a 500: nesting deeper than
the parser allows, or an integer too long for Python, is a 422 in the
service's JSON error shape. Responses never carry ``NaN``/``Infinity`` (not
JSON: a browser's ``JSON.parse`` would reject the whole answer); ingestion
refuses them, and a value stored before that rule is served as ``null``.

Queries run on the app's read thread when it has one (see
:mod:`services.api.read_thread`), so a heavy read never holds the event loop
that ingestion runs on; mutations and anything that does not parse run here.
The answer is encoded to JSON in a worker thread too: at the cost budget it can
be ~10 MB, a few hundred milliseconds of ``json.dumps``.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Coroutine
from datetime import timedelta
from typing import Any, cast

from fastapi import Request, Response
from graphql import GraphQLError, OperationType, get_operation_ast, parse
from strawberry.exceptions import ConnectionRejectionError
from strawberry.fastapi import GraphQLRouter
from strawberry.http import GraphQLHTTPResponse, GraphQLRequestData, process_result
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.types import ExecutionResult
from strawberry.types.unset import UnsetType

from provgraph.errors import ProvgraphError
from provgraph.json_values import OversizedInt
from provgraph.store.port import AsyncGraphStore
from services.api.errors import MalformedBodyError
from services.api.graphql.context import GraphQLContext, get_context
from services.api.graphql.schema import MAX_TOKENS, schema
from services.api.rest.bodies import loads_bounded, too_deep_message

MAX_SUBSCRIPTIONS_PER_CONNECTION = 10
"""A console page holds two or three; the bound keeps one socket from fanning out polls."""


class _Router(GraphQLRouter[GraphQLContext, None]):
    async def on_ws_connect(self, context: GraphQLContext) -> UnsetType | dict[str, object] | None:
        """Refuse the socket (close 4403) unless the payload carries a key that may read."""
        try:
            await context.accept_websocket()
        except ProvgraphError as exc:
            raise ConnectionRejectionError({"message": str(exc)}) from exc
        principal = context.principal
        assert principal is not None
        return {"project": principal.project, "role": str(principal.role)}

    async def execute_single(
        self,
        request: Request,
        request_adapter: Any,
        sub_response: Response,
        context: GraphQLContext,
        root_value: None,
        request_data: GraphQLRequestData,
    ) -> ExecutionResult:
        execute = super().execute_single
        reads = context.state.graphql_reads
        if reads is None or not _is_query(request_data):
            return await execute(
                request, request_adapter, sub_response, context, root_value, request_data
            )

        def on_read_thread(store: AsyncGraphStore) -> Coroutine[Any, Any, ExecutionResult]:
            context.use_store(store)
            return execute(
                request, request_adapter, sub_response, context, root_value, request_data
            )

        return await reads.run(on_read_thread)

    async def process_result(
        self, request: Request, result: ExecutionResult
    ) -> GraphQLHTTPResponse:
        """Strawberry's response dict, with its JSON text made off the event loop."""
        data = process_result(result)
        encoded = _Encoded(data, await asyncio.to_thread(self.encode_json, data))
        return cast(GraphQLHTTPResponse, encoded)  # a dict, as Strawberry expects

    def decode_json(self, data: str | bytes) -> object:
        try:
            value = loads_bounded(data)
        except RecursionError as exc:
            raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
            raise MalformedBodyError(too_deep_message(raw, "GraphQL request", hint="")) from exc
        except UnicodeDecodeError as exc:
            raise MalformedBodyError("GraphQL request is not UTF-8") from exc
        _refuse_oversized(value)
        return value

    def encode_json(self, data: object) -> str:
        if isinstance(data, _Encoded):
            return data.text
        try:
            return json.dumps(data, separators=(",", ":"), allow_nan=False)
        except ValueError:  # a non-finite float stored before ingestion refused them
            return json.dumps(_finite(data), separators=(",", ":"), allow_nan=False)


class _Encoded(dict[str, Any]):
    """A response dict that carries its JSON text (made by :meth:`_Router.process_result`)."""

    def __init__(self, data: GraphQLHTTPResponse, text: str) -> None:
        super().__init__(data)
        self.text = text


def _is_query(request: GraphQLRequestData) -> bool:
    """True when the operation to run is a query (bounded parse: ``MAX_TOKENS``)."""
    if not isinstance(request.query, str):
        return False
    try:
        document = parse(request.query, max_tokens=MAX_TOKENS)
    except GraphQLError:  # Strawberry reports it, on the main loop
        return False
    operation = get_operation_ast(document, request.operation_name)
    return operation is not None and operation.operation == OperationType.QUERY


def _refuse_oversized(value: Any) -> None:
    """A long integer literal anywhere in the request (variables) is a 422 naming where."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, OversizedInt):
            raise MalformedBodyError(
                f"integer has {item.digits} digits; too long for any GraphQL Int", path=path
            )
        if isinstance(item, dict):
            stack.extend((v, f"{path}.{k}" if path else str(k)) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(item))


def _finite(data: Any) -> Any:
    if isinstance(data, float) and not math.isfinite(data):
        return None
    if isinstance(data, dict):
        return {k: _finite(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_finite(v) for v in data]
    return data


def graphql_router() -> GraphQLRouter[GraphQLContext, None]:
    """Queries over GET are off: a GET only renders GraphiQL, so no key travels in a URL."""
    return _Router(
        schema,
        context_getter=get_context,
        graphql_ide="graphiql",
        allow_queries_via_get=False,
        subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL,),
        connection_init_wait_timeout=timedelta(seconds=10),
        max_subscriptions_per_connection=MAX_SUBSCRIPTIONS_PER_CONNECTION,
    )
