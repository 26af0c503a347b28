"""What a value measures: "300 metres *long*" is not "45 metres *high*".

Two values of one dimension attached to the same subject ("the bridge") are
still different quantities when the words next to them name different
measures: length vs height, a budget vs a cost, a founding vs a closing. A
mismatch between them is no contradiction ("The bridge is 300 metres long" /
"The bridge is 45 metres high"; "The museum's budget is $4 million" / "its
new wing cost $12 million"; "The factory opened in 1990" / "closed in 2005").

The groups below are stems (:func:`~provgraph.verification.wordsets.stem`) of
general English words, not of any data set; a value with none of them nearby
has no stated measure and is compared as before (on its shared words).
Counts compare only counts of the same noun (:func:`same_counted_noun`),
where "people" may be any group of people ("employs 312 people" counts the
employees). "Built" / "completed" name no group on purpose: "the merger closed" is "the
merger was completed", while "built" vs "opened" would be two events.
"""

from __future__ import annotations

from provgraph.verification.synonyms import NOUN_GROUPS
from provgraph.verification.wordsets import stem

_GROUPS: dict[str, tuple[str, ...]] = {
    # physical dimensions
    "length": ("long", "length", "lengthi", "span"),
    "height": ("high", "height", "tall", "altitud", "elevati"),
    "width": ("wid", "width", "broad", "breadth"),
    "depth": ("deep", "depth"),
    # money
    "cost": ("cost", "pric", "paid", "pay", "spent", "spend", "bill", "fee", "expens"),
    "budget": ("budget",),
    "revenue": ("revenu", "turnov"),
    "profit": ("profit",),
    "loss": ("los", "loss", "deficit"),
    "debt": ("debt",),
    "pay": ("salari", "wag"),
    "funding": ("rais", "fund", "invest", "investm", "donat", "grant"),
    "value": ("valuati", "valu", "worth"),
    # events a date is attached to
    "start": ("found", "open", "began", "begun", "begin", "inaugur", "introduc"),
    "end": (
        "clos",
        "shut",
        "end",
        "dissolv",
        "abolish",
        "discontinu",
        "demolish",
        "resign",
        "retir",
    ),
    "enacted": ("pass", "enact", "adopt", "ratifi", "approv"),
    "born": ("born",),
    "died": ("died",),
}
_STEM_GROUP = {s: group for group, stems in _GROUPS.items() for s in stems}


def measures(near: frozenset[str]) -> frozenset[str]:
    """The measure groups named by a value's neighbouring stems (empty: none stated)."""
    return frozenset(_STEM_GROUP[s] for s in near if s in _STEM_GROUP)


#: Groups naming the event a value is attached to, not a physical dimension.
_EVENT_GROUPS = frozenset({"start", "end", "enacted", "born", "died"})
#: Kinds of a physical dimension: an event word near one is not what it measures ("spans
#: 3 miles of *open* water" is a length, not an opening; session 28).
_PHYSICAL_KINDS = frozenset({"length", "area", "volume", "mass", "speed"})


#: Groups naming an amount of money: a count is none ("the closure *cost* 488 jobs", "488
#: jobs were *lost*" count the same jobs; session 29). A share keeps them ("profit rose 5%"
#: is not "revenue rose 5%").
_MONEY_GROUPS = frozenset(
    {"cost", "budget", "revenue", "profit", "loss", "debt", "pay", "funding", "value"}
)


def different_measures(a: frozenset[str], b: frozenset[str], *, kind: str = "") -> bool:
    """Two values' neighbouring stems both name what they measure, and never the same thing.

    ``kind``: the values' kind; for a physical dimension the event groups are not read,
    for a count the money groups (:data:`_MONEY_GROUPS`)."""
    ma, mb = measures(a), measures(b)
    if kind.split(":", 1)[0] in _PHYSICAL_KINDS:
        ma, mb = ma - _EVENT_GROUPS, mb - _EVENT_GROUPS
    if kind == "count":
        ma, mb = ma - _MONEY_GROUPS, mb - _MONEY_GROUPS
    return bool(ma) and bool(mb) and not (ma & mb)


#: Nouns for groups of people: "312 people" may count the "employees" of a
#: claim ("employs 312 people"), so a count of the generic noun is compared
#: with a count of any of these (two different ones are still different things).
_PEOPLE = frozenset(
    stem(w)
    for w in [
        "employees",
        "workers",
        "residents",
        "inhabitants",
        "citizens",
        "voters",
        "students",
        "pupils",
        "patients",
        "members",
        "adults",
        "children",
        "passengers",
        "customers",
        "users",
        "soldiers",
    ]
)
_PERSON = stem("persons")


def same_counted_noun(a: frozenset[str], b: frozenset[str]) -> bool:
    """Do two counts count the same thing (shared noun stem, synonyms —
    :data:`.synonyms.NOUN_GROUPS` —, or people and a group of people)?"""
    if a & b:
        return True
    if any(a & group and b & group for group in NOUN_GROUPS):
        return True
    return (_PERSON in a and bool(b & _PEOPLE)) or (_PERSON in b and bool(a & _PEOPLE))
