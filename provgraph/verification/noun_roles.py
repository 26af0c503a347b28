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
*yesterday*"). One party may be a name instead (session 37: "Microsoft sued the
regulator" / "Microsoft was sued by the regulator"); two names are :mod:`.roles`'.

A transfer between two parties, "<det> NOUN-PHRASE VERB [<det>] OBJECT to|from <det>
NOUN-PHRASE" ("the museum lent the painting to the gallery", "the airline bought the
jets from the leasing firm"), is read by :func:`transfer_relations` (session 31): the
object named, the giver and the other party. Not read: verbs
whose subject may be either party of the same event (:data:`EITHER_SIDE`: "the bill
passed the Senate" is "the Senate passed the bill"). Which verbs are symmetric or
name one relation is the caller's (:mod:`.roles`).
"""

from __future__ import annotations

import re

from provgraph.verification.word_classes import can_be_verb, is_verb
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


def _name(tokens: list[str], start: int) -> tuple[frozenset[str], int]:
    """The capitalised name at ``tokens[start]`` (up to three words) and the index after
    it (empty: none). Not a function word ("The", "This"), not a verb, not the middle of
    a name or of a determiner's phrase ("the Senate" is the determiner's)."""
    if start >= len(tokens) or (start > 0 and tokens[start - 1][:1].isupper()):
        return frozenset(), start
    if start > 0 and tokens[start - 1].lower() in _DETERMINERS:
        return frozenset(), start
    end = start
    while end < len(tokens) and end - start < _MAX_PHRASE:
        word = tokens[end]
        if not word[:1].isupper() or word.lower() in STOPWORDS or is_verb(word):
            break
        end += 1
    return frozenset(stem(w) for w in tokens[start:end]), end


def _party_at(tokens: list[str], start: int) -> tuple[frozenset[str], int]:
    """A party at ``tokens[start]``: a determiner's noun phrase ("the regulator") or a
    name ("Microsoft", session 37: a name against a common noun), and the index after it."""
    if start < len(tokens) and tokens[start].lower() in _DETERMINERS:
        return _phrase(tokens, start + 1)
    return _name(tokens, start)


def noun_relations(sentence: str) -> list[Relation]:
    """``(agent stems, verb as written, patient stems)`` of each relation between two
    parties (:func:`_party_at`) of which at least one is a determiner's noun phrase (two
    names are :func:`.roles.relations`')."""
    tokens = _TOKEN.findall(sentence)
    out: list[Relation] = []
    for i, word in enumerate(tokens):
        first, j = _party_at(tokens, i)
        if not first or j >= len(tokens):
            continue
        named = word.lower() not in _DETERMINERS
        if tokens[j].lower() in _PASSIVE_AUX:  # "the tenant was sued by the landlord"
            rest = [t.lower() for t in tokens[j + 1 : j + 3]]
            if len(rest) == 2 and is_verb(rest[0]) and rest[1] == "by":
                agent, _end = _party_at(tokens, j + 3)
                if agent and not (named and tokens[j + 3].lower() not in _DETERMINERS):
                    out.append((agent, rest[0], first))
            continue
        if is_verb(tokens[j]) and j + 1 < len(tokens):
            patient, _end = _party_at(tokens, j + 1)
            if patient and not (named and tokens[j + 1].lower() not in _DETERMINERS):
                out.append((first, tokens[j], patient))
    return [(a, verb, b) for a, verb, b in out if not a & b]


#: (giver stems, verb as written, object stems, "to" or "from", other party's stems)
Transfer = tuple[frozenset[str], str, frozenset[str], str, frozenset[str]]


def transfer_relations(sentence: str) -> list[Transfer]:
    """Each "<det> NP VERB [<det>] OBJECT to|from <det> NP" of ``sentence``: a thing passed
    between two parties, the object one to three words ("money", "its old scanning
    equipment"). The frame itself marks the verb, so any word with a verb reading that
    is not a function word may be it ("lent", "donated": nouns or adjectives elsewhere);
    a party may hold a word in -ing ("the leasing firm")."""
    tokens = _TOKEN.findall(sentence)
    out: list[Transfer] = []
    for i, word in enumerate(tokens):
        if word.lower() not in _DETERMINERS:
            continue
        for j in range(i + 2, min(i + 2 + _MAX_PHRASE, len(tokens) - 1)):
            giver = _party(tokens, i + 1, j)
            if giver is None:
                break
            verb = tokens[j].lower()
            if not can_be_verb(verb) or verb in STOPWORDS or verb.endswith("ing"):
                continue
            found = _transfer_after(tokens, j + 1)
            if found is not None and giver != found[2]:  # "the club" / "the rival club"
                out.append((giver, tokens[j], *found))
                break
    return out + passive_transfers(sentence)


