"""Quantities in text as intervals of a kind: "more than 80 countries", "$1.5 million", "7%".

Numbers, units and spelled-out values ("seven percent", "1,500 thousand
dollars", "10-20 km") are read by quantulum3
(:mod:`~provgraph.verification.quantulum_reader`, which also corrects its
systematic slips). On top of the library:

* comparatives around the value become open intervals ("more than 80" →
  [80, ∞), "up to 5" → (−∞, 5]), hedges a 10% band
  (:mod:`~provgraph.verification.bounds`);
* an exact value is widened by half a unit of its last written digit, capped at
  5% ("1.5 million" ≈ 1,450,000–1,550,000: a claim may round);
* proportions share one kind: "half of", "a third of", "one in four" and "most"
  / "the majority of" are percentages
  (:mod:`~provgraph.verification.proportions`), and so is a decimal share
  ("a rate of 0.07", "0.3 of the vote");
* how often is one kind too, events per year: "four times a year" = "quarterly"
  (:mod:`~provgraph.verification.frequencies`), and so is a place in a ranking
  ("finished first" / "in third place": :mod:`~provgraph.verification.ranks`);
* units of one dimension are converted to a base unit where the factor is
  fixed (km ↔ m, kg ↔ g, hours ↔ minutes), temperatures to kelvin (°C ↔ °F);
  currencies only match themselves;
* four-digit years are left to :mod:`provgraph.verification.dates`;
* a change "from A to B" gives both values and the pair (old, new), which
  :mod:`~provgraph.verification.changes` compares with "doubled" or "fell by 20%".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from provgraph.verification.ages import AGE_KIND, age_interval, extract_decade_ages
from provgraph.verification.base_units import BASE_UNITS, OFFSET_UNITS
from provgraph.verification.bounds import bounded
from provgraph.verification.frequencies import extract_frequencies
from provgraph.verification.multipliers import extract_multipliers
from provgraph.verification.proportions import derived_shares, extract_proportions
from provgraph.verification.quantulum_reader import Raw, read_piece
from provgraph.verification.ranks import extract_ranks
from provgraph.verification.slots import Mention
from provgraph.verification.unit_articles import articles_as_one
from provgraph.verification.wordsets import content_stems, near_stems

_MONEY_CONTEXT = re.compile(
    r"£|\b(?:sterling|raised|paid|pay|cost|costs|price|priced|spent|spend|budget|fund|funds|"
    r"funding|donated|revenue|profit|salary|worth|sold for|fine|fined)\b",
    re.IGNORECASE,
)
#: A weight said in "pounds": quantulum3 reads "tipped the scales at 11 pounds" as money.
_WEIGHT_CONTEXT = re.compile(r"\b(?:weigh\w*|weight|heav(?:y|ier|iest)|scales?|lbs?)\b", re.I)
#: "half a litre": quantulum3 reads "a litre" as "per litre".
_FRACTION_OF_ONE = re.compile(r"(?i)(?:half|a\s+quarter|a\s+third)\s+(?:of\s+)?an?\s+")
_CURRENCY_SYMBOLS = {"£": "pound sterling", "€": "euro", "¥": "yen"}
_DIGITS_RE = re.compile(r"\d[\d,]*(?:\.\d+)?")
_YEAR_SURFACE_RE = re.compile(r"^(?:1[0-9]{3}|20[0-9]{2}|2100)$")


_NUMERIC_HINT = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
    r"forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|trillion|"
    r"dozen|half|third|quarter|percent|once|twice|single|decade|century|freezing)\b",
    re.IGNORECASE,
)
_PIECE_RE = re.compile(r"(?:[^.;!?\n]|[.,](?=\d))+")
#: A decimal between 0 and 1 after these words is a share: "a rate of 0.07" is 7%.
_SHARE_BEFORE = re.compile(
    r"\b(?:rate|ratio|share|proportion|fraction|probability|likelihood|odds|percentage)\b"
    r"[^.;,]{0,20}$",
    re.IGNORECASE,
)


def _read(text: str) -> tuple[list[Raw], list[tuple[int, int]]]:
    """quantulum3's quantities of ``text``, piece by piece (cached), and its change pairs.

    Pieces without a digit or a number word are skipped: most of a source has no
    quantity, and the library's parse is the costly part of this stage.
    """
    out: list[Raw] = []
    pairs: list[tuple[int, int]] = []
    text = articles_as_one(text)
    for piece in _PIECE_RE.finditer(text):
        if not _NUMERIC_HINT.search(piece.group(0)):
            continue
        offset, base = piece.start(), len(out)
        found, piece_pairs = read_piece(piece.group(0))
        for r in found:
            out.append(
                Raw(
                    r.value,
                    r.unit,
                    r.entity,
                    r.surface,
                    r.start + offset,
                    r.end + offset,
                    r.uncertainty,
                )
            )
        pairs += [(a + base, b + base) for a, b in piece_pairs]
    return out, pairs


def _rounding(surface: str, value: float) -> float:
    """Half a unit of the last written significant digit, capped at 5% of the value."""
    digits = _DIGITS_RE.search(surface)
    if digits is None or value == 0:
        return 0.5 if float(value).is_integer() else abs(value) * 0.05
    written = digits.group(0).replace(",", "")
    try:
        number = float(written)
    except ValueError:
        return 0.0
    if "." in written:
        place = 10.0 ** -len(written.split(".")[1])
    else:
        stripped = written.rstrip("0")
        place = 10.0 ** (len(written) - len(stripped)) if stripped else 1.0
    scale = abs(value / number) if number else 1.0
    return min(0.5 * place * scale, 0.05 * abs(value))


def _kind(unit: str, entity: str) -> tuple[str, float, float] | None:
    """``(kind, factor, offset)``: a value in ``unit`` is ``value · factor + offset`` of
    the kind's base unit (None: no comparable unit)."""
    if unit in BASE_UNITS:
        return (*BASE_UNITS[unit], 0.0)
    if unit in OFFSET_UNITS:
        return OFFSET_UNITS[unit]
    if entity == "currency":
        return f"currency:{unit}", 1.0, 0.0
    if entity == "dimensionless" and unit == "dimensionless":
        return "count", 1.0, 0.0
    if entity in ("unknown",):
        return None
    return f"{entity}:{unit}", 1.0, 0.0


