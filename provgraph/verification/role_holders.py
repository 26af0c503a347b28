"""A one-holder office the source gives someone else: "Maria Lopez is the company's chief
executive." against "Maria Lopez is the company's chief financial officer; its chief
executive is Daniel Kim."

The NLI model reads such pairs as entailment (0.96): every word of the claim is in the
source, the claim's name only attached to another office. The rule reads, in the claim
and in each source sentence, who holds an office that has one holder at a time (chief
executive, chair, president, prime minister, mayor, head coach, captain, …): a name
joined to the office by a copula ("X is the CEO", "the CEO is X"), an apposition
("X, the company's chair", "the chair, X") or a title ("chief executive Daniel Kim").
The claim is contradicted when a source sentence names another holder of the claim's
office, never the claim's own, and the source speaks of the claim's person somewhere
(so the office is the same body's, not a namesake's elsewhere).

Deliberately narrow:

* a qualified office is another office: "vice president", "deputy mayor", "co-chair",
  "acting", "interim", "outgoing", "incoming" chief executive; a *former* holder no longer
  holds it: "Ms Owens, the charity's former chief executive" contradicts "Ms Owens is the
  chief executive of the charity" when the source names her as a present holder nowhere
  (session 29);
* past holders say nothing of the present: a holder stated with "was", "served as" or
  "had been" is not read, and a claim in the past tense is not judged;
* an office of a named body ("Acme's chief executive", "mayor of Leeds") conflicts only
  with the same body's: when both sides name one, the names must agree;
* a holder whose names are within the claim's person's, or the other way round
  ("Lopez" / "Maria Lopez"), is the same person;
* an appointment is compared only with an appointment (the one who holds the office now
  may have been appointed since), except that whoever made it does not hold the office it
  filled: "Maria Lopez … hired Sam Park as chief financial officer" contradicts "Maria
  Lopez is the company's chief financial officer" (session 28).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import CALENDAR_NAMES

#: Offices one person holds at a time, each spelling with the key it is compared by.
_OFFICES: dict[str, str] = {
    "chief executive officer": "ceo",
    "chief executive": "ceo",
    "ceo": "ceo",
    "chief financial officer": "cfo",
    "cfo": "cfo",
    "chief operating officer": "coo",
    "coo": "coo",
    "chief technology officer": "cto",
    "cto": "cto",
    "chairman": "chair",
    "chairwoman": "chair",
    "chairperson": "chair",
    "chair": "chair",
    "president": "president",
    "prime minister": "prime minister",
    "mayor": "mayor",
    "governor": "governor",
    "head coach": "head coach",
    "captain": "captain",
    "secretary-general": "secretary-general",
    "secretary general": "secretary-general",
    "director-general": "director-general",
    "director general": "director-general",
    "editor-in-chief": "editor-in-chief",
    "vice-chancellor": "vice-chancellor",
    "headteacher": "headteacher",
    # a country's or a region's seat of government: one city at a time (session 32; a
    # qualified one, "the administrative capital", is not read: the word before differs)
    "capital": "capital",
    "capital city": "capital",
}
#: The one office a city holds: read only with a copula and in lower case (session 32).
_CITY_OFFICE = "capital"
_OFFICE = re.compile(
    r"\b(?P<office>"
    + "|".join(re.escape(o) for o in sorted(_OFFICES, key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)
#: Words before an office that make it another office, or another time's.
_QUALIFIED = re.compile(
    r"(?:\b(?:vice|deputy|assistant|associate|former|acting|interim|outgoing|incoming|"
    r"previous|then|future|founding|honorary|joint|inaugural|first)|\bco-|\bex-)\s*-?\s*$",
    re.IGNORECASE,
)
_NAME = r"[A-Z][\w'\u2019-]+(?:\s+(?:[A-Z]\.|[A-Z][\w'\u2019-]+)){0,3}"
#: Possessives and determiners between a copula and its office ("the company's", "Acme's").
_DETERMINERS = r"(?:(?:the|its|their|his|her|a|an|new|current|[\w-]+['\u2019]s?)\s+){0,3}"
_PRESENT = r"is|is now|serves as|remains|has been|acts as|is currently"
#: "became" too: someone may have followed since ("In 2015 Kim became chief executive").
_PAST = r"was|served as|had been|used to be|became"
#: "X is (the company's) OFFICE" / "X, (the company's) OFFICE": the name before the office.
_HOLDER_BEFORE = re.compile(
    rf"(?P<name>{_NAME})(?:\s*,\s*|\s+(?P<copula>{_PRESENT}|{_PAST})\s+){_DETERMINERS}$"
)
#: "OFFICE is X" / "OFFICE, X" / "OFFICE X": the name after the office (and its body's).
_HOLDER_AFTER = re.compile(
    rf"^(?:(?:\s+of\s+(?:the\s+)?{_NAME})?(?:\s*,\s*|\s+(?P<copula>{_PRESENT}|{_PAST})\s+)|\s+)"
    rf"(?P<name>{_NAME})"
)
#: An appointment: "named David Ortiz (as) chief financial officer", "Maria Chen was appointed
#: (the company's) chief financial officer". Compared only with another appointment: the
#: one who is CFO now may have been appointed since.
_APPOINTING = (
    r"names?|named|naming|appoint(?:s|ed|ing)?|elect(?:s|ed|ing)?|made|chose|chosen|"
    r"picked|tapped|selected|promoted|hire[sd]?|hiring|recruit(?:s|ed|ing)?"
)
_APPOINTED_BEFORE = re.compile(
    rf"(?:\b(?:{_APPOINTING})\s+(?P<name>{_NAME})"
    rf"|(?P<passive>{_NAME})\s+(?:was|were|has been|have been|had been|is|is being)\s+"
    rf"(?:{_APPOINTING}))\s+(?:as\s+|to\s+)?{_DETERMINERS}$"
)
#: Who made the appointment: "Maria Lopez, the company's chief executive, hired Sam Park as
#: chief financial officer" (one apposition between the name and the verb at most).
_APPOINTER = re.compile(
    rf"(?P<appointer>{_NAME})(?:\s*,[^,]{{1,80}},)?\s+(?:has\s+|had\s+)?(?:{_APPOINTING})\s+"
    rf"{_NAME}\s+(?:as\s+|to\s+)?{_DETERMINERS}$"
)
_BODY_AFTER = re.compile(rf"^\s+of\s+(?:the\s+)?(?P<body>{_NAME})")
#: A capitalised possessive before the office names its body ("Acme's chief executive").
_BODY_BEFORE = re.compile(r"\b(?P<body>[A-Z][\w-]+)['\u2019]s?\s+(?:\w+\s+)?$")
#: How far before or after an office its holder's name is looked for (characters).
_REACH = 120
_NOT_NAMES = frozenset(
    {"the", "a", "an", "its", "their", "his", "her", "this", "that", "he", "she"} | CALENDAR_NAMES
)


@dataclass(frozen=True)
class Holding:
    """Who holds an office, in which body if the text names it, and whether in the past."""

    office: str
    holder: str
    body: str | None
    past: bool
    appointed: bool = False
    #: who appointed the holder, when the text names them ("X hired Y as CFO")
    appointer: str | None = None
    #: held once and no more: "Ms Owens, the charity's former chief executive"
    former: bool = False


@dataclass(frozen=True)
class RoleHolderConflict:
    """The claim's office, its holder in the claim and the holder the source names."""

    office: str
    claim: str
    source: str