#: What joins a thing to its other party: "lent it *to*", "bought it *from*", "filed a
#: lawsuit *against*" (session 39).
_TRANSFER_LINKS = frozenset(("to", "from", "against"))
#: The passive of a transfer: "the lawsuit was filed by the city against the company" is
#: "the city filed the lawsuit against the company" (session 39).
_PASSIVE_TRANSFER = re.compile(
    r"\b(?:the|a|an|its|their)\s+(?P<thing>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?)\s+"
    r"(?:was|were|is|are|has\s+been|had\s+been)\s+(?P<verb>[a-z]+)\s+by\s+"
    r"(?:the|a|an)\s+(?P<giver>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?)\s+"
    r"(?P<link>to|from|against)\s+(?:the|a|an)\s+(?P<other>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?)"
    r"(?=\s*(?:[.,;:!?]|$|\s+(?:in|on|at|after|before|for|over|last)\b))",
    re.IGNORECASE,
)


def passive_transfers(sentence: str) -> list[Transfer]:
    """Each passive transfer of ``sentence`` (:data:`_PASSIVE_TRANSFER`) in the active's
    terms: ``(giver, verb, thing, link, other party)``."""
    out: list[Transfer] = []
    for m in _PASSIVE_TRANSFER.finditer(sentence):
        parts = [
            _party(_TOKEN.findall(m.group(g)), 0, len(m.group(g).split()))
            for g in ("giver", "thing", "other")
        ]
        giver, thing, other = parts
        if giver and thing and other and is_verb(m.group("verb")):
            out.append((giver, m.group("verb"), thing, m.group("link").lower(), other))
    return out


def _transfer_after(
    tokens: list[str], start: int
) -> tuple[frozenset[str], str, frozenset[str]] | None:
    """(object, "to"/"from", other party) from ``tokens[start]``, else None."""
    start += start < len(tokens) and tokens[start].lower() in _DETERMINERS
    for end in range(start + 1, min(start + 1 + _MAX_PHRASE, len(tokens) - 1)):
        thing = _party(tokens, start, end)
        if thing is None:
            return None
        link = tokens[end].lower()
        if link in _TRANSFER_LINKS and tokens[end + 1].lower() in _DETERMINERS:
            other_end = end + 2
            while other_end < len(tokens) and other_end - end - 2 < _MAX_PHRASE:
                if _party(tokens, end + 2, other_end + 1) is None:
                    break
                other_end += 1
            other = _party(tokens, end + 2, other_end)
            return (thing, link, other) if other else None
    return None


def _party(tokens: list[str], start: int, end: int) -> frozenset[str] | None:
    """The stems of ``tokens[start:end]`` when they can be a noun phrase (words, no links,
    no function words but adjectives, no verb form but one in -ing or -s, which here is
    a modifier or a plural: "the leasing firm", "the jets"), else None."""
    words = tokens[start:end]
    for word in words:
        lower = word.lower()
        if not word[:1].isalpha() or lower in _LINKS:
            return None
        if lower in STOPWORDS and not _adjective(lower):
            return None
        if is_verb(word) and not lower.endswith(("ing", "s")):  # "leasing firm", "jets"
            return None
    return frozenset(stem(w) for w in words) if words else None


def transfer_swapped(claim: Transfer, source: Transfer) -> bool | None:
    """True: the same thing passed the other way between the same two parties; False: the
    same transfer stated the claim's way; None: not the same transfer (the caller compares
    verbs). Parties may share words ("the club" / "the rival club"), so the two readings
    are weighed: the words each party shares with its own side against the other side's."""
    (cg, _cv, ct, cl, co), (sg, _sv, st, sl, so) = claim, source
    if cl != sl or not ct & st:
        return None
    same, crossed = len(cg & sg) + len(co & so), len(cg & so) + len(co & sg)
    if same > crossed and cg & sg and co & so:
        return False
    if crossed > same and cg & so and co & sg:
        return True
    return None


def swapped(claim: Relation, source: Relation) -> bool:
    """The same relation with agent and patient exchanged: each side of the claim shares a
    word with the other side of the source, and none with its own."""
    (ca, _cv, cb), (sa, _sv, sb) = claim, source
    return bool(ca & sb) and bool(cb & sa) and not ca & sa and not cb & sb


def same_way(claim: Relation, source: Relation) -> bool:
    """The claim's relation stated its own way: agent with agent, patient with patient."""
    (ca, _cv, cb), (sa, _sv, sb) = claim, source
    return bool(ca & sa) and bool(cb & sb)