@dataclass(frozen=True)
class Quantities:
    """The quantities of a text and its changes "from A to B" as (old, new) mentions."""

    mentions: list[Mention]
    changes: list[tuple[Mention, Mention]]


def _interval(text: str, raw: Raw, value: float) -> tuple[float, float]:
    if raw.uncertainty:
        return value - raw.uncertainty, value + raw.uncertainty
    return bounded(text, raw.start, raw.end, value, _rounding(raw.surface, value))


_PUNCTUATION = re.compile(r"[,.;:!?()\[\]]")
#: Words that end the noun phrase after a count: "three frames *to* take". "of" does
#: not ("300 of the students" counts students).
_PHRASE_END = re.compile(
    r"(?i)\b(?:to|on|in|at|for|by|with|from|and|or|but|than|as|that|which|"
    r"who|whom|whose|was|were|is|are|be|been|has|have|had|will|would|can|could|after|before|"
    r"during|since|until|while|because|into|over|under)\b"
)


#: A count stated of the noun before it: "the population *stood at* 1,187,000", "a
#: population *of* 1,187,000", "membership *reached* 40,000".
_STATED_OF = re.compile(
    r"(?P<noun>[A-Za-z-]{3,})(?:'s)?\s+(?:stood at|of|reached|hit|totall?ed|numbered|"
    r"came to|amounted to|(?:rose|fell|grew|climbed|dropped|jumped|increased|decreased) to)"
    r"\s+(?:(?:about|around|some|nearly|almost|roughly|just over|just under|over|under)\s+)?$",
    re.IGNORECASE,
)


