"""The newest verification report of an output (for citation summaries and jobs)."""

from __future__ import annotations

import asyncio

from strawberry.dataloader import DataLoader

from provgraph.store.port import AsyncGraphStore
from provgraph.store.types import StoredReport

Key = str
Result = StoredReport | None


def latest_reports_loader(store: AsyncGraphStore, project: str) -> DataLoader[Key, Result]:
    async def load(keys: list[Key]) -> list[Result]:
        return list(await asyncio.gather(*(store.get_report(project, k) for k in keys)))

    return DataLoader(load_fn=load)
