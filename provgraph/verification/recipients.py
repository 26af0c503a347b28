"""An award with one recipient the source gives someone else: "The prize was awarded to
Okafor." against "The prize went to Lindqvist; Okafor was runner-up."

The NLI model reads such pairs as entailment (0.94): the prize and both names are in
the source. The rule reads who a definite, singular thing (a prize, an award, a
contract, a title) was awarded, given, presented or granted to, or went to, in the
claim ("The prize was awarded to Okafor", "Okafor received the prize") and in each
source sentence. The claim is contradicted when a source sentence gives the claim's
thing (every content word of it) to other names only, and the source names the claim's
recipient somewhere else — as with :mod:`.home_places`, a source that never names the
claim's name may be naming it otherwise (a team for its player, a firm for its owner)
and is left to the model. A name within another ("Okafor" / "Ada Okafor") is the same,
and a shared award ("to Charpentier and Doudna") includes each of its names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.role_holders import same_person
from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import content_stems

_NAME = r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3}"
_NAMES = rf"{_NAME}(?:(?:,\s*|\s+and\s+){_NAME})*"
_TO = (
    r"(?:was|were|has\s+been|had\s+been)\s+(?:awarded|given|presented|granted|handed)\s+to"
    r"|went\s+to"
)
#: "The prize was awarded to Okafor", "the contract went to Acme Ltd".
_GIVEN_TO = re.compile(rf"\b(?P<thing>the\s+[^,;.]+?)\s+(?:{_TO})\s+(?P<names>{_NAMES})")
#: "Okafor received the prize", "Acme won the contract" (a claim's active form).
_RECEIVED = re.compile(
    rf"^(?P<names>{_NAME})\s+(?:received|was\s+awarded|was\s+given)\s+(?P<thing>the\s+[^,;.]+)"
)
_ARTICLE = re.compile(r"^the\s+", re.IGNORECASE)


@dataclass(frozen=True)
class RecipientConflict:
    """The thing, the claim's recipient and the names the source gives it to."""

    thing: str
    claim: str
    source: str


def _recipients(names: str) -> list[str]:
    return [n.strip() for n in re.split(r",\s*|\s+and\s+", names) if n.strip()]


def _claimed(claim: str) -> tuple[frozenset[str], str, str] | None:
    """(the thing's content stems, its words, the one recipient) of the claim, or None."""
    text = claim.strip()
    m = _GIVEN_TO.search(text[:1].lower() + text[1:]) or _RECEIVED.search(text)
    if m is None:
        return None
    names = _recipients(m.group("names"))
    thing = _ARTICLE.sub("", m.group("thing").strip())
    words = frozenset(content_stems(thing))
    if len(names) != 1 or not words or thing.endswith("s"):
        return None  # a plural thing ("the grants") has many recipients
    return words, thing, names[0]


def recipient_conflict(claim: str, window: str) -> RecipientConflict | None:
    """The first window sentence that gives the claim's thing to other names only."""
    claimed = _claimed(claim)
    if claimed is None:
        return None
    words, thing, recipient = claimed
    if recipient.split()[-1] not in window:
        return None
    found: RecipientConflict | None = None
    for sentence in split_sentences(window):
        text = sentence.text[:1].lower() + sentence.text[1:]
        for m in _GIVEN_TO.finditer(text):
            if not words <= set(content_stems(m.group("thing"))):
                continue
            given = _recipients(m.group("names"))
            if any(same_person(recipient, g) for g in given):
                return None  # the source gives it to the claim's recipient too
            found = found or RecipientConflict(thing, recipient, ", ".join(given))
    return found
