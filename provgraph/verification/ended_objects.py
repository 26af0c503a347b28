"""What an ending ends: the thing sold, or the feature removed, named after the verb.

:mod:`.ended_states` reads a sale as the end of a holding ("owns the hotel" / "sold the
hotel") and a removal as the end of what a product supports ("supports OAuth tokens" /
"OAuth tokens were removed"). Either ends the claim's state only when what was sold or
removed is what the claim names — the noun phrase after the verb, up to its first
preposition, through a holding ("its stake in the hotel", "support for Python 3.8"), or a
passive's subject — and, for a sale, all of it (session 28).
"""

from __future__ import annotations

import re

from provgraph.verification.roles import TOKEN_RE
from provgraph.verification.wordsets import clauses, content_stems, stem

#: Words of a sale of part of a holding: "sold *part of* its stake", "sold *two* hotels".
_PART_OF = re.compile(r"\b(?:part|some|half|portion|minority|share|several|few|one|two|three)\b|\d")


#: A holding in a thing: "sold its *stake in* the hotel" sold the hotel (for its owner);
#: "dropped *support for* Python 3.8" dropped Python 3.8.
_HOLDING = re.compile(
    r"^(?:(?:stake|interest|holding|share|shares|ownership)\s+(?:in|of)|support\s+for)\s+"
)
_SOLD_THING = re.compile(
    r"^\s*(?:(?:the|a|an|its|their|his|her|our|all|entire|whole)\s+)*"
    r"(?P<thing>[a-z'-]+(?:\s+(?!(?:to|in|of|for|at|on|with|from|by|next|near|and|but)\b)"
    r"[a-z'-]+){0,2})"
)


def sold_thing(low_text: str) -> set[str]:
    """Content stems of the noun phrase sold at the start of ``low_text`` (up to its first
    preposition: "the farm *next to the hotel*" sold a farm), through a holding ("its stake
    in the hotel" → the hotel)."""
    m = _SOLD_THING.match(low_text)
    if m is None:
        return set()
    rest = low_text[m.start("thing") :]
    held = _HOLDING.match(rest)
    if held is not None:
        return sold_thing(rest[held.end() :])
    return set(content_stems(m.group("thing")))


#: A number of things owned: "owns *5* hotels", "owns *several* farms".
_OWNS_MANY = re.compile(
    r"\bowns?\s+(?:[a-z]+\s+)?(?:\d|several|many|dozens|hundreds|two|three|four|five|six|"
    r"seven|eight|nine|ten)"
)


def all_of_it(low_sentence: str, at: int, owned: set[str], low_claim: str) -> bool:
    """Does the sale at ``at`` name what the claim says is owned and no part of it in its
    first three words ("sold *part of* its stake", "sold *two* of its hotels")? A claim
    owning a number of things ("owns 5 hotels") is not ended by any one sale."""
    first_words = " ".join(low_sentence[at:].split()[:3])
    return (
        bool(owned & sold_thing(low_sentence[at:]))
        and not _PART_OF.search(first_words)
        and not _OWNS_MANY.search(low_claim)
        and not _BOUGHT_BACK.search(low_sentence, at)
    )


#: A holding regained after the sale: "sold the newspaper in 2010 and *bought it back* in
#: 2017".
_BOUGHT_BACK = re.compile(
    r"\b(?:bought|buys|buy|purchased|got|won|took)\s+(?:it|them|\w+)?\s*back\b"
    r"|\b(?:reacquired|repurchased|regained|bought back|buys back)\b"
)


_PASSIVE_BEFORE = re.compile(r"\b(?:was|were|is|are|has been|have been|had been)\s+$")


def removes_it(sentence: str, at: int, holder: set[str], supported: set[str]) -> bool:
    """Is the removal at ``at`` of what the claim says is supported — its object, or a
    passive's subject — in a clause naming the holder's version numbers ("OAuth tokens were
    removed from version 2" for "Version 2 supports OAuth tokens"; not "… but restored in
    version 3" for version 3, nor "removed its settings page and added dark mode")?"""
    for clause in clauses(sentence):
        if clause.start <= at < clause.end:
            words = {stem(w) for w in TOKEN_RE.findall(clause.text)}
            numbers = {h for h in holder if any(c.isdigit() for c in h)}
            low = sentence.lower()
            event = re.match(r"[a-z]+", low[at:])
            after = low[at + len(event.group(0)) if event else at :]
            before = low[clause.start : at]
            removed = sold_thing(after)
            if _PASSIVE_BEFORE.search(before):
                removed |= set(content_stems(before))
            return bool(supported & removed) and numbers <= words
    return False
