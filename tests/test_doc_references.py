"""Docstrings that send the reader to a page under docs/ name a page that exists."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
_CITED = re.compile(r"docs/([\w./-]+\.(?:md|graphql|json))")


def test_every_cited_doc_exists() -> None:
    missing = sorted(
        f"{path.relative_to(REPO)} -> docs/{name}"
        for folder in ("provgraph", "services")
        for path in (REPO / folder).rglob("*.py")
        for name in _CITED.findall(path.read_text(encoding="utf-8"))
        if not (REPO / "docs" / name).exists()
    )
    assert missing == []


def test_no_docstring_cites_interop_md_outside_docs() -> None:
    bare = re.compile(r"(?<![/\w])interop\.md")
    offenders = [
        str(path.relative_to(REPO))
        for folder in ("provgraph", "services")
        for path in (REPO / folder).rglob("*.py")
        if bare.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
