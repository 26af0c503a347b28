"""The Strawberry schema with its guards: depth, aliases, tokens, and masked errors.

Limits are schema-wide so no resolver can forget them: a query nested deeper
than ``MAX_DEPTH`` or using more than ``MAX_ALIASES`` aliases is rejected at
validation, before any store call. Errors from provgraph (validation, not
found, limits, auth, unavailable) keep their messages; anything else is
masked to "internal error" with the request id, and logged in full.
"""

from __future__ import annotations

import logging
from typing import Any

import strawberry
from graphql import GraphQLError
from strawberry.extensions import (
    MaskErrors,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    ParserCache,
    QueryDepthLimiter,
    ValidationCache,
)

from provgraph.errors import ProvgraphError
from services.api.graphql.types.Mutation import Mutation
from services.api.graphql.types.Query import Query
from services.api.graphql.types.Subscription import Subscription
from services.api.logs import current_request_id

MAX_DEPTH = 10
MAX_ALIASES = 15
MAX_TOKENS = 4000
log = logging.getLogger("provgraph.api.graphql")


def should_mask(error: GraphQLError) -> bool:
    """Mask only what provgraph did not raise on purpose (driver errors, bugs)."""
    original = error.original_error
    if original is None or isinstance(original, ProvgraphError | GraphQLError):
        return False
    log.error("graphql resolver failed", exc_info=original)
    return True


class _Masking(MaskErrors):
    def __init__(self) -> None:
        super().__init__(should_mask_error=should_mask, error_message="internal error")

    def anonymise_error(self, error: GraphQLError) -> GraphQLError:
        masked = super().anonymise_error(error)
        request_id = current_request_id()
        if request_id:
            masked.message = f"internal error (request id {request_id})"
        return masked


_DEPTH = QueryDepthLimiter(max_depth=MAX_DEPTH)
_ALIASES = MaxAliasesLimiter(max_alias_count=MAX_ALIASES)
"""Built once: each builds a new validation-rule class, and the validation cache is keyed
by the rule classes, so per-request instances would never hit it (they hold no state)."""


class _Schema(strawberry.Schema):
    """Strawberry logs every error with a traceback; ours are expected answers (not found,
    bad bound) and unexpected ones are already logged by :func:`should_mask`."""

    def process_errors(self, errors: Any, execution_context: Any = None) -> None:
        return None


def build_schema() -> strawberry.Schema:
    """Dashboards repeat the same few documents: parsing and validation are cached."""
    return _Schema(
        query=Query,
        mutation=Mutation,
        subscription=Subscription,
        extensions=[
            lambda: _DEPTH,
            lambda: _ALIASES,
            lambda: MaxTokensLimiter(max_token_count=MAX_TOKENS),
            _Masking,
            lambda: ParserCache(maxsize=256),
            lambda: ValidationCache(maxsize=256),
        ],
    )


schema = build_schema()
