"""A place that has one value, given another: "The company is headquartered in Denver."
against "The company is headquartered in Austin and has an office in Denver."

The NLI model reads such pairs as entailment (0.97): every word of the claim is in the
source, the claim's place only attached to another relation. Some relations hold one
place at a time — where an organisation is headquartered or based, where a person was
born, died or is buried, where an event was held (session 25: "was held / staged /
hosted in", "took place in", all one relation) — so a source that names another place
for the claim's relation *and* names the claim's place for something else states the
claim otherwise.

Deliberately narrow (session 20 measured a rule for any name after the same preposition
and removed it: it read aliases and containing places — England / Britain, a union /
its acronym — as swaps):

* only the relations of :data:`_ONE_PLACE`, each with its place capitalised right after
  "in" ("born in Leeds"), not "in part", "in 1990", "in March 1950" nor "in World War
  II", and a headquarters moved "from A
  to B" (B is where it is);
* the source must name the claim's place somewhere, outside that relation, or the two
  places must be known to be two (:func:`~provgraph.verification.gazetteer.distinct_places`:
  two cities far apart, two countries; session 39): a source that never names it may be
  using a containing place ("born in London" for a claim of "born in England") and is
  left to the model;
* the place the source gives the relation ("Austin, Texas", up to "and", "with",
  "but", a semicolon or the sentence's end; an "and" that joins another capitalised
  place, "held in Tokyo and Osaka", does not end it) must share no word with the
  claim's, and
  no sentence may give the relation the claim's place;
* the relation must be of the claim's subject: a content word before it in common, or
  none on either side ("He died in …"); "Victor Walls died in Newcastle" says nothing
  of where "Smith" died. A sentence that opens with the relation ("Born in Berlin, the
  violinist …") gives it to the words after its comma.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.gazetteer import distinct_places
from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import CALENDAR_NAMES, content_stems

#: Relations with one place, by their words before "in".
_ONE_PLACE = (
    r"headquartered|headquarters\s+(?:is|are)|based|born|died|buried|"
    r"has\s+its\s+headquarters|had\s+its\s+headquarters|"
    r"(?:was|were|is|are|will\s+be)\s+(?:held|staged|hosted)|(?:took|takes|take)\s+place"
)
#: An event's venue, however it is said: "was held in" / "took place in" / "was staged in".
_VENUE_WORDS = ("held", "staged", "hosted", "place")
_PLACE = r"(?:St\.\s+)?[A-Z][\w'-]*(?:\s+(?:[A-Z][\w'-]*|de|del|la|le|upon)\b){0,3}"
#: How often or when, between the relation and its place: "takes place every August in".
_WHEN = (
    r"(?:\s+(?:annually|yearly|(?:every|each|this|last|next)\s+"
    r"(?:[A-Z][a-z]+|year|summer|spring|autumn|winter)))?"
)
_SLOT = re.compile(
    rf"\b(?P<relation>{_ONE_PLACE}){_WHEN}\s+in\s+(?P<place>{_PLACE})(?P<rest>[^;.]*)"
)
#: A sentence that opens with the relation ("Born in Berlin, the violinist …"): its
#: subject is the main clause's, after the comma.
_FRONTED = re.compile(
    rf"^\s*(?:Born|Based|Headquartered)\s+in\s+(?P<place>{_PLACE})(?P<rest>[^;.]*)"
)
#: A headquarters moved: the place after "to" is where it is now.
_MOVED = re.compile(
    rf"\b(?:moved|relocated|transferred)\s+(?:its|their|the\s+[\w-]+['\u2019]s)\s+"
    rf"(?:headquarters|head\s+office)\s+(?:from\s+{_PLACE}\s+)?to\s+(?P<place>{_PLACE})"
)
#: Where a slot's place phrase ends ("Austin, Texas *and* has an office in Denver").
_SLOT_END = re.compile(
    r"\b(?:and|with|but|while|whereas|where|which|who|in|on|at|after|before|during|since|"
    r"from|to|for|aged)\b|\("
)


@dataclass(frozen=True)
class PlaceConflict:
    """The relation, the claim's place and the place the source gives it."""

    relation: str
    claim: str
    source: str


