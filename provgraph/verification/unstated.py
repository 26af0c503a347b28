"""Could a source value be stating a claim's value? The guard of the value-free reading.

The value-free reading (:mod:`.valuefree`) discounts an NLI contradiction that
rests only on a claim value the source never states. Its one risk is a source
that *does* state the value, in a form the quantity reader does not pair with
the claim's: "662 tons" / "displaced nearly 265 metric tons" (a ton of unknown
kind against metric tons), "over 240 miles per hour" / "300 km (186 miles) per
hour" (read as two lengths). Those contradictions are real. So a value counts
as unstated only when no window value could be stating it, read loosely: the
same dimension, or a shared unit or counted word, unless the two are explicitly
of different measures ("300 metres long" / "45 metres high").
"""

from __future__ import annotations

import re

from provgraph.verification.date_bounds import is_bound
from provgraph.verification.measures import different_measures
from provgraph.verification.slots import Mention, comparable

#: Words of a value's surface that say what it counts, not how many: scale words.
_SCALE_WORDS = frozenset(
    {"thousand", "million", "billion", "trillion", "hundred", "dozen", "bn", "mn", "k", "m", "b"}
)


def _unit_words(value: Mention) -> frozenset[str]:
    """The unit and counted words of a value ("240 miles per hour" → mile, per, hour;
    "42 ships" → its noun stems), and a currency or percent sign."""
    words = {w.lower().rstrip("s") for w in re.findall(r"[A-Za-z]+", value.surface)}
    signs = set(re.findall(r"[%$€£¥]", value.surface))
    return frozenset((words - _SCALE_WORDS) | signs | value.noun)


def might_state(value: Mention, window_values: list[Mention]) -> bool:
    """Could a window value be stating ``value`` — a comparable one (same dimension,
    measure, counted thing), or one that shares its unit or counted words and is not
    explicitly of another measure? The quantity reader misreads some units ("300 km
    (186 miles) per hour" reads as two lengths), so a shared unit word is enough. A date
    bound ("before 1350") states no date (:mod:`.date_bounds`): a claim date it holds is
    unstated, so NLI's contradiction of it is read without the date (:mod:`.valuefree`)."""
    window_values = [v for v in window_values if not is_bound(v.kind, v.low, v.high)]
    if comparable(value, window_values, by_dimension=True):
        return True
    units = _unit_words(value)
    return any(
        units & _unit_words(v) and not different_measures(value.near, v.near, kind=value.kind)
        for v in window_values
    )
