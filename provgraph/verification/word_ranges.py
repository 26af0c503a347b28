"""A range whose lower end is a bare number and whose upper end carries the unit.

"between five and seven years" is read by quantulum3 as a count ("five") and a duration
("seven years"), so "Construction lasted six years." came out *contradicted* by the
claim's seven years (session 33); with digits ("between 5 and 7 years") the library reads
one range. :func:`join_ranges` joins such a pair into one value — the unit the upper
end's, the value the midpoint, the uncertainty half the width — where the two are
joined by "and" after "between", or by "to", "-" or "–", and the lower end is smaller
(a descending "from 50 to 40" is a change, read elsewhere, and "five to 7" with a larger
first number is not a range).
"""

from __future__ import annotations

import re
from dataclasses import replace

from provgraph.verification.raw_quantity import Raw

_BETWEEN = re.compile(r"\bbetween\s+$", re.IGNORECASE)
_JOIN = re.compile(r"\s*(?:-|–|\s(?:to|and)\s)\s*", re.IGNORECASE)
_PLAIN = ("dimensionless", "unknown")


def join_ranges(text: str, found: list[Raw]) -> list[Raw]:
    """``found`` (in text order) with each bare-number / unit pair of the module docstring
    read as one range."""
    out: list[Raw] = []
    for raw in found:
        last = out[-1] if out else None
        join = _JOIN.fullmatch(text[last.end : raw.start]) if last is not None else None
        if (
            last is not None
            and join is not None
            and last.entity in _PLAIN
            and raw.entity not in _PLAIN
            and last.uncertainty is None
            and raw.uncertainty is None
            and 0 <= last.value < raw.value
            and ("and" not in join.group(0).lower() or _BETWEEN.search(text[: last.start]))
        ):
            out[-1] = replace(
                raw,
                value=(last.value + raw.value) / 2,
                uncertainty=(raw.value - last.value) / 2,
                surface=text[last.start : raw.end],
                start=last.start,
            )
            continue
        out.append(raw)
    return out