#: An office held as a verb: "Lena Fischer chairs the board", "Kane captains England".
_HELD_AS_VERB = re.compile(rf"(?P<name>{_NAME})\s+(?P<verb>chairs|captains)\s")
_VERB_OFFICES = {"chairs": "chair", "captains": "captain"}


def holdings(text: str) -> list[Holding]:
    """Every office of :data:`_OFFICES` in ``text`` joined to a name."""
    out: list[Holding] = [
        Holding(_VERB_OFFICES[m.group("verb")], m.group("name"), None, past=False)
        for m in _HELD_AS_VERB.finditer(text)
        if m.group("name").split()[0].lower() not in _NOT_NAMES
    ]
    for m in _OFFICE.finditer(text):
        # a holder's name and its copula sit within a few words of the office: reading a
        # bounded stretch keeps a long window linear
        before, after = text[max(0, m.start() - _REACH) : m.start()], text[m.end() :][:_REACH]
        office = _OFFICES[m.group("office").lower()]
        if office == _CITY_OFFICE and m.group("office")[0].isupper():
            continue  # "Glynn Capital, Scott Cook": a firm's name
        former = _FORMER.search(before)
        if former is not None:
            out.extend(_former_holders(office, before[: former.start()], after))
            continue
        if _QUALIFIED.search(before):
            continue
        body_m = _BODY_AFTER.match(after) or _BODY_BEFORE.search(before)
        body = body_m.group("body").lower() if body_m else None
        appointed = _APPOINTED_BEFORE.search(before)
        if appointed is not None:
            name = appointed.group("name") or appointed.group("passive")
            if name.split()[0].lower() not in _NOT_NAMES:
                by = _APPOINTER.search(before)
                appointer = by.group("appointer") if by else None
                out.append(
                    Holding(office, name, body, past=False, appointed=True, appointer=appointer)
                )
            continue
        left = _HOLDER_BEFORE.search(before)
        right = _HOLDER_AFTER.match(after)
        for found in (left, right):
            if found is None or found.group("name").split()[0].lower() in _NOT_NAMES:
                continue
            if office == _CITY_OFFICE and not found.group("copula"):
                continue  # a capital is stated, never a title: "the capital, Rome" is a list
            copula = (found.group("copula") or "").lower()
            out.append(Holding(office, found.group("name"), body, copula in _PAST.split("|")))
    return out


