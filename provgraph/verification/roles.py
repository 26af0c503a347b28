"""Who did what to whom, and did the event take place: things a small NLI model misses.

The shipped cross-encoder scores "Brazil beat Germany" against "Germany beat
Brazil" as entailment 0.97 (the words are the same), and "the museum is
closed" against "the museum reopened" as entailment: it has no model of
argument order or of events that end a state. Two small, general rules:

* **argument order** (:func:`role_swap`): the claim and a source sentence use
  the same verb (same lemma, by ``lemminflect``, or one relation's verbs:
  "beat" / "defeated", "bought" / "acquired") between the same two named
  entities (capitalised word runs), with agent and patient exchanged. A
  passive ("B was acquired by A") is read as its active form, so it agrees
  with "A acquired B". Symmetric verbs ("met", "merged with", "played") never
  count. Entities must be capitalised names: "the company bought the startup"
  is left to NLI. "A is a subsidiary of B" is read as "B owns A", and "A owns B, which
  it bought in 2019" states a second relation of the same two (session 29).
* **ended state**: :mod:`.ended_states` (its finding, :class:`StateFinding`, and the
  claim's subject, :func:`holder_stems`, are shared from here).
* **cancelled event**: :mod:`.cancelled_events`.
"""

from __future__ import annotations

import calendar
import itertools
import re
from dataclasses import dataclass

from provgraph.verification.claimsplit import subject_and_verb
from provgraph.verification.converses import SAME_RELATION, converse_of
from provgraph.verification.noun_roles import (
    EITHER_SIDE,
    Relation,
    noun_relations,
    same_way,
    swapped,
    transfer_relations,
    transfer_swapped,
)
from provgraph.verification.phrasal import plain_verbs
from provgraph.verification.relation_phrases import won_over
from provgraph.verification.routes import route_swap, transfer_swap
from provgraph.verification.sentences import split_sentences
from provgraph.verification.word_classes import can_be_verb
from provgraph.verification.wordsets import STOPWORDS, stem

TOKEN_RE = re.compile(r"[A-Za-z][A-Za-z'&.-]*|\S")
_DETERMINERS = frozenset(
    ["the", "a", "an", "this", "that", "these", "those", "its", "his", "her", "their", "our"]
)
_BE = frozenset(["is", "are", "was", "were", "be", "been", "being", "has", "have", "had"])
_SYMMETRIC = frozenset(
    [
        "meet",
        "met",
        "marry",
        "married",
        "merge",
        "merged",
        "partner",
        "partnered",
        "tie",
        "tied",
        "draw",
        "drew",
        "drawn",
        "fight",
        "fought",
        "debate",
        "debated",
        "play",
        "played",
        "face",
        "faced",
        "compete",
        "competed",
        "collaborate",
        "collaborated",
        "ally",
        "allied",
        "border",
        "bordered",
        "resemble",
        "resembled",
        "equal",
        "equalled",
        "match",
        "matched",
        "join",
        "joined",
        "sign",
        "signed",
        "and",
        "or",
        "with",
    ]
)


@dataclass(frozen=True)
class RoleFinding:
    """The claim's relation and the source's, with agent and patient exchanged."""

    verb: str
    claim: tuple[str, str]
    source: tuple[str, str]


def verb_lemma(word: str) -> str:
    """The verb lemma of ``word`` ("acquired" → "acquire", "took" → "take"), else ``word``."""
    from lemminflect import getAllLemmas

    verb = getAllLemmas(word.lower()).get("VERB", ())
    return verb[0] if verb else word.lower()


def _sentence_adverb(word: str) -> bool:
    """A word English uses as an adverb ("Today", "Currently", "Meanwhile"): capitalised
    only because it opens the sentence, not the first word of a name."""
    from lemminflect import getAllLemmas

    return "ADV" in getAllLemmas(word.lower())


