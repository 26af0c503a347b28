"""Opposites a sentence does not assert: a dimension after a measure, a quality barely held.

The antonym check (:mod:`.antonyms`) reads "The lake is shallow." against "The lake is no
more than two metres deep" as shallow / deep, and "The road is narrow." against "The road
is barely wide enough for one car" as narrow / wide: both were *contradicted* (session
38). Neither source asserts the quality its word names:

* after a measure, a dimension word names the dimension measured, not its degree ("two
  metres *deep*", "30 years *old*", "5 km *long*"): whether two metres is shallow is the
  value's matter, which NLI and the value checks read;
* after "barely", "hardly" or "scarcely", a quality is held at its least ("barely wide
  enough" is narrow): a near-negation, read like "not wide" (a negated opposite is a
  paraphrase).
"""

from __future__ import annotations

import re

from provgraph.verification.antonym_lexicon import american
from provgraph.verification.word_classes import NUMBER_WORDS
from provgraph.verification.wordsets import stem

_TOKEN = re.compile(r"[A-Za-z]+|\d[\d,.]*")
_MINIMISERS = frozenset(("barely", "hardly", "scarcely"))
#: The dimension words of a measure ("two metres *deep*", "30 years *old*").
_DIMENSIONS = frozenset((
    "deep", "tall", "high", "wide", "long", "old", "thick", "broad", "heavy", "across",
))  # fmt: skip
#: Units a dimension word follows in a measure ("two metres deep", "ten feet high").
_UNITS = frozenset((
    "m", "metre", "metres", "meter", "meters", "cm", "centimetres", "centimeters", "mm",
    "km", "kilometres", "kilometers", "ft", "foot", "feet", "inch", "inches", "yard",
    "yards", "mile", "miles", "year", "years", "month", "months", "storey", "storeys",
    "story", "stories", "floor", "floors", "kg", "kilograms", "tonnes", "tons", "pounds",
    "lb", "degrees",
))  # fmt: skip


def unasserted(text: str, word: str) -> bool:
    """Is ``word`` (a lexicon key: a crude stem or an American spelling) read in ``text``
    only right after a measure or a minimiser ("two metres deep", "barely wide")? False
    when ``text`` also uses it plainly."""
    tokens = [m.group(0) for m in _TOKEN.finditer(text)]
    found = False
    for i, token in enumerate(tokens):
        lower = american(token.lower())
        if word not in (lower, stem(lower)):
            continue
        if not (_after_measure(tokens, i) or (i > 0 and tokens[i - 1].lower() in _MINIMISERS)):
            return False
        found = True
    return found


def _after_measure(tokens: list[str], i: int) -> bool:
    """Is ``tokens[i]`` a dimension word right after a number and a unit ("2 metres deep",
    "two metres wide")? Not other words: "two years *behind* schedule" and "two months
    *after* the election" state what they say."""
    if i < 2 or tokens[i].lower() not in _DIMENSIONS or tokens[i - 1].lower() not in _UNITS:
        return False
    before = tokens[i - 2].lower()
    return before[:1].isdigit() or before in NUMBER_WORDS or before in ("one", "a", "half")
