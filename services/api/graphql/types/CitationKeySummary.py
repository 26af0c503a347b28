"""GraphQL ``CitationKeySummary``: a session's citation key, what it names, where it is cited."""

from __future__ import annotations

from collections import Counter

import strawberry

from provgraph.usecases.reviews import reviewed_checks
from services.api.graphql import report_view, typed
from services.api.graphql.context import GraphQLContext
from services.api.graphql.types.CitationVerdict import CitationVerdict
from services.api.graphql.types.Node import Node
from services.api.graphql.types.ReviewedVerdictCount import ReviewedVerdictCount


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
        ctx = info.context
        by_output = await ctx.loaders.session_reports.load(self.session_id)
        verdicts: list[CitationVerdict] = []
        for output_id in (str(i) for i in self.cited_in_ids):
            stored = by_output.get(output_id)
            if stored is None:
                continue
            reviews = await ctx.store.list_reviews(ctx.project, output_id)
            reviewed = {(c.tag_index, c.key): c for c in reviewed_checks(stored, reviews)}
            for item in report_view.citation_items(stored.report):
                if self.key in report_view.item_keys(item):
                    check = reviewed.get((int(item.get("tag_index", -1)), self.key))
                    verdicts.append(
                        CitationVerdict(
                            output_id=strawberry.ID(output_id),
                            report_version=stored.version,
                            verdict=report_view.item_verdict(item),
                            confidence=report_view.item_confidence(item),
                            claim=report_view.item_claim(item),
                            effective_verdict=check.effective_verdict if check else None,
                            overridden=check.overridden if check else False,
                        )
                    )
        return verdicts

    @typed.field(description="This key's citations per verdict: machine and after reviews.")
    async def verdict_counts(
        self, info: strawberry.Info[GraphQLContext, None]
    ) -> list[ReviewedVerdictCount]:
        verdicts = await self.latest_verdicts(info)
        machine = Counter(v.verdict for v in verdicts if v.verdict)
        effective = Counter(v.effective_verdict or v.verdict for v in verdicts if v.verdict)
        return [
            ReviewedVerdictCount(verdict=name, machine=machine[name], effective=effective[name])
            for name in sorted(set(machine) | set(effective))
        ]
