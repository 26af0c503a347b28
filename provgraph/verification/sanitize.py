"""Step 1 (existence): remove citation keys that do not resolve in the session.

Rewrites touch only tag characters (via :func:`provgraph.citations.rewrite_citation_tags`),
so text outside tags is byte-identical; keys are only ever removed, never added
or reordered; a tag left without keys disappears. The result is a pure
function of the text and of which keys resolve (deterministic).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from provgraph.citations import CitationRef, citation_tag_spans, format_tag, rewrite_citation_tags
from provgraph.verification.sources import as_resolver


@dataclass
class CitationKeyFilterResult:
    """Which keys of one tag were kept or removed (seed shape; one record per changed tag).

    Unlike the seed, ``removed_keys`` keeps the written order (the seed built it
    from a set, so its order depended on the hash seed).
    """

    raw_tag: str
    tag_start: int
    tag_end: int
    original_keys: list[str]
    removed_keys: list[str]
    retained_keys: list[str]


def filter_tag_keys(text: str, keep: dict[int, list[str]]) -> str:
    """Rewrite each tag ``i`` to the keys in ``keep[i]`` that it already had, in written order.

    Tags absent from ``keep`` are left unchanged. Keys not written in the tag are
    ignored, so this can never add a key; duplicate keys collapse to the first.
    """

    def replace(index: int, ref: CitationRef) -> str:
        if index not in keep:
            return ref.raw
        allowed = set(keep[index])
        kept: list[str] = []
        for key in ref.refs:
            if key in allowed and key not in kept:
                kept.append(key)
        if kept == list(ref.refs):
            return ref.raw
        return format_tag(kept)

    return rewrite_citation_tags(text, replace)


def strip_unresolvable_citation_keys(
    text: str, store: Any
) -> tuple[str, list[CitationKeyFilterResult]]:
    """Remove keys the store cannot resolve; drop tags left empty (seed API).

    ``store`` is a :class:`~provgraph.verification.sources.SourceResolver`, an
    object with ``source_resolver()``, or a ``{key: text}`` mapping. With ``d_1``
    and ``d_2`` registered, ``"Claim. [REF|d_1|fake] More [REF|bad]. End [REF|d_2]"``
    becomes ``"Claim. [REF|d_1] More . End [REF|d_2]"`` with two records.
    """
    resolver = as_resolver(store)
    known: dict[str, bool] = {}
    records: list[CitationKeyFilterResult] = []
    keep: dict[int, list[str]] = {}
    for index, (start, end, ref) in enumerate(citation_tag_spans(text)):
        for key in ref.refs:
            if key not in known:
                known[key] = resolver.resolve(key) is not None
        retained = [k for k in ref.refs if known[k]]
        if len(retained) == len(ref.refs):
            continue
        removed = [k for k in ref.refs if not known[k]]
        keep[index] = retained
        records.append(
            CitationKeyFilterResult(
                raw_tag=ref.raw,
                tag_start=start,
                tag_end=end,
                original_keys=list(ref.refs),
                removed_keys=removed,
                retained_keys=retained,
            )
        )
    return filter_tag_keys(text, keep), records
