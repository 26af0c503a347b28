"""A passive's agent named otherwise: "The report was written by the World Bank."
against "The report, commissioned by the World Bank, was written by researchers at the
University of Oxford."

The NLI model reads such pairs as entailment: every word of the claim is in the
source, the claim's agent only attached to another verb. The rule: the claim's
participle with its "by" agent ("written by the World Bank"), and a source
sentence about the claim's subject (a content word of the claim before the
participle) with the same participle and a "by" agent whose names are not within
the claim's, nor the claim's within its ("Charlotte Bronte" / "Emily Bronte"; but
"Smith" is "John Smith"). Both agents must name someone — a capitalised name in
each — so a generic agent ("painted by the artist", "written by her") never
conflicts with a named one; a joint agent ("written by X and Y") conflicts only
when it shares no word with the claim's.

A claim in the active voice is read as its passive ("Maria trained the new nurses." is
"the new nurses were trained by Maria") when it opens with a name, a verb in the past
tense and its object: "The new nurses were trained by Daniel, Maria's supervisor." names
another trainer of the same nurses. An agent ends where the next passive of its sentence
begins ("directed by Greta Gerwig and produced by Sofia Coppola": the director is Gerwig
alone) or a clause of its own does ("painted by Renoir while Monet looked on"), and a
title alone ("signed by the President") names no one. A claim's numbers must all be in
the source sentence: "Arsenal won the FA Cup in 2002." says nothing of who won another
year's final.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import CALENDAR_NAMES, clauses, content_stems

#: A past participle and its "by" phrase, up to the clause's end; a short phrase of
#: direction or place may come between ("translated *into Japanese* by Yuki Tanaka").
_BY_AGENT = re.compile(
    r"\b(?P<verb>[a-z]+(?:ed|en|wn|t)|led|made|held|won|run|done)"
    r"(?P<gap>\s+(?:into|in|to|from|for|at)\s+(?!by\b)[\w'-]+(?:\s+(?!by\b)[\w'-]+){0,2}?)?"
    r"\s+by\s+(?P<agent>[^,.;:()]{2,80})"
)
#: A capitalised word that is not a sentence's first or a determiner.
_NAMED = re.compile(r"\b(?!(?:The|A|An|His|Her|Its|Their)\b)[A-Z][\w'-]+")
_AGENT_WORDS = 6
#: Where an agent phrase ends: another passive of the sentence ("… and produced by"), or a
#: clause of its own ("by Renoir *while* Monet looked on", "by Lee, *who* …").
_NEXT_PASSIVE = re.compile(
    r"\s+(?:and|but|while|whereas)\s+(?:(?:was|were|is|are|been|being)\s+)?"
    r"(?:[a-z]+ly\s+)?[a-z]+\s+by\b|"
    r"\s+(?:while|whereas|when|as|after|before|because|since|though|although|who|whom|"
    r"whose|which|until|despite)\b"
)
#: A claim's active opening: a name (a leading "The" allowed), a verb, its object.
_ACTIVE = re.compile(
    r"^(?P<agent>(?:The\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})\s+(?P<verb>[a-z]+)\s+"
    r"(?P<object>(?:the|a|an|its|his|her|their|\d|[A-Z])[^,.;:()]{1,80})"
)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
#: Another party to an active clause's deed: "wrote the novel *with Ana Ruiz*".
_ANOTHER_PARTY = re.compile(r"\b(?:with|and|alongside|together)\b(?P<party>.*)")
#: Verbs that are not an action done by an agent ("Maria was", "Maria had").
_NOT_ACTIONS = frozenset({"be", "have", "do", "get", "become", "seem", "remain"})
#: Capitalised titles that name an office, not a person ("by the President").
_TITLES = frozenset((
    "president", "king", "queen", "pope", "minister", "governor", "mayor", "senator",
    "general", "dr", "professor", "prince", "princess", "chancellor", "judge",
))  # fmt: skip


@dataclass(frozen=True)
class AgentConflict:
    """The participle, the claim's agent and the source's."""

    verb: str
    claim: str
    source: str
    #: the share of the claim's words besides its agent that the source sentence holds:
    #: how surely the sentence speaks of the claim's deed (the names differ by design)
    share: float = 1.0


def _agents(text: str) -> list[tuple[str, str, int, set[str]]]:
    """``(participle, agent phrase, where the participle starts, the stems between the
    two)`` of ``text``."""
    out = []
    for m in _BY_AGENT.finditer(text):
        agent = _NEXT_PASSIVE.split(m.group("agent"), maxsplit=1)[0]
        if _named(agent):
            words = " ".join(agent.split()[:_AGENT_WORDS])
            out.append(
                (m.group("verb"), words, m.start(), set(content_stems(m.group("gap") or "")))
            )
    return out


def _active_as_passive(claim: str) -> tuple[str, str, str] | None:
    """``(participle, agent, object)`` of a claim that opens with a named agent, a verb in
    the past tense and its object ("Maria trained the new nurses"), else None."""
    from lemminflect import getInflection, getLemma

    m = _ACTIVE.match(claim.strip())
    if m is None or not _named(m.group("agent")):
        return None
    verb = m.group("verb")
    lemmas = getLemma(verb, "VERB")
    if not lemmas or lemmas[0] in _NOT_ACTIONS:
        return None
    if verb not in getInflection(lemmas[0], "VBD"):
        return None  # present tense or not a verb: "Maria trains", "Maria Lopez"
    participles = getInflection(lemmas[0], "VBN")
    if not participles:
        return None
    return participles[0], m.group("agent"), m.group("object")


def agent_conflict(claim: str, window: str) -> AgentConflict | None:
    """The claim's named passive agent replaced by another in a sentence of ``window``."""
    claimed = [
        (verb, agent, set(content_stems(claim[:at])), gap)
        for verb, agent, at, gap in _agents(claim)
    ]
    active = _active_as_passive(claim)
    if active is not None:
        verb, agent, patient = active
        claimed.append((verb, agent, set(content_stems(patient)), set()))
    if not claimed:
        return None
    numbers = set(_NUMBER.findall(claim))
    for sentence in split_sentences(window):
        text = sentence.text
        if not numbers <= set(_NUMBER.findall(text)):
            continue  # "won FA Cup in 2002": a sentence of another year's final
        # the same thing done (a word of the claim's subject or object before the source's
        # participle, or in its active clause's object), by someone else
        stated = [(v, a, set(content_stems(text[:at]))) for v, a, at, _g in _agents(text)]
        stated += _active_clauses(text)
        for verb, agent, subject, gap in claimed:
            if not gap <= set(content_stems(text)):
                continue  # "translated into Japanese" is not the French translation
            if any(v == verb and not _other_agent(agent, a) for v, a, _d in stated):
                continue  # the claim's agent does it too: "…, and Ana Ruiz wrote the rest"
            for other_verb, other, done in stated:
                if other_verb != verb or not subject & done:
                    continue
                if _other_agent(agent, other):
                    rest = set(content_stems(claim)) - set(content_stems(agent))
                    held = len(rest & set(content_stems(text))) / len(rest) if rest else 1.0
                    return AgentConflict(verb, agent, other, held)
    return None


