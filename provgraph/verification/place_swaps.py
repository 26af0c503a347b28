"""A claim's place given as another place by a source that says the rest of the claim:
"Researchers at Oxford developed the test." against "Researchers at Cambridge developed
the test." (NLI entailment 0.23, yet lexical overlap lifted it to *supported*).

Session 20 measured a rule for any name after the same preposition and removed it: it read
aliases and places that hold one another ("England" / "Britain", "London" / "England") as
swaps. This rule judges only places known to be two
(:func:`~provgraph.verification.gazetteer.distinct_places`: two cities far apart, two
countries, two US states), so those readings cannot fire. What it needs:

* a known place after "in", "at", "from" or "to" in the claim ("at Oxford", "in the
  United States"; a trailing "University" / "Airport" … is the place's institution,
  judged by its place), none of whose capitalised words the source has anywhere;
* a source sentence that holds at least :data:`REST_SHARE` (and two) of the claim's other
  content words — it says the same thing of the same subject — and names, after the same
  kind of preposition ("in" and "at" are one kind; "from" and "to" are each their own: a
  route's ends are not interchangeable), a known place the claim never names, distinct
  from the claim's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.gazetteer import distinct_places, is_known_place
from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import content_stems

#: Share of the claim's other content words a sentence must hold to say the same thing.
REST_SHARE = 0.75
_NAME = r"(?:St\.\s+)?[A-Z][\w'-]*(?:\s+(?:[A-Z][\w'-]*|de|del|la|le|upon)\b){0,3}"
_AFTER = re.compile(rf"\b(?P<prep>in|at|from|to)\s+(?:the\s+)?(?P<place>{_NAME})")
#: A place's institution: "at Oxford University" is judged by Oxford.
_INSTITUTION = re.compile(
    r"\s+(?:University|College|Airport|Hospital|Station|Institute|Stadium|Cathedral)$"
)
_KIND = {"in": "in", "at": "in", "from": "from", "to": "to"}


@dataclass(frozen=True)
class PlaceSwap:
    """The claim's place and the one the source gives instead."""

    claim: str
    source: str


@dataclass(frozen=True)
class _Named:
    kind: str
    place: str
    start: int
    end: int


def _places(text: str) -> list[_Named]:
    """Each known place after a preposition of :data:`_KIND`."""
    out: list[_Named] = []
    for m in _AFTER.finditer(text):
        place = _INSTITUTION.sub("", m.group("place"))
        if is_known_place(place):
            start = m.start("place")
            out.append(_Named(_KIND[m.group("prep")], place, start, start + len(place)))
    return out


def _capitalised(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"\b[A-Z][\w'-]+", text)}


def place_swap(claim: str, window: str) -> PlaceSwap | None:
    """The first claim place ``window`` gives as another known place (module docstring)."""
    named = [p for p in _places(claim) if not (_capitalised(p.place) & _capitalised(window))]
    if not named:
        return None
    claim_capitals = _capitalised(claim)
    sentences = [(s.text, set(content_stems(s.text))) for s in split_sentences(window)]
    for place in named:
        rest = set(content_stems(claim[: place.start] + " " + claim[place.end :]))
        rest -= set(content_stems(place.place))
        if len(rest) < 2:
            continue
        for text, stems in sentences:
            held = len(rest & stems)
            if held < 2 or held < REST_SHARE * len(rest):
                continue
            for other in _places(text):
                if (
                    other.kind == place.kind
                    and not (_capitalised(other.place) & claim_capitals)
                    and distinct_places(place.place, other.place)
                ):
                    return PlaceSwap(place.place, other.place)
    return None
