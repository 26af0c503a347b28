"""The newest report of every output of a session, in one listing call per session.

``citationSummary`` needs the latest report of each citing node; asking per
node costs one round trip each, while one ``list_reports`` filtered by session
answers all of them. "Newest" is the highest version, as ``get_report`` means it.
"""

from __future__ import annotations

import asyncio

from strawberry.dataloader import DataLoader

from provgraph.store.port import AsyncGraphStore
from provgraph.store.types import MAX_PAGE_SIZE, ReportFilter, StoredReport

Key = str
Result = dict[str, StoredReport]
MAX_PAGES = 4
"""At most 2,000 reports per session are considered (older pages are not read)."""


def session_reports_loader(store: AsyncGraphStore, project: str) -> DataLoader[Key, Result]:
    async def one(session_id: str) -> Result:
        latest: Result = {}
        after: str | None = None
        for _ in range(MAX_PAGES):
            page = await store.list_reports(
                project,
                first=MAX_PAGE_SIZE,
                after=after,
                filter=ReportFilter(session_id=session_id),
            )
            for report in page.items:
                known = latest.get(report.output_id)
                if known is None or report.version > known.version:
                    latest[report.output_id] = report
            if not page.has_next_page or page.end_cursor is None:
                break
            after = page.end_cursor
        return latest

    async def load(keys: list[Key]) -> list[Result]:
        return list(await asyncio.gather(*(one(k) for k in keys)))

    return DataLoader(load_fn=load)