def _relation_key(relation: str) -> str:
    word = relation.split()[-1].lower()
    if word in _VENUE_WORDS:
        return "venue"
    return "headquarter" if word.startswith(("headquarter", "is", "are")) else word


#: A list of places goes on past its "and": "held in Tokyo and Osaka" names both.
_LIST_GOES_ON = re.compile(rf"\s*(?:,\s*)?and\s+{_PLACE}")


def _place_phrase(place: str, rest: str) -> str:
    """The place's whole phrase: up to where :data:`_SLOT_END` ends it, past any "and"
    that joins another capitalised place to a list."""
    phrase, at = place, 0
    while True:
        end = _SLOT_END.search(rest, at)
        if end is None:
            return phrase + rest[at:]
        joined = _LIST_GOES_ON.match(rest, end.start() - (1 if end.start() else 0))
        if end.group(0) != "and" or joined is None:
            return phrase + rest[at : end.start()]
        phrase += rest[at : joined.end()]
        at = joined.end()


@dataclass(frozen=True)
class _Slot:
    relation: str
    place: str
    #: the place's whole phrase ("Denver, Colorado")
    phrase: str
    #: the content words before the relation: whose place it is
    subject: frozenset[str]


def _slots(text: str) -> list[_Slot]:
    """Each one-place relation of ``text`` with its place."""
    out: list[_Slot] = []
    for m in _SLOT.finditer(text):
        phrase = _place_phrase(m.group("place"), m.group("rest"))
        if not _is_place(m.group("place")):
            continue
        subject = frozenset(content_stems(text[: m.start()]))
        out.append(_Slot(_relation_key(m.group("relation")), m.group("place"), phrase, subject))
    fronted = _FRONTED.match(text)
    if fronted and _is_place(fronted.group("place")):
        rest = fronted.group("rest")
        head, comma, main = rest.partition(",")
        if comma:
            relation = _relation_key(text.split()[0])
            subject = frozenset(content_stems(" ".join(main.split()[:4])))
            place = fronted.group("place")
            out.append(_Slot(relation, place, place + head, subject))
    for m in _MOVED.finditer(text):
        subject = frozenset(content_stems(text[: m.start()]))
        out.append(_Slot("headquarter", m.group("place"), m.group("place"), subject))
    return out


def _same_subject(claimed: _Slot, stated: _Slot) -> bool:
    """A subject in common, or neither side naming one ("He died in …")."""
    return bool(claimed.subject & stated.subject) or not (claimed.subject or stated.subject)


#: Capitalised words after "in" that are not places: a time ("born in March 1950") or an
#: event ("died in World War II", "died in the Blitz").
_NOT_PLACES = frozenset(
    CALENDAR_NAMES
    | {"war", "battle", "attack", "crash", "disaster", "revolution", "pandemic", "blitz"}
    | {"spring", "summer", "autumn", "fall", "winter", "office", "hospital", "prison"}
)


def _is_place(place: str) -> bool:
    return not {w.lower() for w in place.split()} & _NOT_PLACES


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Z][\w'-]+", text)}


def place_conflict(claim: str, window: str) -> PlaceConflict | None:
    """The claim's place of a one-place relation given another place in ``window``."""
    claimed = _slots(claim)
    if not claimed:
        return None
    stated = [slot for s in split_sentences(window) for slot in _slots(s.text)]
    window_words = _words(window)
    for slot in claimed:
        mine = _words(slot.place)
        if not mine:
            continue
        same = [s for s in stated if s.relation == slot.relation and _same_subject(slot, s)]
        if not same or any(mine & _words(s.phrase) for s in same):
            continue
        if mine <= window_words or all(distinct_places(slot.place, s.place) for s in same):
            # the source names the claim's place for something else, or the places are
            # known to be two (a source that never names the claim's place may be using
            # a place that holds it: "born in London" for "born in England")
            return PlaceConflict(slot.relation, slot.place, same[0].place)
    return None
