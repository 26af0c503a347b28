"""Character windows over a source, with offsets into the original text.

The seed normalised a source (lowercase, whitespace runs collapsed to one
space, stripped) and cut windows of ``chunk_chars`` every ``chunk_stride``
plus a tail window ending at the end; a 2,500-character source gives windows
at 0, 600, 1200 and a tail at 1300. Offsets there referred to the normalised
text, which is useless as evidence; :class:`NormalizedText` keeps a map back
to the original so every window has an original ``(start, end)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

_TOKEN_OR_SPACE_RE = re.compile(r"\s+|\S+")


@dataclass(frozen=True)
class NormalizedText:
    """``text`` normalised as the seed did, and ``offsets[i]`` = original index of ``text[i]``.

    ``offsets`` has one extra final entry: the original end of the normalised text.
    """

    text: str
    offsets: np.ndarray

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Map a normalised ``[start, end)`` span to the original text."""
        if end <= start:
            o = int(self.offsets[min(start, len(self.offsets) - 1)])
            return o, o
        return int(self.offsets[start]), int(self.offsets[end - 1]) + 1


_MULTI_SPACE_RE = re.compile(r"\s{2,}")
_SPACE_RE = re.compile(r"\s+")


def normalize(text: str) -> NormalizedText:
    """Lowercase, collapse whitespace runs to one space, strip; keep an offset map.

    Fast path (numpy mask) when lowercasing keeps every character's length,
    which is the case for nearly all text; a per-token walk otherwise.
    """
    lead = len(text) - len(text.lstrip())
    body = text.strip()
    low = body.lower()
    if len(low) == len(body):
        keep = np.ones(len(body), dtype=bool)
        for m in _MULTI_SPACE_RE.finditer(body):
            keep[m.start() + 1 : m.end()] = False
        offsets = np.append(np.flatnonzero(keep) + lead, lead + len(body))
        return NormalizedText(_SPACE_RE.sub(" ", low), offsets)
    return _normalize_slow(body, lead)


def _normalize_slow(body: str, lead: int) -> NormalizedText:
    parts: list[str] = []
    offsets: list[int] = []
    for m in _TOKEN_OR_SPACE_RE.finditer(body):
        s, e = m.start() + lead, m.end() + lead
        tok = m.group(0)
        if tok[0].isspace():
            parts.append(" ")
            offsets.append(s)
            continue
        low = tok.lower()
        parts.append(low)
        if len(low) == len(tok):
            offsets.extend(range(s, e))
        else:  # a character whose lowercase form has another length (e.g. "İ")
            for i, ch in enumerate(tok):
                offsets.extend([s + i] * len(ch.lower()))
    offsets.append(lead + len(body))
    return NormalizedText("".join(parts), np.asarray(offsets, dtype=np.int64))


def seed_windows(
    length: int, *, chunk_chars: int, chunk_stride: int, max_chunks: int, text: str | None = None
) -> list[tuple[int, int]]:
    """Window spans over ``length`` characters, exactly as the seed cut them.

    Windows start every ``chunk_stride`` while they fit, at most ``max_chunks``;
    then a tail window ``[length - chunk_chars, length)`` is added unless it
    equals the last window (compared by ``text`` when given — a periodic source
    can repeat itself) or the cap is reached.
    """
    if length <= 0:
        return []
    if length <= chunk_chars:
        return [(0, length)]
    spans: list[tuple[int, int]] = []
    last_start = length - chunk_chars
    i = 0
    while i <= last_start and len(spans) < max_chunks:
        spans.append((i, i + chunk_chars))
        i += max(1, chunk_stride)
    tail = (last_start, length)
    s0, e0 = spans[-1]
    same = tail == spans[-1] or (text is not None and text[tail[0] : tail[1]] == text[s0:e0])
    if not same and len(spans) < max_chunks:
        spans.append(tail)
    return spans


_WORD_RE = re.compile(r"[a-z0-9]+")


def lexical_overlap(claim: str, window: str) -> float:
    """Share of the claim's distinct words present in ``window`` (0..1); a cheap ranking signal."""
    words = set(_WORD_RE.findall(claim.lower()))
    if not words:
        return 0.0
    return len(words & set(_WORD_RE.findall(window.lower()))) / len(words)


def preselect(claim: str, texts: list[str], limit: int) -> list[int]:
    """Indices of at most ``limit`` texts, ranked by :func:`lexical_overlap`, returned in order.

    Used when a source has more windows than a stage will score: the choice is
    lexical (recorded in the report as ``windows_scored < windows_total``),
    not "the first N", so a long source's tail is not dropped for position alone.
    """
    if limit <= 0 or len(texts) <= limit:
        return list(range(len(texts)))
    ranked = sorted(range(len(texts)), key=lambda i: (-lexical_overlap(claim, texts[i]), i))
    return sorted(ranked[:limit])


def sentence_chunks(text: str, *, max_chars: int = 400) -> list[tuple[int, int]]:
    """Spans of consecutive whole sentences packed up to ``max_chars`` (no overlap).

    Embedding a short piece of evidence inside a long fixed window dilutes it;
    packing whole sentences keeps evidence sharp at about the same number of
    windows as ``2 × max_chars`` windows every ``max_chars``. A sentence longer
    than ``max_chars`` is cut into half-overlapping character windows.
    """
    from provgraph.verification.sentences import split_sentences

    spans: list[tuple[int, int]] = []
    cur: tuple[int, int] | None = None
    for sent in split_sentences(text):
        if sent.end - sent.start > max_chars:
            if cur:
                spans.append(cur)
                cur = None
            step = max(1, max_chars // 2)
            last = sent.end - max_chars
            s = sent.start
            while s < last:
                spans.append((s, s + max_chars))
                s += step
            spans.append((last, sent.end))
            continue
        if cur and sent.end - cur[0] <= max_chars:
            cur = (cur[0], sent.end)
        else:
            if cur:
                spans.append(cur)
            cur = (sent.start, sent.end)
    if cur:
        spans.append(cur)
    return spans