#: Day and month names are capitalised but name a time, not a party to a relation
#: ("Contoso said on Monday it had bought Northwind").
_CALENDAR_NAMES = frozenset(
    n.lower() for n in (*calendar.day_name, *calendar.month_name, *calendar.month_abbr) if n
)


def _entities(tokens: list[str]) -> list[tuple[int, int, str]]:
    """Runs of capitalised tokens ``(start, end, key)``; a capitalised first word is a name
    only when it is not a function word ("The", "In"), nor an adverb before a name
    ("Today Norway has …": the name is "Norway"). Day and month names are not names here;
    a possessive "'s" is not part of the key ("Contoso's acquisition" names "contoso")."""
    out: list[tuple[int, int, str]] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        opener = i == 0 and (
            t.lower() in STOPWORDS
            or (len(tokens) > 1 and tokens[1][:1].isupper() and _sentence_adverb(t))
        )
        if t[:1].isupper() and not opener and t.lower().rstrip(".") not in _CALENDAR_NAMES:
            j = i + 1
            while j < len(tokens) and tokens[j][:1].isupper():
                j += 1
            key = " ".join(tokens[i:j]).lower().rstrip(".")
            out.append((i, j, key.removesuffix("'s").removesuffix("'")))
            i = j
        else:
            i += 1
    return out


def named_tokens(sentence: str) -> tuple[list[str], list[tuple[int, int, str]]]:
    """The sentence's tokens and its names (runs of capitalised tokens, see ``_entities``)."""
    tokens = TOKEN_RE.findall(sentence)
    return tokens, _entities(tokens)


#: Nouns that name a relation's event, "A's *acquisition* of B", "A … its *purchase* of B",
#: read as the relation's verb (:data:`SAME_RELATION`).
_NOMINAL = {"acquisition": "buy", "purchase": "buy", "takeover": "buy", "defeat": "beat"}
#: How many tokens may stand between the agent and "its <noun> of" ("Contoso said on
#: Monday it had completed its purchase of Northwind").
_NOMINAL_REACH = 10


def _nominal_relation(agent_token: str, between: list[str]) -> str | None:
    """The relation of "A's <noun> of B" or "A … its <noun> of B", else None."""
    if len(between) < 2 or between[-1].lower() != "of" or any(t in ",;" for t in between):
        return None
    relation = _NOMINAL.get(between[-2].lower())
    if relation is None or len(between) > _NOMINAL_REACH:
        return None
    possessive = agent_token.lower().endswith(("'s", "'")) and len(between) == 2
    return relation if possessive or (len(between) > 2 and between[-3].lower() == "its") else None


#: "Brandt was Kovacs's teacher" is "Brandt taught Kovacs": nouns of an agent's role
#: toward the possessor, read as the relation's verb (session 29).
_AGENT_NOUNS = {"teacher": "teach", "tutor": "teach", "mentor": "mentor", "coach": "coach"}


def _agent_noun(tokens: list[str], between: list[str], second_end: int) -> str | None:
    """The verb of "A is B's <agent noun>" (:data:`_AGENT_NOUNS`), else None."""
    if not between or len(between) > 2 or any(t.lower() not in _BE for t in between):
        return None
    if not tokens[second_end - 1].lower().endswith(("'s", "'")) or second_end >= len(tokens):
        return None
    return _AGENT_NOUNS.get(tokens[second_end].lower().rstrip("."))


#: "A is a subsidiary of B" is "B owns A": the owned part's nouns.
_OWNED_PARTS = frozenset(["subsidiary", "unit", "division", "arm", "affiliate"])


def _owned_by(between: list[str]) -> bool:
    """Is ``between`` "is a (wholly owned) subsidiary of" (:data:`_OWNED_PARTS`)?"""
    words = [t.lower() for t in between]
    return (
        len(words) >= 3
        and words[0] in _BE
        and words[-1] == "of"
        and words[-2] in _OWNED_PARTS
        and len(words) <= 6
    )