def counted_noun(text: str, end: int, start: int | None = None) -> frozenset[str]:
    """Stems of what a count ending at ``end`` counts: at most two content words of the
    noun phrase after it ("42 *people*", "300 new *jobs*", not the "take" of "three
    frames to take"). A count whose phrase ends at once is the count of the noun it is
    stated of ("the population stood at 1,187,000 in the last census", when ``start`` is
    given) or else read with the first two content words of its clause ("scored 1 in the
    reflex category", "18 on Monday"); none at a punctuation mark ("a workforce of about
    6,500.")."""
    after = text[end : end + 40]
    cut = _PUNCTUATION.search(after)
    after = after[: cut.start()] if cut else after
    stop = _PHRASE_END.search(after)
    phrase = content_stems(after[: stop.start()] if stop else after)[:2]
    if not phrase and start is not None and after.strip():
        stated_of = _STATED_OF.search(text[max(0, start - 40) : start])
        if stated_of is not None:
            return frozenset(content_stems(stated_of.group("noun")))
    return frozenset(phrase or content_stems(after)[:2])


#: A number right after one of these nouns names a thing ("port 8080", "version 2.1",
#: "Flight 370", "Section 230"): an identifier, exact, compared only with another
#: number after the same noun.
_IDENTIFIER_NOUN = re.compile(
    r"(?i)\b(port|version|release|model|room|flight|route|gate|platform|chapter|section|"
    r"article|amendment|exhibit|level|grade|highway|interstate|no\.)\s+$"
)


def _identifier(text: str, start: int, value: float) -> tuple[str, float] | None:
    """``("id:<noun>", value)`` when the number at ``start`` names a thing."""
    noun = _IDENTIFIER_NOUN.search(text[max(0, start - 14) : start])
    return (f"id:{noun.group(1).lower().rstrip('.')}", value) if noun else None


def _mention(text: str, raw: Raw) -> Mention | None:
    """``raw`` as a :class:`Mention` (None: a year, an article, or no comparable unit)."""
    value, unit, entity, surface, start, end = (
        raw.value,
        raw.unit,
        raw.entity,
        raw.surface,
        raw.start,
        raw.end,
    )
    if entity == "dimensionless" and unit == "dimensionless" and _YEAR_SURFACE_RE.match(surface):
        return None  # a year: dates.py
    article = re.match(r"(?i)an?\s+", surface)
    if article and not _NUMERIC_HINT.search(surface[article.end() :]):
        return None  # "a percentage point": the article is not a number
    if unit.startswith("per ") and _FRACTION_OF_ONE.match(surface) and unit != "per percentage":
        # "half a dozen" is 6, "half a kilo" 0.5 kg: the library names the unit but reads
        # "a" as "per" ("half a percentage point" is no percentage). The phrases it reads
        # apart or not at all ("a quarter of a century", "half an hour") are unit_phrases.py's.
        unit = unit.removeprefix("per ")
    if (
        unit == "pound sterling"
        and "£" not in surface
        and _WEIGHT_CONTEXT.search(text)
        and not _MONEY_CONTEXT.search(text)
    ):
        unit = "pound-mass"
    if unit in ("decade", "century") and text[end : end + 1] == "-":
        return None  # "a decade-long war", "a century-old church": a noun's qualifier
    kind = _kind(unit, entity)
    symbol = _CURRENCY_SYMBOLS.get(surface[:1])
    if symbol is not None and entity != "currency":  # "£40,000 at": read as ampere-turns
        kind = f"currency:{symbol}", 1.0, 0.0
        written = _DIGITS_RE.search(surface)
        if written is not None and written.start() == 1:
            surface, end = surface[: written.end()], start + written.end()
    if kind is None:
        return None
    name, factor, offset = kind
    if unit == "pound-mass" and _MONEY_CONTEXT.search(text):
        name, factor = "currency:pound sterling", 1.0  # "raised forty thousand pounds"
    if entity == "dimensionless" and 0 < value < 1:
        of_share = text[end : end + 4].lower() == " of " and not re.match(
            r"(?i) of an?\b", text[end : end + 7]
        )
        if of_share or _SHARE_BEFORE.search(text[max(0, start - 40) : start]):
            name, value, factor = "percent", value * 100.0, 1.0
    label = _identifier(text, start, value) if name == "count" else None
    if label is not None:
        near, clause = near_stems(text, start, end)
        return Mention(label[0], value, value, surface, start, end, near, clause)
    near, clause = near_stems(text, start, end)
    low, high = _interval(
        text, Raw(value, unit, entity, surface, start, end, raw.uncertainty), value
    )
    age = age_interval(text, start, end, unit, (low, high), _rounding(surface, value))
    if age is not None:
        return Mention(AGE_KIND, age[0], age[1], surface, start, end, near, clause)
    noun = counted_noun(text, end, start) if name == "count" else frozenset()
    return Mention(
        name, low * factor + offset, high * factor + offset, surface, start, end, near, clause, noun
    )


