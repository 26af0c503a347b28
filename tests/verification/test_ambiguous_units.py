"""A gallon or a ton against the dimension's base unit: every size the unit has."""

from __future__ import annotations

import pytest

from provgraph.verification.consistency import check_consistency


@pytest.mark.parametrize(
    ("claim", "source", "mismatch", "agrees"),
    [
        ("The tank holds 50 litres.", "The tank holds 50 gallons of fuel.", True, False),
        ("The tank holds 50 gallons.", "The tank holds 50 litres of fuel.", True, False),
        # 50 gallons is 189-227 litres, whichever gallon is meant
        ("The tank holds 200 litres.", "The tank holds 50 gallons of fuel.", False, True),
        # gallons against gallons keep the precision they were written in
        ("The tank holds 50 gallons.", "The tank holds 40 gallons of fuel.", True, False),
        ("The ship carries 5,000 tons of cargo.", "It carries 5,000 tonnes of cargo.", False, True),
        ("The ship carries 5,000 tons of cargo.", "It carries 2,000 tonnes of cargo.", True, False),
    ],
)
def test_country_dependent_units_are_read_as_every_size(
    claim: str, source: str, mismatch: bool, agrees: bool
) -> None:
    result = check_consistency(claim, source, source)
    assert bool(result.anchored_mismatches) is mismatch
    assert bool(result.agreements) is agrees


def test_a_claim_read_as_every_size_meets_no_open_bound() -> None:
    source = (
        "She displaced nearly 265 metric tons when surfaced and over 300 metric tons when "
        "submerged."
    )
    claim = "The submarine had a displacement of 662 tons when surfaced."
    result = check_consistency(claim, source, source)
    assert result.anchored_mismatches and not result.agreements
