"""Typed wrappers of Strawberry's resolver decorators (mypy --strict sees through them).

``strawberry.field(...)`` used as a decorator is untyped without the Strawberry
mypy plugin, which the project does not enable; these casts keep resolver
signatures checked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import strawberry

F = TypeVar("F", bound=Callable[..., Any])


def field(*, description: str | None = None) -> Callable[[F], F]:
    return cast(Callable[[F], F], strawberry.field(description=description))


def mutation(*, description: str | None = None) -> Callable[[F], F]:
    return cast(Callable[[F], F], strawberry.mutation(description=description))