def read_quantities(text: str, exclude: list[tuple[int, int]] | None = None) -> Quantities:
    """Every quantity of ``text`` (in text order) and its changes "from A to B".

    Years and anything overlapping an ``exclude`` span (the date phrases: "15"
    of "15 February", "quarter" of "first quarter") are left out.
    """
    taken = list(exclude or [])
    out: list[Mention] = []
    phrases = (extract_frequencies, extract_multipliers, extract_ranks, extract_proportions)
    for reader in (*phrases, extract_decade_ages):
        read = [m for m in reader(text) if not any(s < m.end and m.start < e for s, e in taken)]
        out += read
        taken += [(m.start, m.end) for m in read]
    raws, pairs = _read(text)
    by_raw: dict[int, Mention] = {}
    for i, raw in enumerate(raws):
        if any(s < raw.end and raw.start < e for s, e in taken):
            continue
        mention = _mention(text, raw)
        if mention is not None:
            by_raw[i] = mention
            out.append(mention)
    # shares stated as two counts, read beside the counts (they take no span)
    out += [
        m
        for m in derived_shares(text)
        if not any(s < m.end and m.start < e for s, e in exclude or [])
    ]
    changes = [
        (by_raw[a], by_raw[b])
        for a, b in pairs
        if a in by_raw and b in by_raw and by_raw[a].kind == by_raw[b].kind
    ]
    return Quantities(_compound_measures(text, sorted(out, key=lambda m: m.start)), changes)


#: Dimensions written as a sum of units, largest first: "2 hours 25 minutes",
#: "5 feet 10 inches", "3 kg 200 g".
_COMPOUND_KINDS = frozenset({"time", "length", "mass"})
_COMPOUND_JOIN = re.compile(r"\s*(?:,\s*|\s+and\s+)?")


def _unit_word(surface: str) -> str:
    """The last word of a value as written, its unit ("minutes" of "25 minutes")."""
    words = re.findall(r"[A-Za-z]+", surface)
    return words[-1].lower() if words else ""


def _compound_measures(text: str, mentions: list[Mention]) -> list[Mention]:
    """Adjacent values of one dimension, the larger unit first, read as their sum.

    "2 hours 25 minutes" is one duration of 2 h 25 min: read apart, its "2 hours"
    contradicted "about two and a half hours" (issue 14's paraphrases called
    contradictions). Joined by nothing, a comma or "and"; in two units, the first
    exceeding the second (so "5 km, 3 km and 1 km" stays a list).
    """
    out: list[Mention] = []
    for mention in mentions:
        last = out[-1] if out else None
        if (
            last is not None
            and last.kind == mention.kind
            and mention.kind in _COMPOUND_KINDS
            and last.low > mention.high
            and _unit_word(last.surface) != _unit_word(mention.surface)
            and _COMPOUND_JOIN.fullmatch(text[last.end : mention.start])
        ):
            out[-1] = replace(
                last,
                low=last.low + mention.low,
                high=last.high + mention.high,
                surface=text[last.start : mention.end],
                end=mention.end,
            )
            continue
        out.append(mention)
    return out


def extract_quantities(text: str, exclude: list[tuple[int, int]] | None = None) -> list[Mention]:
    """Every quantity of ``text`` as a :class:`Mention`, in order (:func:`read_quantities`)."""
    return read_quantities(text, exclude).mentions
