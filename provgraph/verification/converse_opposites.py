"""Opposites that agree: said with their sides exchanged, or relative to different things.

"A is larger than B" and "B is smaller than A" hold a pair of opposites and say the same;
so do "Love finished behind Crosby" and "Crosby finished ahead of Love". The antonym check
(:mod:`.antonyms`) asks these before it reads a pair as a conflict. Split from it in
session 29.
"""

from __future__ import annotations

import re

from provgraph.verification.antonym_lexicon import american
from provgraph.verification.wordsets import content_stems, stem

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
    """ "A is larger than B" / "B is smaller than A": opposite comparatives, sides exchanged.
    Never when both compare with the same other side ("The new hall is smaller than the old
    hall" / "… larger than the old hall": the head noun both sides share is no exchange)."""
    a, b = THAN.match(claim), THAN.match(sentence)
    if a is None or b is None:
        return False
    left_a, right_a = set(content_stems(a["left"])), set(content_stems(a["right"]))
    left_b, right_b = set(content_stems(b["left"])), set(content_stems(b["right"]))
    if right_a == right_b:
        return False
    return bool(right_a & left_b) and bool(left_a & right_b) and not (left_a & left_b - right_a)


#: Verbs that state one event from its two sides: "The library lent the manuscript to the
#: university" is "The university borrowed the manuscript from the library". Opposites in
#: the lexicons, they agree when each sentence's subject is the other's second party.
_CONVERSE_VERBS = frozenset(
    frozenset(pair)
    for pair in (
        ("lend", "borrow"),
        ("sell", "buy"),
        ("export", "import"),
        ("give", "receive"),
        ("send", "receive"),
        ("teach", "learn"),
        ("win", "lose"),
    )
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def converse_verbs(claim: str, word: str, sentence: str, opposite: str) -> bool:
    """ "A lent X to B" / "B borrowed X from A": converse verbs, parties exchanged.

    ``word`` and ``opposite`` are the pair as the antonym check read them (a crude stem
    or a lower-case word). Each side's subject (the content words before its verb) must
    be among the other side's words after its verb, and the two subjects share none.
    """
    mine, theirs = _around(claim, word), _around(sentence, opposite)
    if mine is None or theirs is None or frozenset((mine[0], theirs[0])) not in _CONVERSE_VERBS:
        return False
    (_verb, subject, rest), (_other, their_subject, their_rest) = mine, theirs
    return bool(subject & their_rest) and bool(their_subject & rest) and not subject & their_subject


def _around(text: str, word: str) -> tuple[str, set[str], set[str]] | None:
    """(verb lemma, content stems before, content stems after) of the first token read as
    ``word``; None when no token is, or when it is not a verb."""
    from lemminflect import getAllLemmas

    tokens = _WORD.findall(text)
    for i, token in enumerate(tokens):
        lower = american(token.lower())
        if word not in (lower, stem(lower)):
            continue
        lemmas = getAllLemmas(token.lower()).get("VERB", ())
        if not lemmas:
            return None
        before, after = " ".join(tokens[:i]), " ".join(tokens[i + 1 :])
        return lemmas[0], set(content_stems(before)), set(content_stems(after))
    return None
