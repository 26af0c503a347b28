"""GraphQL enum ``LineageDirection``: UP (what it came from) or DOWN (what depends on it)."""

import strawberry

from provgraph.store.types import LineageDirection as DomainLineageDirection

LineageDirection = strawberry.enum(DomainLineageDirection, name="LineageDirection")
