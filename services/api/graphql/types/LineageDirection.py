"""GraphQL enum ``LineageDirection``: UP (what it came from) or DOWN (what depends on it)."""

import strawberry

from provgraph.store.types import LineageDirection

strawberry.enum(LineageDirection, name="LineageDirection")

__all__ = ["LineageDirection"]
