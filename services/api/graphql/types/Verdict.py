"""GraphQL enum ``Verdict``: the verification engine's verdicts (filter values)."""

from enum import StrEnum

import strawberry


@strawberry.enum(description="A citation's verdict.")
class Verdict(StrEnum):
    SUPPORTED = "supported"
    WEAK = "weak"
    UNSUPPORTED = "unsupported"
    CONTRADICTED = "contradicted"
    UNVERIFIABLE = "unverifiable"
