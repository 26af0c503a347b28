"""GraphQL enum ``ReviewState``: narrow reviewed citations to the reviewed or overridden ones."""

from enum import Enum

import strawberry


@strawberry.enum(description="Which citation checks to list.")
class ReviewState(Enum):
    ALL = "all"
    REVIEWED = "reviewed"
    OVERRIDDEN = "overridden"
