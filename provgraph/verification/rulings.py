"""Who won a case: "The tenants won their case against the landlord." against "The court
ruled in favour of the landlord and dismissed the tenants' claim."

The NLI model reads such pairs as entailment (the parties, the case and the court's
words are shared), and the antonym check sees no opposite pair: the source names the
winner with "in favour of", or the loser with "dismissed X's claim", never "won" or
"lost". The rule: a claim that a party won or lost a case, suit, appeal, claim or
dispute against another (both named); a source sentence holding a ruling "in favour of"
/ "for" one of the two parties, or dismissing / rejecting one party's claim, case or
appeal. When the source's winner is the claim's loser, or its loser the claim's winner,
they conflict. A party is told by its content words (its own, not the other's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import content_stems

_CASE = r"(?:case|lawsuit|suit|appeal|claim|dispute|challenge|action|battle)"
_CLAIM_OUTCOME = re.compile(
    rf"^(?P<party>.+?)\s+(?P<outcome>won|lost|wins|loses)\s+(?:(?:their|its|his|her|the|a)\s+)?"
    rf"(?:\w+\s+)?{_CASE}\s+against\s+(?P<other>[^,.;]+)",
    re.IGNORECASE,
)
_FAVOURED = re.compile(
    r"\b(?:ruled|found|decided|held|sided)\s+(?:in\s+favou?r\s+of|for|with)\s+(?P<winner>[^,.;]+?)"
    r"(?=\s+(?:and|but|in|on|after|over)\b|[,.;]|$)",
    re.IGNORECASE,
)
_DISMISSED = re.compile(
    rf"\b(?:dismissed|rejected|threw\s+out|struck\s+down)\s+(?P<loser>[^,.;]*?)\s*{_CASE}",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class RulingConflict:
    """The claim's winner and the source's winner (or loser) that denies it."""

    claim_winner: str
    source_party: str
    #: how the source names its party: as the winner or as the loser
    source_role: str


def _party(text: str, own: frozenset[str], other: frozenset[str]) -> bool:
    """Does ``text`` name the party of ``own`` (its own words, none of the other's)?"""
    words = set(content_stems(text))
    return bool(words & own) and not words & other


def ruling_conflict(claim: str, window: str) -> RulingConflict | None:
    """The first window sentence whose ruling gives the claim's case to the other party."""
    m = _CLAIM_OUTCOME.search(claim.strip())
    if m is None:
        return None
    party, other = (
        frozenset(content_stems(m.group("party"))),
        frozenset(content_stems(m.group("other"))),
    )
    party, other = party - other, other - party
    if not party or not other:
        return None
    won = m.group("outcome").lower() in ("won", "wins")
    winner, loser = (party, other) if won else (other, party)
    winner_text = m.group("party") if won else m.group("other")
    for sentence in split_sentences(window):
        for f in _FAVOURED.finditer(sentence.text):
            if _party(f.group("winner"), loser, winner):
                return RulingConflict(winner_text.strip(), f.group("winner").strip(), "winner")
        for d in _DISMISSED.finditer(sentence.text):
            if _party(d.group("loser"), winner, loser):
                return RulingConflict(winner_text.strip(), d.group("loser").strip(), "loser")
    return None
