"""The claim each citation tag supports, with its character span.

Two modes:

* ``context`` (default, the seed's rule): up to ``max_chars`` characters before
  the tag, cut at the last earlier tag, keep the last non-blank blank-line
  paragraph, keep the last ``max_sentences`` sentences (abbreviation-aware
  splitter, :mod:`provgraph.verification.sentences`).
* ``sentence``: the sentence that contains the tag (tags right after a
  sentence's final punctuation belong to that sentence).

A claim that opens with a pronoun ("It now employs 23,400 people.") gets a
``checked_text`` with the preceding sentence's subject in its place; the
stages score that text (:mod:`provgraph.verification.decontext`).

Adjacent tags — separated by nothing or only by whitespace, as in
``X. [REF|d_1][REF|d_2]`` — form one group and share one claim. The seed cut
the second tag's context at the first tag and scored an empty claim (defect 3).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from enum import StrEnum

from provgraph.citations import citation_tag_spans, strip_inline_citation_tags
from provgraph.verification.decontext import decontextualise, needs_context
from provgraph.verification.sentences import split_sentences

DEFAULT_CONTEXT_CHARS = 720
_PARAGRAPH_RE = re.compile(r"\n\s*\n")
_WS_RE = re.compile(r"\s+")
_SPACE_BEFORE_PUNCT_RE = re.compile(r"\s+([.,;:!?])")


class ClaimMode(StrEnum):
    """How the claim of a tag is chosen."""

    CONTEXT = "context"
    SENTENCE = "sentence"


@dataclass(frozen=True)
class Claim:
    """A claim: its text (tags removed, whitespace collapsed) and span in the checked text.

    ``tag_indices`` are the indices (in ``citation_tag_spans`` order) of the tags
    that share this claim.
    """

    text: str
    start: int
    end: int
    tag_indices: tuple[int, ...]
    #: The claim with an opening pronoun resolved from the preceding sentence
    #: (:mod:`provgraph.verification.decontext`); None when nothing was changed.
    checked_text: str | None = None

    @property
    def scored_text(self) -> str:
        """What the scoring stages compare with the source."""
        return self.checked_text or self.text


def _group_start(text: str, start: int, starts_by_end: dict[int, int]) -> int:
    """Move ``start`` back over tags that precede it with only whitespace in between.

    ``starts_by_end``: each tag's start by its end (built once per text by the caller).
    """
    pos = start
    while True:
        back = pos
        while back > 0 and text[back - 1].isspace():
            back -= 1
        prev_start = starts_by_end.get(back)
        if prev_start is None or prev_start >= pos:
            return pos
        pos = prev_start


def _context_span(
    text: str,
    start: int,
    *,
    max_chars: int,
    max_sentences: int,
    spans: list[tuple[int, int]] | None = None,
    starts_by_end: dict[int, int] | None = None,
) -> tuple[int, int, str]:
    if spans is None:
        spans = [(s, e) for s, e, _ in citation_tag_spans(text)]
    if starts_by_end is None:
        starts_by_end = {e: s for s, e in spans}
    start = _group_start(text, start, starts_by_end)
    lo = max(0, start - max_chars)
    # tags are in text order and do not overlap: only those near [lo, start] matter
    near = spans[
        max(0, bisect.bisect_left(spans, (lo, -1)) - 1) : bisect.bisect_right(spans, (start, start))
    ]
    for _s, e in near:
        if lo < e <= start:
            lo = e
    # a tag that straddles the window's left edge: skip its remainder
    for s, e in near:
        if s < lo < e:
            lo = e
    body_start = lo
    paras = [m.end() for m in _PARAGRAPH_RE.finditer(text, lo, start)]
    for cut in reversed(paras):
        if text[cut:start].strip():
            body_start = cut
            break
    sentences = [s for s in split_sentences(text[body_start:start]) if s.text.strip()]
    if not sentences:
        return start, start, ""
    tail = sentences[-max_sentences:] if max_sentences > 0 else sentences
    claim_text = " ".join(_WS_RE.sub(" ", s.text).strip() for s in tail)
    return body_start + tail[0].start, body_start + tail[-1].end, claim_text


def context_before_span(
    text: str, start: int, *, max_chars: int = DEFAULT_CONTEXT_CHARS, max_sentences: int = 1
) -> str:
    """The claim context before offset ``start`` (seed API, defects 3 and 6 fixed).

    ``"First sentence. [REF|d_1] Irrelevant. Second claim. [REF|d_2]"`` with
    ``start`` at ``[REF|d_2]`` gives ``"Second claim."``; a tag at offset 0
    gives ``""``.
    """
    return _context_span(text, start, max_chars=max_chars, max_sentences=max_sentences)[2]


def _sentence_span(text: str, tag_start: int) -> tuple[int, int, str]:
    for sentence in split_sentences(text):
        if sentence.start <= tag_start < sentence.end:
            stripped = _WS_RE.sub(" ", strip_inline_citation_tags(sentence.text)).strip()
            claim = _SPACE_BEFORE_PUNCT_RE.sub(r"\1", stripped)
            return sentence.start, sentence.end, claim
    return tag_start, tag_start, ""


def _previous_sentence(text: str, start: int) -> str | None:
    """The sentence before offset ``start`` in the same paragraph, tags removed."""
    lo = max(0, start - DEFAULT_CONTEXT_CHARS)
    paras = [m.end() for m in _PARAGRAPH_RE.finditer(text, lo, start)]
    if paras:
        lo = paras[-1]
    sentences = [x for x in split_sentences(text[lo:start]) if x.text.strip()]
    if not sentences:
        return None
    return _WS_RE.sub(" ", strip_inline_citation_tags(sentences[-1].text)).strip() or None


def tag_groups(text: str) -> list[list[int]]:
    """Indices of tags grouped by adjacency (only whitespace between consecutive tags)."""
    groups: list[list[int]] = []
    prev_end: int | None = None
    for index, (start, end, _ref) in enumerate(citation_tag_spans(text)):
        if prev_end is not None and groups and not text[prev_end:start].strip():
            groups[-1].append(index)
        else:
            groups.append([index])
        prev_end = end
    return groups


def extract_claims(
    text: str,
    *,
    mode: ClaimMode = ClaimMode.CONTEXT,
    max_chars: int = DEFAULT_CONTEXT_CHARS,
    max_sentences: int = 1,
) -> list[Claim]:
    """One :class:`Claim` per tag index (shared objects for adjacent tags), in tag order."""
    spans = citation_tag_spans(text)
    pairs = [(s, e) for s, e, _ in spans]
    starts_by_end = {e: s for s, e in pairs}
    out: list[Claim | None] = [None] * len(spans)
    for group in tag_groups(text):
        first = spans[group[0]][0]
        if mode == ClaimMode.SENTENCE:
            s, e, claim_text = _sentence_span(text, first)
        else:
            s, e, claim_text = _context_span(
                text,
                first,
                max_chars=max_chars,
                max_sentences=max_sentences,
                spans=pairs,
                starts_by_end=starts_by_end,
            )
        checked = (
            decontextualise(claim_text, _previous_sentence(text, s))
            if claim_text and needs_context(claim_text)
            else None
        )
        claim = Claim(claim_text, s, e, tuple(group), checked)
        for index in group:
            out[index] = claim
    return [c for c in out if c is not None]