#: "A owns B, which it bought in 2019": a relative clause whose subject is a pronoun for
#: the agent states a second relation between the same two names.
_RELATIVE = frozenset(["which", "whom", "who"])
_AGENT_PRONOUNS = frozenset(["it", "he", "she", "they"])
_AUXILIARIES = frozenset(["had", "has", "have", "later", "then", "also", "once", "first"])


def _relative_relation(tokens: list[str], after: int) -> str | None:
    """The verb lemma of ", which it <verb>" at ``tokens[after:]``, else None."""
    rest = [t.lower() for t in tokens[after : after + 6]]
    if len(rest) < 4 or rest[0] != "," or rest[1] not in _RELATIVE:
        return None
    if rest[2] not in _AGENT_PRONOUNS:
        return None
    k = 3
    while k < len(rest) - 1 and rest[k] in _AUXILIARIES:
        k += 1
    word = tokens[after + k].rstrip(".")
    if not can_be_verb(word) or word.lower() in _BE:
        return None
    lemma = verb_lemma(word)
    lemma = SAME_RELATION.get(lemma, lemma)
    return None if lemma in _SYMMETRIC or lemma in EITHER_SIDE else lemma


def relations(sentence: str) -> list[tuple[str, str, str]]:
    """``(agent, verb lemma, patient)`` for each "Name verb … Name" of ``sentence``, each
    "Name's acquisition of Name" (:data:`_NOMINAL`), each "Name is a subsidiary of Name"
    (the second owns the first), each "Name was Name's teacher" (the first taught the
    second) and each "Name verb Name, which it <verb>" (a second relation between the same
    two, the agent named by the pronoun)."""
    tokens, ents = named_tokens(sentence)
    out: list[tuple[str, str, str]] = []
    for (_s1, e1, a), (s2, e2, b) in itertools.pairwise(ents):
        between = tokens[e1:s2]
        nominal = _nominal_relation(tokens[e1 - 1], between)
        if nominal is not None:
            out.append((a, nominal, b))
            continue
        if _owned_by(between):
            out.append((b, "own", a))
            continue
        if won_over(between):
            out.append((a, "beat", b))
            continue
        if (agent_noun := _agent_noun(tokens, between, e2)) is not None:
            out.append((a, agent_noun, b))
            continue
        # a thing passed between the two may take more words: "Italy imports large
        # amounts of olive oil from Spain" (session 37)
        passed = len(between) > 1 and between[-1].lower() in ("from", "to")
        if len(between) > (8 if passed else 6) or any(t in ",;" for t in between):
            continue
        verbs = [
            k
            for k, t in enumerate(between)
            if t.lower() not in _BE and t.lower() not in _SYMMETRIC and can_be_verb(t)
        ]
        if not verbs:
            continue
        k = verbs[0]
        lemma = verb_lemma(between[k])
        if (converse := converse_of(lemma, between[k + 1 :])) is not None:
            out.append((b, converse, a))  # "A lost to B": "B beat A"
            continue
        lemma = SAME_RELATION.get(lemma, lemma)
        if lemma in _SYMMETRIC or between[k].lower() in _SYMMETRIC:
            continue
        passive = (
            k > 0
            and between[k - 1].lower() in _BE
            and "by" in (w.lower() for w in between[k + 1 :])
        )
        out.append((b, lemma, a) if passive else (a, lemma, b))
        relative = None if passive else _relative_relation(tokens, e2)
        if relative is not None:
            out.append((a, relative, b))
    return out


