"""Relay cursors over the store's page cursors, and the page-size cap.

The store hands out one cursor per page (after its last item). A Relay edge
needs a cursor per item, so the API cursor is ``(store cursor of the page
start, items to skip)``: resuming from item *i* re-reads at most one page
from the store. Cursors are opaque base64 to clients; a tampered one is a
validation error naming ``after``.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from provgraph.errors import LimitExceededError, ValidationError
from provgraph.store.types import Page

T = TypeVar("T")
DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100
_PREFIX = "pg1:"


def check_first(first: int | None) -> int:
    """``first`` defaults to 20 and is capped at 100: a dashboard cannot ask for everything."""
    if first is None:
        return DEFAULT_PAGE_SIZE
    if not 1 <= first <= MAX_PAGE_SIZE:
        raise LimitExceededError(
            f"must be between 1 and {MAX_PAGE_SIZE}, got {first}", path="first"
        )
    return first


def encode(store_after: str | None, skip: int) -> str:
    raw = json.dumps([store_after, skip], separators=(",", ":"))
    return base64.urlsafe_b64encode((_PREFIX + raw).encode()).decode().rstrip("=")


def decode(cursor: str) -> tuple[str | None, int]:
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        if not text.startswith(_PREFIX):
            raise ValueError("prefix")
        store_after, skip = json.loads(text[len(_PREFIX) :])
        if not (store_after is None or isinstance(store_after, str)):
            raise ValueError("store cursor")
        if isinstance(skip, bool) or not isinstance(skip, int) or not 0 <= skip <= MAX_PAGE_SIZE:
            raise ValueError("skip")
    except (ValueError, TypeError, UnicodeDecodeError, binascii.Error) as exc:
        raise ValidationError("is not a cursor this API issued", path="after") from exc
    return store_after, skip


@dataclass(frozen=True)
class Slice(Generic[T]):
    items: list[tuple[str, T]]
    end_cursor: str | None
    has_next_page: bool


async def paginate(
    fetch: Callable[[int, str | None], Awaitable[Page[T]]], first: int | None, after: str | None
) -> Slice[T]:
    """One page of ``(cursor, item)``; ``fetch(first, store_after)`` is the store listing."""
    size = check_first(first)
    store_after, skip = decode(after) if after else (None, 0)
    page = await fetch(size + skip, store_after)
    items = list(page.items)[skip : skip + size]
    edges = [(encode(store_after, skip + i + 1), item) for i, item in enumerate(items)]
    has_next = len(page.items) > skip + size or page.has_next_page
    if edges and skip + len(items) == len(page.items) and page.end_cursor:
        edges[-1] = (encode(page.end_cursor, 0), edges[-1][1])  # resume without re-reading
    return Slice(edges, edges[-1][0] if edges else None, has_next)
