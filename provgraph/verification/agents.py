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
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import content_stems

#: A past participle and its "by" phrase, up to the clause's end.
_BY_AGENT = re.compile(
    r"\b(?P<verb>[a-z]+(?:ed|en|wn|t)|led|made|held|won|run|done)\s+by\s+(?P<agent>[^,.;:()]{2,80})"
)
#: A capitalised word that is not a sentence's first or a determiner.
_NAMED = re.compile(r"\b(?!(?:The|A|An|His|Her|Its|Their)\b)[A-Z][\w'-]+")
_AGENT_WORDS = 6


@dataclass(frozen=True)
class AgentConflict:
    """The participle, the claim's agent and the source's."""

    verb: str
    claim: str
    source: str


def _agents(text: str) -> list[tuple[str, str, int]]:
    """``(participle, agent phrase, where the participle starts)`` of ``text``."""
    return [
        (m.group("verb"), " ".join(m.group("agent").split()[:_AGENT_WORDS]), m.start())
        for m in _BY_AGENT.finditer(text)
        if _NAMED.search(m.group("agent"))
    ]


def agent_conflict(claim: str, window: str) -> AgentConflict | None:
    """The claim's named passive agent replaced by another in a sentence of ``window``."""
    claimed = _agents(claim)
    if not claimed:
        return None
    for sentence in split_sentences(window):
        text = sentence.text
        words = set(content_stems(text))
        for verb, agent, at in claimed:
            subject = set(content_stems(claim[:at]))
            if not subject & words:
                continue
            for other_verb, other, _at in _agents(text):
                if other_verb == verb and _other_agent(agent, other):
                    return AgentConflict(verb, agent, other)
    return None


def _named(agent: str) -> set[str]:
    return {w.lower() for w in _NAMED.findall(agent)}


def _other_agent(claimed: str, stated: str) -> bool:
    """Is ``stated`` someone other than ``claimed``: neither's names within the other's
    ("Charlotte Bronte" / "Emily Bronte"; "Smith" is "John Smith"), and not a joint
    agent ("Emily and Charlotte" may include the claim's)."""
    if re.search(r"\b(?:and|with)\b|&", stated):
        return bool(not set(content_stems(claimed)) & set(content_stems(stated)))
    mine, theirs = _named(claimed), _named(stated)
    return not mine <= theirs and not theirs <= mine
