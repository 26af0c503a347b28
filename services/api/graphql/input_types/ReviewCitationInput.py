"""GraphQL input ``ReviewCitationInput``."""

import strawberry


@strawberry.input(description="Confirm or override one citation check; the note is required.")
class ReviewCitationInput:
    output_id: strawberry.ID
    tag_index: int
    action: str = strawberry.field(description="confirm or override.")
    note: str
    key: str | None = strawberry.field(default=None, description="When the tag cites several.")
    verdict: str | None = strawberry.field(default=None, description="Needed for override.")
    version: int | None = strawberry.field(default=None, description="Default: newest report.")
