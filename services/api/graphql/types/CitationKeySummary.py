"""GraphQL ``CitationKeySummary``: a session's citation key, what it names, where it is cited."""

from __future__ import annotations

import strawberry

from services.api.graphql import report_view, typed
from services.api.graphql.context import GraphQLContext
from services.api.graphql.types.CitationVerdict import CitationVerdict
from services.api.graphql.types.Node import Node


@strawberry.type(description="One citation key of a session.")
class CitationKeySummary:
    key: str
    node: Node
    cited_in_ids: list[strawberry.ID]
    session_id: strawberry.Private[str]

    @typed.field(description="The nodes whose content cites this key.")
    async def cited_in(self, info: strawberry.Info[GraphQLContext, None]) -> list[Node]:
        found = await info.context.loaders.nodes.load_many([str(i) for i in self.cited_in_ids])
        return [Node.from_domain(n) for n in found if n is not None]

    @typed.field(
        description=(
            "This key's verdicts in the latest report of each citing node (one listing of the "
            "session's reports, whatever the number of keys)."
        )
    )
    async def latest_verdicts(
        self, info: strawberry.Info[GraphQLContext, None]
    ) -> list[CitationVerdict]:
        by_output = await info.context.loaders.session_reports.load(self.session_id)
        verdicts: list[CitationVerdict] = []
        for output_id in (str(i) for i in self.cited_in_ids):
            stored = by_output.get(output_id)
            if stored is None:
                continue
            for item in report_view.citation_items(stored.report):
                if self.key in report_view.item_keys(item):
                    verdicts.append(
                        CitationVerdict(
                            output_id=strawberry.ID(output_id),
                            report_version=stored.version,
                            verdict=report_view.item_verdict(item),
                            confidence=report_view.item_confidence(item),
                            claim=report_view.item_claim(item),
                        )
                    )
        return verdicts
