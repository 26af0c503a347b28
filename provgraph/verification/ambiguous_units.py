"""Units whose size depends on the country: a gallon, a ton.

A gallon is 3.785 litres (US) or 4.546 (imperial), a ton 907 kg (short), 1,000 kg
(metric) or 1,016 kg (long). :mod:`.quantities` keeps each a kind of its own
("volume:gallon", "mass:ton"), so a gallon is compared with gallons at the precision it
was written in. Against a value in the dimension's base unit, though, that kept "The tank
holds 50 litres." and "The tank holds 50 gallons of fuel." apart: no value of the claim's
kind, the source's 50 read in another unit, so nothing was judged (session 31; NLI
entailed the pair at 0.97). Read here: such a value in the base kind, as the interval of
every size the unit has — wide, so it only decides where every reading does (50 gallons
is 189–227 litres whichever gallon is meant: not 50 litres).
"""

from __future__ import annotations

#: kind → (base kind, smallest and largest size in the base kind's unit: litres, grams).
_SIZES: dict[str, tuple[str, float, float]] = {
    "volume:gallon": ("volume", 3.785411784, 4.54609),
    "mass:ton": ("mass", 907184.74, 1016046.9088),
}


def base_kind(kind: str) -> str | None:
    """The kind a country-dependent unit's values can be read in ("volume" for gallons)."""
    sizes = _SIZES.get(kind)
    return sizes[0] if sizes else None


def sizes_in(kind: str, target: str) -> tuple[float, float] | None:
    """(smallest, largest) size of one unit of ``kind`` in ``target``'s unit, when ``kind``
    is a country-dependent unit of that dimension (the caller scales the interval)."""
    sizes = _SIZES.get(kind)
    return (sizes[1], sizes[2]) if sizes and sizes[0] == target else None
