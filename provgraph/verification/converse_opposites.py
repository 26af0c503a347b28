"""Opposites that agree: said with their sides exchanged, or relative to different things.

"A is larger than B" and "B is smaller than A" hold a pair of opposites and say the same;
so do "Love finished behind Crosby" and "Crosby finished ahead of Love". The antonym check
(:mod:`.antonyms`) asks these before it reads a pair as a conflict. Split from it in
session 29.
"""

from __future__ import annotations

import re

from provgraph.verification.wordsets import content_stems

#: Opposites that place one thing relative to another: "behind Crosby" and "ahead of Love"
#: may say the same (session 29: a WiCE row); they conflict only relative to the same thing
#: ("ahead of schedule" / "behind schedule").
_RELATIVE_WORDS = frozenset({"ahead", "behind"})


def relative_to_another(claim: str, word: str, sentence: str, opposite: str) -> bool:
    """Are ``word`` and ``opposite`` relational (:data:`_RELATIVE_WORDS`) and said relative
    to things that share no word?"""
    if not {word, opposite} & _RELATIVE_WORDS:
        return False
    mine, theirs = _reference(claim, word), _reference(sentence, opposite)
    return not mine & theirs


def _reference(text: str, word: str) -> set[str]:
    """Content stems of the three words after ``word`` ("ahead of *the 5ive singer*")."""
    found = re.search(rf"\b{re.escape(word)}\w*\s+(?:of\s+)?((?:[\w'-]+\s*){{1,3}})", text, re.I)
    return set(content_stems(found.group(1))) if found else set()


#: "A is larger than B": the two sides of a comparison (also read by :mod:`.antonyms`).
THAN = re.compile(r"^(?P<left>.*?)\bthan\b(?P<right>.*)$", re.IGNORECASE | re.DOTALL)


def converse(claim: str, sentence: str) -> bool:
    """ "A is larger than B" / "B is smaller than A": opposite comparatives, sides exchanged."""
    a, b = THAN.match(claim), THAN.match(sentence)
    if a is None or b is None:
        return False
    left_a, right_a = set(content_stems(a["left"])), set(content_stems(a["right"]))
    left_b, right_b = set(content_stems(b["left"])), set(content_stems(b["right"]))
    return bool(right_a & left_b) and bool(left_a & right_b) and not (left_a & left_b - right_a)
