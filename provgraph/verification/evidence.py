"""Evidence windows: where in a long premise the NLI stage reads, around ranked seeds.

Sentence-level retrieval for long premises: instead of every token window of
a source, the NLI stage reads a few windows, each a seed span chosen by a
cheap stage (embedding cosine or word overlap) widened with its neighbouring
whole sentences up to a token budget. Token counts come from the NLI
tokenizer's offsets, so a window never exceeds the budget (and the model
never truncates the premise). :func:`token_windows` is the plain alternative:
overlapping token windows covering the whole premise.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TokenOffsets:
    """Character offsets of a premise's tokens and of its sentences (for evidence windows)."""

    text: str
    starts: list[int]
    ends: list[int]
    sentence_starts: list[int]
    sentence_ends: list[int]
    fallback: bool = False

    @classmethod
    def of(cls, tokenizer: Any, text: str) -> TokenOffsets:
        from provgraph.verification.sentences import split_sentences

        try:
            enc = tokenizer(
                text, add_special_tokens=False, return_offsets_mapping=True, verbose=False
            )
            offsets = [(int(s), int(e)) for s, e in enc["offset_mapping"] if e > s]
            fallback = False
        except (NotImplementedError, TypeError, ValueError, KeyError):
            offsets, fallback = [], True
        sents = split_sentences(text)
        return cls(
            text,
            [s for s, _ in offsets],
            [e for _, e in offsets],
            [x.start for x in sents],
            [x.end for x in sents],
            fallback,
        )


def evidence_windows(
    tokens: TokenOffsets, seeds: list[tuple[int, int]], budget: int, limit: int
) -> list[tuple[int, int]]:
    """At most ``limit`` character spans of ≤ ``budget`` tokens around the ranked ``seeds``.

    Each window is its seed widened evenly on both sides to the budget, then
    trimmed to whole sentences where that keeps the seed; a seed mostly inside
    an earlier window adds nothing (the next seed is tried).
    """
    n = len(tokens.starts)
    out: list[tuple[int, int]] = []
    for s, e in seeds:
        if len(out) >= limit:
            break
        ti = bisect.bisect_right(tokens.ends, s)
        tj = max(ti + 1, bisect.bisect_left(tokens.starts, e))
        if ti >= n:
            continue
        tj = min(tj, n)
        if tj - ti >= budget:
            a, b = ti, ti + budget
        else:
            a = max(0, ti - (budget - (tj - ti)) // 2)
            b = min(n, a + budget)
            a = max(0, b - budget)
        cs, ce = tokens.starts[a], tokens.ends[b - 1]
        seed_s, seed_e = tokens.starts[ti], tokens.ends[min(tj, b) - 1]
        k = bisect.bisect_left(tokens.sentence_starts, cs)
        if k < len(tokens.sentence_starts) and tokens.sentence_starts[k] <= seed_s:
            cs = tokens.sentence_starts[k]
        k = bisect.bisect_right(tokens.sentence_ends, ce) - 1
        if k >= 0 and tokens.sentence_ends[k] >= seed_e:
            ce = tokens.sentence_ends[k]
        if any(_overlap(cs, ce, x, y) > 0.5 for x, y in out):
            continue
        out.append((cs, ce))
    return out


def _overlap(a: int, b: int, c: int, d: int) -> float:
    """Overlap of two spans as a share of the shorter one."""
    inter = min(b, d) - max(a, c)
    shorter = min(b - a, d - c)
    return inter / shorter if shorter > 0 and inter > 0 else 0.0


def preselect_spans(
    premise: str, spans: list[tuple[int, int]], seeds: list[tuple[int, int]], limit: int
) -> list[int]:
    """Indices of at most ``limit`` windows: those containing the best seeds first, in order."""
    if len(spans) <= limit:
        return list(range(len(spans)))
    chosen: list[int] = []
    for s, e in seeds:
        best = max(range(len(spans)), key=lambda i: _overlap(s, e, *spans[i]))
        if best not in chosen:
            chosen.append(best)
        if len(chosen) >= limit:
            break
    return sorted(chosen) or list(range(min(limit, len(spans))))


def token_windows(
    tokenizer: Any, text: str, *, window_tokens: int = 224, stride_tokens: int = 160
) -> list[tuple[int, int]]:
    """Character spans of overlapping token windows covering all of ``text``.

    Uses the tokenizer's offset mapping (fast tokenizers); without one, falls
    back to character windows of about 4 characters per token.
    """
    if not text.strip():
        return []
    try:
        enc = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True, verbose=False)
        offsets = [(int(s), int(e)) for s, e in enc["offset_mapping"] if e > s]
    except (NotImplementedError, TypeError, ValueError, KeyError):
        offsets = []
        step, width = stride_tokens * 4, window_tokens * 4
        starts = list(range(0, max(1, len(text) - width + step), step))
        return [(s, min(len(text), s + width)) for s in starts]
    if len(offsets) <= window_tokens:
        return [(0, len(text))]
    spans: list[tuple[int, int]] = []
    i = 0
    last = len(offsets) - window_tokens
    while True:
        j = min(i, last)
        spans.append((offsets[j][0], offsets[j + window_tokens - 1][1]))
        if j >= last:
            break
        i += stride_tokens
    return spans
