"""Sentence splitting with character spans, for claims and coverage.

The seed split on ``.!?`` followed by whitespace, so "Dr. Smith found revenue
grew." lost "Dr." (defect 6). This splitter only ends a sentence at ``.!?``
(optionally followed by closing quotes/brackets and by citation tags) when

* whitespace or the end of the text follows,
* the word before a single ``.`` is not an allowlisted abbreviation
  (:data:`ABBREVIATIONS`) and not an initial or initialism (``J.``, ``U.S.``),
* the next word does not start with a lowercase letter (``approx. five``),
* the ``.`` is not inside a URL.

Decimals (``3.5``) never split because no whitespace follows the point.
Citation tags right after the punctuation (``X. [REF|d_1] Y``) belong to the
sentence before them. A blank line always ends a sentence (paragraph break).

Known trade-off: an initialism that really ends a sentence ("moved to the U.S.
Then …") does not split; a missed split only makes a claim longer, while a
wrong split cuts a claim in half, which is worse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ABBREVIATIONS: frozenset[str] = frozenset(
    a.lower()
    for a in (
        "Dr.",
        "Mr.",
        "Mrs.",
        "Ms.",
        "Prof.",
        "Sr.",
        "Jr.",
        "St.",
        "vs.",
        "etc.",
        "e.g.",
        "i.e.",
        "cf.",
        "al.",
        "Fig.",
        "No.",
        "Vol.",
        "pp.",
        "Ch.",
    )
)
"""Tokens (with their final point) after which a sentence never ends; case-insensitive."""

_PARAGRAPH_RE = re.compile(r"\n[ \t\r\f\v]*\n\s*")
_PUNCT_RE = re.compile(r"[.!?]+")
_URL_RE = re.compile(r"(?:https?://|www\.)[^\s<>\"]*[^\s<>\".,;:!?)\]'”’]")
_CLOSERS = "\"'”’)»"
_TAG_AFTER_RE = re.compile(r"[ \t]*\[REF\|[A-Za-z_][A-Za-z0-9_]*(?:\|[A-Za-z_][A-Za-z0-9_]*)*\]")
_INITIALS_RE = re.compile(r"^(?:[A-Za-z]\.)+$")
_OPENERS = "\"'“‘([«"


@dataclass(frozen=True)
class Sentence:
    """One sentence: ``text == source[start:end]`` (stripped of surrounding whitespace)."""

    start: int
    end: int
    text: str


def _url_spans(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _URL_RE.finditer(text)]


def _inside(pos: int, spans: list[tuple[int, int]]) -> bool:
    return any(s <= pos < e for s, e in spans)


def _is_abbreviation(text: str, dot: int) -> bool:
    """Whether the ``.`` at ``dot`` ends an allowlisted abbreviation or an initial."""
    begin = dot
    while begin > 0 and not text[begin - 1].isspace():
        begin -= 1
    token = text[begin : dot + 1].lstrip(_OPENERS)
    if not token or token == ".":
        return False
    return token.lower() in ABBREVIATIONS or bool(_INITIALS_RE.match(token))


def _boundary_end(text: str, match: re.Match[str], urls: list[tuple[int, int]]) -> int | None:
    """End offset of a sentence closed by this punctuation run, or None if it does not close one."""
    p, q = match.start(), match.end()
    if _inside(p, urls):
        return None
    j = q
    while j < len(text) and text[j] in _CLOSERS:
        j += 1
    while True:
        tag = _TAG_AFTER_RE.match(text, j)
        if tag is None:
            break
        j = tag.end()
    if j < len(text) and not text[j].isspace():
        return None
    if q - p == 1 and text[p] == "." and _is_abbreviation(text, p):
        return None
    k = j
    while k < len(text) and text[k].isspace():
        k += 1
    if k < len(text) and text[k].islower():
        return None
    return j


def _split_block(text: str, start: int, end: int, out: list[Sentence]) -> None:
    block = text[start:end]
    urls = _url_spans(block)
    cursor = 0
    for match in _PUNCT_RE.finditer(block):
        if match.start() < cursor:
            continue
        stop = _boundary_end(block, match, urls)
        if stop is None:
            continue
        _emit(text, start + cursor, start + stop, out)
        cursor = stop
    _emit(text, start + cursor, end, out)


def _emit(text: str, start: int, end: int, out: list[Sentence]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        out.append(Sentence(start, end, text[start:end]))


def split_sentences(text: str) -> list[Sentence]:
    """Split ``text`` into sentences with character spans; never raises on any string."""
    out: list[Sentence] = []
    cursor = 0
    for para in _PARAGRAPH_RE.finditer(text):
        _split_block(text, cursor, para.start(), out)
        cursor = para.end()
    _split_block(text, cursor, len(text), out)
    return out
