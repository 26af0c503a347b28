"""Who did what to whom between two common nouns: "the tenant sued the landlord".

:func:`~provgraph.verification.roles.role_swap` reads agent and patient between
capitalised names ("Brazil beat Germany"). The same failure of a small NLI model —
"The landlord sued the tenant" scored as entailing "The tenant sued the landlord"
(0.89): the words are the same — happens between common nouns, each introduced by
a determiner. This module reads those relations: "<det> NOUN-PHRASE VERB <det>
NOUN-PHRASE", the verb a form that can only be a verb here
(:func:`~provgraph.verification.claimsplit.is_verb`: "sued", "overtook", not "plans"
or "cut"), and a passive "<det> NOUN-PHRASE was VERB-ed by <det> NOUN-PHRASE" as its
active form. A noun phrase is one to three words that are neither function words nor
verbs, read as the set of their stems (no tagger tells the head: "the tenant
*yesterday*").

Not read: a relation with any word between the verb and the second determiner
("lent *the painting* to the gallery": three parties, left to the model), and verbs
whose subject may be either party of the same event (:data:`EITHER_SIDE`: "the bill
passed the Senate" is "the Senate passed the bill"). Which verbs are symmetric or
name one relation is the caller's (:mod:`.roles`).
"""

from __future__ import annotations

import re

from provgraph.verification.word_classes import is_verb
from provgraph.verification.wordsets import STOPWORDS, stem

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*|[^\sA-Za-z]")
_DETERMINERS = frozenset(["the", "a", "an", "its", "his", "her", "their", "our", "this", "that"])
_PASSIVE_AUX = frozenset(["was", "were", "is", "are", "been"])
#: Verbs whose subject may be either party of one event: "the bill passed the Senate" /
#: "the Senate passed the bill"; "the ship left the port" is no swap of "the port left".
EITHER_SIDE = frozenset(["pass", "clear", "leave", "enter", "reach", "follow", "precede", "join"])
_MAX_PHRASE = 3
#: Prepositions and conjunctions: a noun phrase ends before them.
_LINKS = frozenset((
    "after", "before", "for", "of", "in", "on", "at", "to", "from", "with", "by", "and", "or",
    "but", "as", "than", "over", "under", "into", "onto", "during", "since", "until", "about",
    "against", "between", "through", "without", "within", "across", "per", "via", "while",
))  # fmt: skip

Relation = tuple[frozenset[str], str, frozenset[str]]


def _phrase(tokens: list[str], start: int) -> tuple[frozenset[str], int]:
    """The noun phrase's stems from ``tokens[start]`` and the index after it (empty: none)."""
    end = start
    while end < len(tokens) and end - start < _MAX_PHRASE:
        word = tokens[end]
        lower = word.lower()
        if not word[:1].isalpha() or lower in _LINKS or is_verb(word):
            break
        if lower in STOPWORDS and not _adjective(lower):
            break
        end += 1
    return frozenset(stem(w) for w in tokens[start:end]), end


def _adjective(word: str) -> bool:
    """A stopword that is an adjective in a noun phrase ("the *new* coach")."""
    from lemminflect import getAllLemmas

    return "ADJ" in getAllLemmas(word)  # lower-case


def noun_relations(sentence: str) -> list[Relation]:
    """``(agent stems, verb as written, patient stems)`` of each determiner-noun relation."""
    tokens = _TOKEN.findall(sentence)
    out: list[Relation] = []
    for i, word in enumerate(tokens):
        if word.lower() not in _DETERMINERS:
            continue
        first, j = _phrase(tokens, i + 1)
        if not first or j >= len(tokens):
            continue
        if tokens[j].lower() in _PASSIVE_AUX:  # "the tenant was sued by the landlord"
            rest = [t.lower() for t in tokens[j + 1 : j + 4]]
            if len(rest) == 3 and is_verb(rest[0]) and rest[1] == "by" and rest[2] in _DETERMINERS:
                agent, _end = _phrase(tokens, j + 4)
                if agent:
                    out.append((agent, rest[0], first))
            continue
        if is_verb(tokens[j]) and j + 1 < len(tokens) and tokens[j + 1].lower() in _DETERMINERS:
            patient, _end = _phrase(tokens, j + 2)
            if patient:
                out.append((first, tokens[j], patient))
    return [(a, verb, b) for a, verb, b in out if not a & b]


def swapped(claim: Relation, source: Relation) -> bool:
    """The same relation with agent and patient exchanged: each side of the claim shares a
    word with the other side of the source, and none with its own."""
    (ca, _cv, cb), (sa, _sv, sb) = claim, source
    return bool(ca & sb) and bool(cb & sa) and not ca & sa and not cb & sb


def same_way(claim: Relation, source: Relation) -> bool:
    """The claim's relation stated its own way: agent with agent, patient with patient."""
    (ca, _cv, cb), (sa, _sv, sb) = claim, source
    return bool(ca & sa) and bool(cb & sb)