#: An office held once: "the charity's former chief executive", "ex-captain".
_FORMER = re.compile(r"(?:\b(?:former|erstwhile)\s+|\bex-\s*)$", re.IGNORECASE)


def _former_holders(office: str, before: str, after: str) -> list[Holding]:
    """Who a "former <office>" names: "X, the charity's former chief executive" or "former
    chief executive X" (``before`` ends where "former" starts)."""
    body_m = _BODY_AFTER.match(after) or _BODY_BEFORE.search(before)
    body = body_m.group("body").lower() if body_m else None
    out = []
    for found in (_HOLDER_BEFORE.search(before), _HOLDER_AFTER.match(after)):
        if found is None or found.group("copula"):
            continue  # "X was the former …": a copula states no apposition
        if found.group("name").split()[0].lower() not in _NOT_NAMES:
            out.append(Holding(office, found.group("name"), body, past=True, former=True))
    return out


def _names(name: str) -> set[str]:
    return {w.lower().rstrip(".") for w in name.split()}


def same_person(one: str, other: str) -> bool:
    """Is one name within the other ("Lopez" / "Maria Lopez")? Then they are one person."""
    mine, theirs = _names(one), _names(other)
    return mine <= theirs or theirs <= mine


def _same_body(one: Holding, other: Holding) -> bool:
    """The same body's office, or either side naming none."""
    return one.body is None or other.body is None or one.body == other.body


def role_holder_conflict(claim: str, window: str) -> RoleHolderConflict | None:
    """The claim's holder of a one-holder office replaced by another in ``window``."""
    claimed = [h for h in holdings(claim) if not h.past]
    if not claimed:
        return None
    window_words = {w.lower() for w in re.findall(r"[\w'-]+", window)}
    stated = [h for s in split_sentences(window) for h in holdings(s.text) if not h.past]
    for mine in claimed:
        if not _names(mine.holder) & window_words:
            continue  # the source does not speak of the claim's person
        same_office = [
            h
            for h in stated
            if h.office == mine.office and h.appointed == mine.appointed and _same_body(h, mine)
        ]
        if any(same_person(h.holder, mine.holder) for h in same_office):
            continue
        if same_office:
            return RoleHolderConflict(mine.office, mine.holder, same_office[0].holder)
        if found := _appointed_by(mine, stated):
            return RoleHolderConflict(mine.office, mine.holder, found.holder)
        if _held_once(mine, window):
            return RoleHolderConflict(mine.office, mine.holder, f"former: {mine.holder}")
    return None


def _held_once(mine: Holding, window: str) -> bool:
    """Does a sentence of ``window`` call the claim's holder a *former* holder of the
    claim's office ("Ms Owens, the charity's former chief executive, now runs …"), and name
    that office nowhere else ("… returned as its chief executive" may be a return)?"""
    for sentence in split_sentences(window):
        named = [
            m
            for m in _OFFICE.finditer(sentence.text)
            if _OFFICES[m.group(0).lower()] == mine.office
        ]
        if len(named) != 1:
            continue
        if any(
            h.former
            and h.office == mine.office
            and _same_body(h, mine)
            and same_person(h.holder, mine.holder)
            for h in holdings(sentence.text)
        ):
            return True
    return False


def _appointed_by(mine: Holding, stated: list[Holding]) -> Holding | None:
    """Another person the claim's holder appointed to the claim's office: "Maria Lopez …
    hired Sam Park as chief financial officer" says she is not the CFO. (An appointment
    by someone else is not compared with a present holder: one may have followed the
    other.)"""
    for h in stated:
        if (
            h.appointed
            and h.office == mine.office
            and _same_body(h, mine)
            and h.appointer is not None
            and same_person(h.appointer, mine.holder)
            and not same_person(h.holder, mine.holder)
        ):
            return h
    return None