def _active_clauses(sentence: str) -> list[tuple[str, str, set[str]]]:
    """``(participle, agent, object stems)`` of each clause of a source sentence that opens
    with a named agent, a past-tense verb and its object ("*Tom Bell wrote the novel*, and
    Ana Ruiz drew its illustrations"), unless the clause also names another party ("Tom
    Bell wrote the novel *with Ana Ruiz*": a co-author, not someone else). A name of the
    object itself is no party: "Hiroshi Sato translated the novel into *Japanese*"."""
    out = []
    for clause in clauses(sentence):
        active = _active_as_passive(clause.text)
        if active is None:
            continue
        verb, agent, done = active
        done = _NEXT_PASSIVE.split(done, maxsplit=1)[0]
        party = _ANOTHER_PARTY.search(done)
        if party and _named(party.group("party")) - _named(agent):
            continue
        # "wrote the novel's foreword": the foreword is what was written
        out.append((verb, agent, set(content_stems(done.rsplit("'s ", 1)[-1]))))
    return out


def _named(agent: str) -> set[str]:
    """The agent's capitalised words, titles and calendar names aside."""
    return {w.lower() for w in _NAMED.findall(agent)} - _TITLES - CALENDAR_NAMES


def _other_agent(claimed: str, stated: str) -> bool:
    """Is ``stated`` someone other than ``claimed``: neither's names within the other's
    ("Charlotte Bronte" / "Emily Bronte"; "Smith" is "John Smith"), and not a joint
    agent ("Emily and Charlotte" may include the claim's)."""
    if re.search(r"\b(?:and|with)\b|&", stated):
        return bool(not set(content_stems(claimed)) & set(content_stems(stated)))
    mine, theirs = _named(claimed), _named(stated)
    if _abbreviates(claimed, stated) or _abbreviates(stated, claimed):
        return False  # "the WHO" / "the World Health Organization"
    return not _within(mine, theirs) and not _within(theirs, mine)


def _abbreviates(short: str, full: str) -> bool:
    """Is an all-capitals word of ``short`` the initials of ``full``'s capitalised words
    ("WHO" of "World Health Organization", "EU" of "the European Union")?"""
    initials = "".join(w[0] for w in _NAMED.findall(full) if not w.isupper())
    return len(initials) >= 2 and any(w == initials for w in re.findall(r"\b[A-Z]{2,}\b", short))


def _within(names: set[str], others: set[str]) -> bool:
    """Is every name of ``names`` one of ``others``, or the start of one but its last
    letter ("Chile" of "Chilean", "Germany" of "German"; not "Austria" of "Australia"):
    "directed by a woman from Chile" and "by the Chilean filmmaker Ana Ruiz" may be one
    person (session 38)."""
    return all(any(n == o or (len(n) >= 4 and o.startswith(n[:-1])) for o in others) for n in names)
