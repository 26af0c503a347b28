"""The JSON Schemas in docs/schema/ match the code (the contract is reviewed as a diff)."""

from __future__ import annotations

import pytest

from provgraph.schemas import DOCS_SCHEMA_DIR, EXPORTED, render


@pytest.mark.parametrize("name", sorted(EXPORTED))
def test_exported_schema_matches_code(name: str) -> None:
    path = DOCS_SCHEMA_DIR / name
    assert path.exists(), f"{path} missing: run `python -m provgraph.schemas --write`"
    assert path.read_text(encoding="utf-8") == render(name), (
        f"docs/schema/{name} drifted from the code: run `python -m provgraph.schemas --write`"
    )
