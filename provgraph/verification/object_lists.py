"""A second object of a verb: "The team won the league and the cup." makes two statements.

:mod:`.claimsplit` cuts a coordination into statements; a noun phrase after "and" is
usually a list, and a list is cut only when it is one of the verb's objects: both objects
simple noun phrases (a determiner or a number, at most three lower-case words, a noun
last, no preposition), and the verb not one whose objects act together ("combined",
"compared", "linked"). Anything else stays whole (session 23).
"""

from __future__ import annotations

from provgraph.verification.word_classes import (
    DETERMINERS,
    NUMBER_WORDS,
    is_verb,
    word_classes,
    words,
)

#: Verbs whose objects act together ("combined the two firms and a bank"): no split.
_JOINT_VERBS = frozenset((
    "combine", "compare", "connect", "link", "merge", "mix", "join", "unite", "separate",
    "divide", "distinguish", "confuse", "swap", "exchange", "pair", "match", "blend",
    "bridge", "reconcile", "contrast", "equate", "balance", "share", "split",
))  # fmt: skip
_PREPOSITIONS = frozenset((
    "of", "in", "on", "at", "for", "with", "from", "to", "by", "into", "over", "under",
    "about", "between", "against", "than", "as", "per",
))  # fmt: skip


def simple_noun_phrase(tokens: list[str]) -> bool:
    """A determiner or a number, at most three lowercase words, a noun last, nothing that
    can only be a verb, no preposition ("the league", "a rooftop bar", "two golds")."""
    if not 2 <= len(tokens) <= 4:
        return False
    opener = tokens[0].lower()
    if opener in {"that", "her", "no"} or not (
        opener in DETERMINERS or opener in NUMBER_WORDS or opener[:1].isdigit()
    ):
        return False
    body = tokens[1:]
    if any(not w.isalpha() or not w.islower() or w in _PREPOSITIONS for w in body):
        return False
    if any(is_verb(w) and "NOUN" not in word_classes(w) for w in body):
        return False
    last = word_classes(body[-1])
    return "NOUN" in last and "ADJ" not in last


def object_list(subject_verb: str, first: str, rest: str) -> bool:
    """Is ``rest`` a second object of ``first``'s verb: "The team won *the league* and
    *the cup*", "has a pool and a gym". Both objects simple noun phrases (so "the 2019
    and 2020 titles", "the red and blue panels" and "the Department of Health and Human
    Services" stay whole), the verb not one whose objects act together ("combined",
    "compared", "linked")."""
    from lemminflect import getLemma

    head = words(subject_verb)
    if not head:
        return False
    lemmas = getLemma(head[-1].lower(), "VERB")
    if not lemmas or lemmas[0] in _JOINT_VERBS:
        return False
    return simple_noun_phrase(words(first)[len(head) :]) and simple_noun_phrase(words(rest))
