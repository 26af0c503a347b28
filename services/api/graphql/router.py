"""Mount GraphQL at ``/graphql``: POST for queries (authenticated), GET for GraphiQL.

The request body is parsed so that no input yields a 500: nesting deeper than
the parser allows, or an integer too long for Python, is a 422 in the
service's JSON error shape. Responses never carry ``NaN``/``Infinity`` (not
JSON: a browser's ``JSON.parse`` would reject the whole answer); ingestion
refuses them, and a value stored before that rule is served as ``null``.
"""

from __future__ import annotations

import json
import math
from typing import Any

from strawberry.fastapi import GraphQLRouter

from provgraph.json_values import OversizedInt
from services.api.errors import MalformedBodyError
from services.api.graphql.context import GraphQLContext, get_context
from services.api.graphql.schema import schema
from services.api.rest.bodies import loads_bounded, too_deep_message


class _SafeJsonRouter(GraphQLRouter[GraphQLContext, None]):
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
        try:
            return json.dumps(data, separators=(",", ":"), allow_nan=False)
        except ValueError:  # a non-finite float stored before ingestion refused them
            return json.dumps(_finite(data), separators=(",", ":"), allow_nan=False)


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
    return _SafeJsonRouter(
        schema,
        context_getter=get_context,
        graphql_ide="graphiql",
        allow_queries_via_get=False,
        subscription_protocols=(),
    )
