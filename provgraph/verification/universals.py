"""A universal claim the source limits: "The update fixed the battery drain on all
devices." against "The update fixed the battery drain on most devices, but not on older
tablets."

"All" / "every" / "each" claims the whole; a source sentence saying the same thing of
"most" / "some" / "many" / "not all" of them, or making an exception ("except",
"excluding", "other than", "apart from", "but not on / for / in / at"), denies it. The
NLI model reads such pairs as entailment (every claim word is in the source). The
rule needs the claim's quantified noun (its stem) and a source sentence holding half
of the claim's other content words; a source that says "all" of the same noun itself
(without "not") is no limit. "All over", "at all", "after all", "all the time" are
no quantifiers, and "not all" claims no whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import content_stems

_UNIVERSAL = re.compile(
    r"(?<!\bat )(?<!\bafter )(?<!\bnot )\b(?:all|every|each)\s+"
    r"(?:of\s+)?(?:the\s+|its\s+|their\s+)?(?P<noun>[a-z]{3,})\b",
    re.IGNORECASE,
)
_NOT_QUANTIFIED = frozenset({"over", "the", "time", "along", "around", "together", "year"})
_PART = r"(?:most|some|many|several|a\s+few|half|not\s+all|not\s+every)"
_EXCEPTION = re.compile(
    r"\b(?:except|excluding|other\s+than|apart\s+from|but\s+not\s+(?:on|for|in|at|to))\b",
    re.IGNORECASE,
)
_MIN_SHARED = 0.5


@dataclass(frozen=True)
class UniversalLimit:
    """The claim's universal phrase and how the source limits it."""

    claim: str
    limit: str


def _universals(claim: str) -> list[tuple[str, str]]:
    """``(phrase, noun stem)`` of the claim's universal quantifiers."""
    out = []
    for m in _UNIVERSAL.finditer(claim):
        noun = m.group("noun").lower()
        stems = content_stems(noun)
        if noun in _NOT_QUANTIFIED or not stems:
            continue
        out.append((m.group(0), stems[0]))
    return out


_PARTIAL = re.compile(
    rf"\b{_PART}\s+(?:of\s+)?(?:the\s+|its\s+|their\s+)?(?P<noun>\w+)", re.IGNORECASE
)


def _limit(sentence: str, noun: str) -> str | None:
    """How ``sentence`` limits a universal over ``noun`` ("most devices", "except"), or
    None. An exception limits even a sentence that says "all" of the noun itself ("all
    citizens except diplomats")."""
    for m in _PARTIAL.finditer(sentence):
        if noun in content_stems(m.group("noun")):
            return m.group(0)
    exception = _EXCEPTION.search(sentence)
    return exception.group(0) if exception is not None else None


def universal_limit(claim: str, window: str) -> UniversalLimit | None:
    """The claim's "all N" limited by a window sentence about the same thing."""
    claimed = _universals(claim)
    if not claimed:
        return None
    for sentence in split_sentences(window):
        words = set(content_stems(sentence.text))
        for phrase, noun in claimed:
            rest = set(content_stems(claim)) - set(content_stems(phrase))
            if not rest or len(rest & words) < _MIN_SHARED * len(rest):
                continue
            limit = _limit(sentence.text, noun)
            if limit is not None:
                return UniversalLimit(phrase, limit)
    return None
