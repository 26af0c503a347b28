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
  is left to NLI.
* **ended state**: :mod:`.ended_states` (its finding, :class:`StateFinding`, and the
  claim's subject, :func:`holder_stems`, are shared from here).
* **cancelled event** (:func:`cancelled_event`): the claim says an event took
  place ("was held", "went ahead", "took place") and the source says that
  event was cancelled ("called off", "scrapped"): the model reads the shared
  event words as agreement (entailment 0.96 for "The marathon was held in April
  2021." against "The April 2021 marathon was called off after heavy snow.").
  The cancelled thing must be the claim's subject, in the clause of the
  cancellation ("The flights were cancelled after the accident" says nothing of
  whether the accident happened); a source sentence that also says the event
  took place, or was postponed or rescheduled, is left to the model.
"""

from __future__ import annotations

import calendar
import itertools
import re
from dataclasses import dataclass

from provgraph.verification.claimsplit import subject_and_verb
from provgraph.verification.converses import SAME_RELATION, converse_of
from provgraph.verification.negation import negated_scopes
from provgraph.verification.noun_roles import (
    EITHER_SIDE,
    Relation,
    noun_relations,
    same_way,
    swapped,
)
from provgraph.verification.phrasal import plain_verbs
from provgraph.verification.routes import route_swap, transfer_swap
from provgraph.verification.sentences import split_sentences
from provgraph.verification.word_classes import can_be_verb
from provgraph.verification.wordsets import STOPWORDS, YEAR_RE, clauses, content_stems, stem

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


def relations(sentence: str) -> list[tuple[str, str, str]]:
    """``(agent, verb lemma, patient)`` for each "Name verb … Name" of ``sentence``, and
    each "Name's acquisition of Name" (:data:`_NOMINAL`)."""
    tokens, ents = named_tokens(sentence)
    out: list[tuple[str, str, str]] = []
    for (_s1, e1, a), (s2, _e2, b) in itertools.pairwise(ents):
        between = tokens[e1:s2]
        nominal = _nominal_relation(tokens[e1 - 1], between)
        if nominal is not None:
            out.append((a, nominal, b))
            continue
        if len(between) > 6 or any(t in ",;" for t in between):
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
    return None if claim_rel else _noun_role_swap(claim, window)


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
    return {stem(w) for w in head[0].split() if w.lower() not in _DETERMINERS and w[:1].isalnum()}


_OCCURRED = (
    r"t(?:ook|akes?|aking) place|(?:went|goes?|going|gone) ahead|happened|occurred|premiered"
)
_TOOK_PLACE = re.compile(
    rf"\b(?:{_OCCURRED}|(?:was|were|is|are|been|being) (?:held|staged|played))\b", re.IGNORECASE
)
#: An active verb with an event as its object: "The band *played its farewell concert*".
_HOSTED_EVENT = re.compile(
    r"\b(?P<verb>gave|held|hosted|staged|played|performed|ran|organi[sz]ed)\s+"
    r"(?:(?:its|their|his|her|the|a|an)\s+)?(?P<event>(?:[A-Za-z-]+\s+){0,3}?"
    r"(?:concerts?|gigs?|shows?|match(?:es)?|games?|races?|festivals?|tours?|conferences?|"
    r"ceremony|ceremonies|parades?|summits?|premieres?|performances?|tournaments?|finals?|"
    r"recitals?|rall(?:y|ies)|marathons?))\b",
    re.IGNORECASE,
)
_CANCELLED = re.compile(
    r"\b(?:cancell?(?:ed|ation|s)?|cancel|call(?:ed|s|ing)? off|scrap(?:ped|s)?|scrubbed|axed)\b",
    re.IGNORECASE,
)
_NOT_FINAL = re.compile(r"\b(?:postpon|reschedul|reinstat|revers|overturn|resum)", re.IGNORECASE)
#: In the *source*, any sign the event took place after all ("cancelled and held online
#: instead"), auxiliary or not: the source then tells both stories and the model decides.
_TOOK_PLACE_AFTER_ALL = re.compile(rf"\b(?:{_OCCURRED}|held|staged|returned)\b", re.IGNORECASE)
_CAUSE_OR_TIME = re.compile(
    r"\b(?:after|because|due to|following|when|since|before|until|and|amid|over)\b",
    re.IGNORECASE,
)


def _cancellation_clause(sentence: str) -> str | None:
    """The stretch of ``sentence`` that says what was cancelled: the clause of the
    cue, cut where a cause or a time begins ("… called off *after heavy snow*")."""
    for clause in clauses(sentence):
        cue = _CANCELLED.search(clause.text)
        if cue is None:
            continue
        start, end = 0, len(clause.text)
        for cut in _CAUSE_OR_TIME.finditer(clause.text):
            if cut.end() <= cue.start():
                start = cut.end()
            elif cut.start() >= cue.end():
                end = min(end, cut.start())
        return clause.text[start:end]
    return None


def cancelled_event(claim: str, window: str) -> StateFinding | None:
    """The event the claim says took place that a source sentence says was cancelled."""
    took_place = _TOOK_PLACE.search(claim)
    hosted = None if took_place else _HOSTED_EVENT.search(claim)
    happened = took_place or hosted
    if happened is None or _CANCELLED.search(claim):
        return None
    claimed = stem(hosted.group("verb") if hosted else happened.group(0).split()[-1])
    if any(claimed in scope for _cue, scope in negated_scopes(claim)):
        return None  # "did not take place": a cancellation agrees
    # a hosted event is the verb's object, not the claim's subject
    holder = set(content_stems(hosted.group("event"))) if hosted else holder_stems(claim)
    if not holder:
        return None
    years = set(YEAR_RE.findall(claim))
    for sentence in split_sentences(window):
        text = sentence.text
        if _TOOK_PLACE_AFTER_ALL.search(text) or _NOT_FINAL.search(text):
            continue
        their_years = set(YEAR_RE.findall(text))
        if years and their_years and not years & their_years:
            continue  # "took place in 2021" / "the 2020 festival was cancelled"
        stretch = _cancellation_clause(text)
        if stretch is None or len(holder & set(content_stems(stretch))) * 2 < len(holder):
            continue
        cue = _CANCELLED.search(stretch)
        assert cue is not None
        negated = {w for _cue, scope in negated_scopes(text) for w in scope}
        if stem(cue.group(0).split()[0]) in negated:
            continue
        named = _naming_stems(claim) | holder
        share = len(named & set(content_stems(text))) / len(named)
        return StateFinding(happened.group(0).lower(), cue.group(0).lower(), share)
    return None


def _naming_stems(claim: str) -> set[str]:
    """Stems of the claim's names ("Berlin", "April"): with its subject, the words that say
    *which* event; "as planned", "on schedule" say how it went and are left out."""
    tokens, names = named_tokens(claim)
    return {s for start, end, _key in names for s in content_stems(" ".join(tokens[start:end]))}