def role_swap(claim: str, window: str) -> RoleFinding | None:
    """A claim relation the window states with agent and patient exchanged, if any.

    Phrasal verbs are read as their one-word verb ("took over from" = succeeded).
    """
    claim, window = plain_verbs(claim), plain_verbs(window)
    claim_rel = [r for s in split_sentences(claim) for r in relations(s.text)]
    if claim_rel:
        source_rel = [r for s in split_sentences(window) for r in relations(s.text)]
        for agent, verb, patient in claim_rel:
            if (agent, verb, patient) in source_rel:
                return None  # stated the claim's way somewhere: no conflict
        for agent, verb, patient in claim_rel:
            if (patient, verb, agent) in source_rel:
                return RoleFinding(verb, (agent, patient), (patient, agent))
    route = route_swap(claim, window)
    if route is not None:
        return RoleFinding("from … to", *route)
    transfer = transfer_swap(claim, window)
    if transfer is not None:
        return RoleFinding(f"{transfer[0]} … from", transfer[1], transfer[2])
    return None if claim_rel else _noun_role_swap(claim, window) or _transfer_swap(claim, window)


def _relation_verb(word: str) -> str | None:
    """The relation a verb names (:data:`SAME_RELATION`), None for a symmetric verb or one
    whose subject may be either party (:data:`~provgraph.verification.noun_roles.EITHER_SIDE`)."""
    lemma = verb_lemma(word)
    if word.lower() in _SYMMETRIC or lemma in _SYMMETRIC or lemma in EITHER_SIDE:
        return None
    return SAME_RELATION.get(lemma, lemma)


def _noun_relations(text: str) -> list[Relation]:
    return [
        (agent, verb, patient)
        for s in split_sentences(text)
        for agent, word, patient in noun_relations(s.text)
        if (verb := _relation_verb(word)) is not None
    ]


def _noun_role_swap(claim: str, window: str) -> RoleFinding | None:
    """:func:`role_swap` between common nouns (:mod:`.noun_roles`), for a claim naming no
    relation between names."""
    claim_rel = _noun_relations(claim)
    if not claim_rel:
        return None
    source_rel = _noun_relations(window)
    pairs = [(c, s) for c in claim_rel for s in source_rel if c[1] == s[1]]
    if any(same_way(c, s) for c, s in pairs):
        return None
    for c, s in pairs:
        if swapped(c, s):
            return RoleFinding(c[1], (_words(c[0]), _words(c[2])), (_words(s[0]), _words(s[2])))
    return None


def _transfer_swap(claim: str, window: str) -> RoleFinding | None:
    """A thing the window passes the other way between the claim's two parties ("the museum
    lent the painting to the gallery" / "the gallery lent the painting to the museum"),
    with the same verb and never stated the claim's way."""
    claimed = [t for s in split_sentences(claim) for t in transfer_relations(s.text)]
    if not claimed:
        return None
    theirs = [t for s in split_sentences(window) for t in transfer_relations(s.text)]
    readings = [
        (verb, c, t, found)
        for c in claimed
        if (verb := _relation_verb(c[1])) is not None
        for t in theirs
        if _relation_verb(t[1]) == verb and (found := transfer_swapped(c, t)) is not None
    ]
    if not readings or not all(found for *_, found in readings):
        return None  # none, or stated the claim's way somewhere
    verb, c, t, _found = readings[0]
    return RoleFinding(
        f"{verb} … {c[3]}", (_words(c[0]), _words(c[4])), (_words(t[0]), _words(t[4]))
    )


def _words(stems: frozenset[str]) -> str:
    return " ".join(sorted(stems))


@dataclass(frozen=True)
class StateFinding:
    """A state the claim asserts as current and the source event that ended it."""

    state: str
    event: str
    #: share of the words that name the claim's event (its subject, its names) in the
    #: sentence that ends it (None: not measured; the verdict uses its relevance instead)
    share: float | None = None


def holder_stems(claim: str) -> set[str]:
    """Stems of the claim's subject (the words before its first verb), determiners dropped."""
    head = subject_and_verb(claim)
    if head is None:
        return set()
    return {
        stem(w)
        for w in head[0].split()
        if w.lower() not in _DETERMINERS and w.lower() not in _TIME_ADVERBS and w[:1].isalnum()
    }


#: Adverbs before a verb, not part of its subject: "The factory *still* employs …".
_TIME_ADVERBS = frozenset({"still", "currently", "now", "also", "already", "recently"})
