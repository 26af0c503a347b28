"""Session 37's rules, read without models: a quarter named by its months, power and
energy units, letter names in comparisons, comparisons judged by their values' kind
and confirmed by them, a confidently neutral source silent on the predicate, and the
opposites added to the hand list."""

from __future__ import annotations

from dataclasses import replace

from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.consistency import check_consistency
from provgraph.verification.dates import extract_dates
from provgraph.verification.directions import comparisons
from provgraph.verification.ended_states import ended_state
from provgraph.verification.noun_roles import noun_relations
from provgraph.verification.quantities import read_quantities
from provgraph.verification.value_comparisons import judge_value_comparisons
from provgraph.verification.verdict_types import FusionWeights
from provgraph.verification.verdicts import (
    COMPARED_SUPPORT,
    SILENT_PREDICATE_SUPPORT,
    Signals,
    fuse,
    silent_on_predicate,
)
from provgraph.verification.wordsets import content_stems, stem


def test_a_quarter_named_by_its_months() -> None:
    (months,) = extract_dates("Profits dropped in the final three months of the year.")
    (fourth,) = extract_dates("Profits fell in the fourth quarter.")
    (third,) = extract_dates("Profits fell in the third quarter.")
    assert months.kind == fourth.kind == "date-in-year"
    assert months.overlaps(fourth) and not months.overlaps(third)
    (half,) = extract_dates("Sales rose in the first six months of 2023.")
    (june,) = extract_dates("Sales rose in June 2023.")
    (july,) = extract_dates("Sales rose in July 2023.")
    assert half.overlaps(june) and not half.overlaps(july)
    # months of something else than a year are no date
    assert extract_dates("In the first three months of the trial, nobody dropped out.") == []
    agreed = check_consistency(
        "Profits fell in the fourth quarter.",
        "Profits dropped sharply in the final three months of the year.",
        "Profits dropped sharply in the final three months of the year.",
    )
    assert agreed.agreement == 1.0 and not agreed.year_mismatches


def test_power_and_energy_compare_across_units() -> None:
    (mega,) = read_quantities("The turbine produces 3 megawatts.").mentions
    (kilo,) = read_quantities("It has a rated output of 3,000 kilowatts.").mentions
    assert mega.kind == kilo.kind == "power"
    assert mega.low <= kilo.high and kilo.low <= mega.high
    source = "Each turbine has a rated output of 300 kilowatts."
    wrong = check_consistency("The turbine produces 3 megawatts.", source, source)
    assert wrong.anchored_mismatches == ("3 megawatts",)
    (stored,) = read_quantities("The battery stores 2 MWh.").mentions
    assert stored.kind == "energy" and stored.low > 1e6


def test_a_mine_is_a_noun() -> None:
    assert content_stems("The mine closed in 1987.")[0] == content_stems("mines")[0]
    found = ended_state("The mine is still in operation.", "The mine closed in 1987.")
    assert found is not None and found.share == 1.0


def test_letter_names_tell_the_sides_apart() -> None:
    (lake,) = comparisons("Lake A is deeper than Lake B.")
    assert lake.left == {"letter A"} and lake.right == {"letter B"}
    judged = judge_value_comparisons(
        "Lake A is deeper than Lake B.",
        "Lake A has a maximum depth of 40 m, while Lake B reaches 120 m.",
    )
    assert judged.mismatched == ["deep comparison"]
    # a sentence's first "A" is an article, not a name
    (bus,) = comparisons("A bus is cheaper than a train.")
    assert bus.left == {"bus"}


def test_a_dimension_is_judged_by_values_of_its_kind() -> None:
    claim = "Lake A is deeper than Lake B."
    species = "Lake A is home to 40 fish species, while Lake B has 120."
    assert judge_value_comparisons(claim, species).mismatched == []
    prices = "A ticket for the ferry costs $40, while the bus fare is $25."
    assert judge_value_comparisons("The bus is cheaper than the ferry.", prices).agreed


def test_a_number_word_takes_the_unit_of_its_pair() -> None:
    claim = "Train travel is faster than driving on this route."
    judged = judge_value_comparisons(
        claim, "The train takes two hours, while the drive takes about three."
    )
    assert judged.agreed == ["fast comparison"]
    slower = judge_value_comparisons(
        claim, "The train takes four hours, while the drive takes about three."
    )
    assert slower.mismatched == ["fast comparison"]


def test_a_comparison_the_values_confirm_is_support() -> None:
    source = "The new stadium seats 60,000, compared with 20,000 at the old ground."
    confirmed = check_consistency(
        "The new stadium holds three times as many fans as the old one.", source, source
    )
    assert confirmed.comparison_confirmed
    plain = check_consistency("The new stadium seats 60,000 fans.", source, source)
    assert not plain.comparison_confirmed  # a value, not a comparison
    neutral = Signals(
        tfidf=0.1,
        recall=0.3,
        embedding=0.5,
        nli_entailment=0.02,
        nli_contradiction=0.1,
        nli_max_contradiction=0.1,
        consistency_agreement=1.0,
        consistency_quantity_agreed=True,
        consistency_paraphrased=True,
        claim_statements=1,
    )
    low, _ = fuse(neutral, FusionWeights())
    lifted, _ = fuse(replace(neutral, consistency_compared=True), FusionWeights())
    two_parts, _ = fuse(
        replace(neutral, consistency_compared=True, claim_statements=2), FusionWeights()
    )
    assert low is not None and low < COMPARED_SUPPORT
    assert lifted == COMPARED_SUPPORT
    assert two_parts == low  # one part's comparison says nothing of the other part


