"""Typed views over a stored report document, tolerant of the report's schema version.

The report schema belongs to the verification engine and may grow; the API
exposes the stable parts as typed fields and the whole document as JSON.
Missing parts read as None/empty rather than failing the query.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

VERDICTS = ("supported", "weak", "unsupported", "contradicted", "unverifiable")
_ITEM_LISTS = ("citations", "checks", "citation_checks", "items", "results")
_COUNT_MAPS = ("verdict_counts", "totals", "counts")


def citation_items(doc: dict[str, Any]) -> list[dict[str, Any]]:
    for name in _ITEM_LISTS:
        value = doc.get(name)
        if isinstance(value, list):
            return [item for item in value if isinstance(item, dict)]
    return []


def item_keys(item: dict[str, Any]) -> list[str]:
    for name in ("key", "source_key", "citation_key"):
        value = item.get(name)
        if isinstance(value, str):
            return [value]
    keys = item.get("keys")
    return [k for k in keys if isinstance(k, str)] if isinstance(keys, list) else []


def item_verdict(item: dict[str, Any]) -> str | None:
    value = item.get("verdict")
    if isinstance(value, dict):
        value = value.get("verdict") or value.get("label")
    return value if isinstance(value, str) else None


def item_confidence(item: dict[str, Any]) -> float | None:
    value = item.get("confidence")
    if value is None and isinstance(item.get("verdict"), dict):
        value = item["verdict"].get("confidence")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def item_claim(item: dict[str, Any]) -> str | None:
    claim = item.get("claim")
    if isinstance(claim, dict):
        claim = claim.get("text")
    return claim if isinstance(claim, str) else None


def item_evidence(item: dict[str, Any]) -> list[dict[str, Any]]:
    evidence = item.get("evidence")
    if isinstance(evidence, dict):
        return [evidence]
    if isinstance(evidence, list):
        return [e for e in evidence if isinstance(e, dict)]
    return []


def verdict_counts(doc: dict[str, Any]) -> dict[str, int]:
    for name in _COUNT_MAPS:
        value = doc.get(name)
        if isinstance(value, dict) and all(isinstance(v, int) for v in value.values()):
            return {str(k): int(v) for k, v in value.items()}
    counted = Counter(v for v in map(item_verdict, citation_items(doc)) if v)
    return dict(counted)


def citations_checked(doc: dict[str, Any]) -> int:
    value = doc.get("citations_checked")
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return len(citation_items(doc))


def number(doc: dict[str, Any], name: str) -> float | None:
    value = doc.get(name)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def text(doc: dict[str, Any], name: str) -> str | None:
    value = doc.get(name)
    return str(value) if isinstance(value, str | int) and not isinstance(value, bool) else None
