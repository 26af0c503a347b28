""" "Not … until": an event put off, not denied.

"The bridge was not opened until 1932." says that the bridge opened in 1932 (and not
before). Read as a negation it made a source saying "The bridge finally opened in 1932"
a contradiction twice over: a negation conflict (the source asserts "opened", which the
claim seemed to deny) and the NLI model, which reads the negated sentence against a
premise of the same event as contradicted (0.83 on that pair). Here:

* :func:`delayed` — is a cue the *not* of "not … until / till" (the "until" in the
  cue's own clause, at most :data:`_GAP` words after it)? Such a cue negates nothing:
  :mod:`.negation` skips it, so the polarity and contrapositive readings, which need a
  negated claim, leave the claim alone too.
* :func:`assertive_form` — the claim with the event at its time: "was not opened until
  1932" → "was opened in 1932", "did not speak until he was asked" → "did speak when he
  was asked". The preposition is chosen from the words after "until" (a year, month,
  season, decade or century: *in*; a day or weekday: *on*; "after" / "before": kept;
  "the end / start of": *at*; a pronoun opening a clause: *when*); any other time is
  not rewritten (None), since a wrong preposition would change what is read.
The NLI stage reads the assertive form instead of the claim as written
(:mod:`.delayed_reread`).
"""

from __future__ import annotations

import re

from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import plain_apostrophes

#: The most words between the cue and its "until" ("was not formally opened to the
#: public until"): a further "until" belongs to another predicate of the clause.
_GAP = 6
_UNTIL = re.compile(rf"(?:\W*[\w'-]+){{0,{_GAP}}}?\W+(?:until|till)\b", re.IGNORECASE)
#: The cues this reading applies to: the plain clausal "not" (never / no / without …
#: "until" are other constructions: "no trains until Monday" denies trains before it).
_DELAYABLE = frozenset({"not", "n't"})

_AUX = r"do|does|did|is|are|was|were|has|have|had|could|would|should|must"
_NEGATION_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        (rf"\b({_AUX})\s+not\b", r"\1"),
        (rf"\b({_AUX})n't\b", r"\1"),
        (r"\bwon't\b", "will"),
        (r"\b(?:can't|cannot)\b", "can"),
    )
)
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
#: (what follows "until", the words that replace "until")
_TIMES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        (r"(?:after|before)\b", ""),
        (r"(?:the\s+)?(?:end|start|beginning|middle|close|turn|age)\s+of\b", "at"),
        (rf"(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})\b|(?:{_WEEKDAYS})\b)", "on"),
        (rf"(?:{_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?!\d)", "on"),
        (rf"(?:(?:early|late|mid)[-\s]+)?(?:\d{{4}}s?\b|(?:{_MONTHS})\b)", "in"),
        (
            r"(?:the\s+)?(?:(?:early|late|mid)[-\s]+)?"
            r"(?:\d{4}s|\d{2}s|\d{1,2}(?:st|nd|rd|th)\s+century)\b",
            "in",
        ),
        (r"(?:the\s+)?(?:spring|summer|autumn|fall|winter)\b", "in"),
        (r"(?:he|she|it|they|we|i|you)\b", "when"),
    )
)


def delayed(cue: str, clause: str, cue_end: int) -> bool:
    """Is the cue ending at ``cue_end`` of ``clause`` the *not* of "not … until"?"""
    return cue.lower() in _DELAYABLE and _UNTIL.match(clause, cue_end) is not None


def _time_words(rest: str) -> str | None:
    """The words replacing "until" before ``rest`` (what follows it), or None."""
    for pattern, replacement in _TIMES:
        if pattern.match(rest):
            return replacement
    return None


def assertive_form(claim: str) -> str | None:
    """``claim`` stating its put-off event at its time, or None (no "not … until", more than
    one sentence, or a time this module does not know how to say)."""
    claim = plain_apostrophes(claim).strip()
    if len(split_sentences(claim)) != 1:
        return None
    for pattern, replacement in _NEGATION_REWRITES:
        cue = pattern.search(claim)
        if cue is None:
            continue
        word = "n't" if "n't" in cue.group(0).lower() else "not"
        if not delayed(word, claim, cue.end()):
            return None
        until = re.compile(r"\b(?:until|till)\s+", re.IGNORECASE).search(claim, cue.end())
        assert until is not None  # delayed() found it
        time_words = _time_words(claim[until.end() :])
        if time_words is None:
            return None
        head = claim[: cue.start()] + cue.expand(replacement) + claim[cue.end() : until.start()]
        tail = f"{time_words} {claim[until.end() :]}" if time_words else claim[until.end() :]
        return re.sub(r"\s+", " ", f"{head}{tail}").strip()
    return None