def test_a_confidently_neutral_source_is_silent_on_the_predicate() -> None:
    silent = Signals(
        tfidf=0.4,
        recall=0.4,
        embedding=0.65,
        nli_entailment=0.1,
        nli_contradiction=0.08,
        nli_max_contradiction=0.08,
        predicate_unspoken=True,
        consistency_agreement=1.0,
        claim_statements=1,
    )
    assert silent_on_predicate(silent)
    support, _ = fuse(silent, FusionWeights())
    assert support is not None and support <= SILENT_PREDICATE_SUPPORT
    # NLI not sure it is neutral: the close meaning may be the predicate's paraphrase
    unsure = replace(silent, nli_entailment=0.3, nli_contradiction=0.1)
    assert not silent_on_predicate(unsure)


def test_the_new_opposites() -> None:
    cases = [
        ("The bill passed the senate.", "The senate rejected the bill by 52 votes to 48."),
        ("The castle is now in ruins.", "The castle has been fully restored as a hotel."),
        ("The merger was welcomed by the unions.", "The unions opposed the merger."),
    ]
    for claim, source in cases:
        assert antonym_conflict(claim, source) is not None, claim
    # a passage of the bill by another chamber is no conflict
    assert (
        antonym_conflict(
            "The bill passed the senate.", "The house rejected the amendment to the budget."
        )
        is None
    )


def test_a_win_ahead_of_another_is_beating_them() -> None:
    source = "Cambridge won the boat race, finishing two lengths ahead of Oxford."
    swapped = check_consistency("Oxford beat Cambridge in the boat race.", source, source)
    assert swapped.negation_mismatch and "roles" in swapped.details
    same = check_consistency("Cambridge beat Oxford in the boat race.", source, source)
    assert not same.negation_mismatch
    beating = "Cambridge won the final, beating Oxford 3-1."
    assert check_consistency("Oxford defeated Cambridge.", beating, beating).negation_mismatch
    # a win of something else, then a name: no relation between the two
    other = "Cambridge won the toss while Oxford chose the Surrey station."
    assert not check_consistency("Oxford beat Cambridge.", other, other).negation_mismatch


def test_polluted_and_clean_are_opposites() -> None:
    found = antonym_conflict(
        "The river is polluted downstream of the factory.",
        "Tests show the river is clean downstream of the factory.",
    )
    assert found is not None


def test_a_thing_moved_one_way_against_its_own_move_the_other_way() -> None:
    boosted = antonym_conflict(
        "The new policy boosted exports.", "Exports slumped after the new policy came into force."
    )
    assert boosted is not None and boosted.source_word == "slump"
    cut = antonym_conflict("The plant cut emissions.", "Emissions at the plant rose by 8%.")
    assert cut is not None
    narrows = antonym_conflict(
        "The road is wide near the town centre.", "Near the town centre the road narrows."
    )
    assert narrows is not None


def test_older_and_newer_are_generations() -> None:
    judged = judge_value_comparisons(
        "The older bridge is narrower than the new one.",
        "The old bridge is 12 metres wide, while the new bridge is 30 metres wide.",
    )
    assert judged.agreed == ["narrow comparison"]


def test_a_name_against_a_common_noun_party() -> None:
    assert noun_relations("Microsoft was sued by the regulator.") == [
        (frozenset({stem("regulator")}), "sued", frozenset({stem("Microsoft")}))
    ]
    source = "Microsoft sued the regulator over the ruling."
    swapped = check_consistency("Microsoft was sued by the regulator.", source, source)
    assert "roles" in swapped.details
    same = check_consistency("The regulator was sued by Microsoft.", source, source)
    assert "roles" not in same.details
    # two names are the name check's, a sentence's first word is no name by itself
    assert noun_relations("Brazil beat Germany.") == []
    assert noun_relations("Tests show the river is clean.") == []


def test_a_bare_count_with_its_own_scale_word() -> None:
    source = (
        "The new plant produces 2 million tonnes of steel a year, compared with 1 million at "
        "the old plant."
    )
    four = "The new plant produces four times as much steel as the old one."
    assert judge_value_comparisons(four, source).mismatched == [
        "four times as much steel as the old one"
    ]
    two = "The new plant produces twice as much steel as the old one."
    assert judge_value_comparisons(two, source).agreed == ["twice as much steel as the old one"]


def test_floors_are_storeys() -> None:
    source = "The 102-storey tower opened in 1931."
    assert check_consistency("The tower has 102 floors.", source, source).agreement == 1.0
    other = "The tower has 102 storeys."
    assert check_consistency("The tower has 90 floors.", other, other).anchored_mismatches


def test_a_longer_transfer_between_two_names() -> None:
    source = "Italy imports large amounts of olive oil from Spain."
    swapped = check_consistency("Spain imports olive oil from Italy.", source, source)
    assert "roles" in swapped.details
    same = check_consistency("Italy imports olive oil from Spain.", source, source)
    assert "roles" not in same.details


def test_older_and_newer_are_judged_by_two_dates() -> None:
    source = "The west wing dates from 1650, while the east wing was added in 1820."
    older = judge_value_comparisons("The east wing is older than the west wing.", source)
    assert older.mismatched == ["old comparison"]
    newer = judge_value_comparisons("The east wing is newer than the west wing.", source)
    assert newer.agreed == ["new comparison"]
    # a size is not judged by dates
    larger = "The east wing is larger than the west wing."
    assert judge_value_comparisons(larger, source) == judge_value_comparisons(larger, "")
