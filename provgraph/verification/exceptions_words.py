"""What an exception phrase sets apart: "open every day *except Monday*", "runs daily *except
on public holidays*". The sentence states the opposite of itself for those words, so they
are neither asserted by it (:mod:`.negation`) nor the subject of an opposite pair in it
(:mod:`.antonyms`)."""

from __future__ import annotations

import re

from provgraph.verification.wordsets import content_stems

_EXCEPTION = re.compile(
    r"\b(?:except(?: for| on| in| at| during)?|excluding|other than|apart from|but not)\b", re.I
)
#: How far after the phrase its words are read, and how many of them.
_REACH_CHARS = 60
_MAX_WORDS = 3


def excepted(sentence: str) -> set[str]:
    """Stems of the (at most three) content words each exception phrase of ``sentence``
    sets apart."""
    out: set[str] = set()
    for m in _EXCEPTION.finditer(sentence):
        out.update(content_stems(sentence[m.end() : m.end() + _REACH_CHARS])[:_MAX_WORDS])
    return out
