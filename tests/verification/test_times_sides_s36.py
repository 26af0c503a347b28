"""Session 36's rules, read without models: times in other words, a comparison's other
side, sizes as multiples, seasons without a year, elided units, shares in words."""

from __future__ import annotations

from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.dates import extract_dates
from provgraph.verification.degrees import plain_superlatives
from provgraph.verification.proportions import derived_shares
from provgraph.verification.value_comparisons import judge_value_comparisons


def test_a_time_named_in_other_words_is_shared() -> None:
    quarter = antonym_conflict(
        "The airline posted a loss in the fourth quarter.",
        "In the three months to December the airline returned a record profit.",
    )
    assert quarter is not None and (quarter.claim_word, quarter.source_word) == ("loss", "profit")
    daily = antonym_conflict(
        "The museum is open every day.", "Entry is free, but the museum is closed on Mondays."
    )
    assert daily is not None
    # another quarter's profit is no conflict
    assert (
        antonym_conflict(
            "The airline posted a loss in the fourth quarter.",
            "In the three months to June the airline returned a record profit.",
        )
        is None
    )


def test_a_size_as_a_multiple_is_a_comparative() -> None:
    assert plain_superlatives("It is twice the size of the old one.") == (
        "It is more large than the old one."
    )
    assert plain_superlatives("The lake is half the depth of the sea.") == (
        "The lake is more shallow than the sea."
    )
    assert plain_superlatives("We counted the size of the crowd.") == (
        "We counted the size of the crowd."
    )
    found = antonym_conflict(
        "The library's new wing is smaller than the original building.",
        "The new wing, at 8,000 square metres, is twice the size of the original building.",
    )
    assert found is not None and (found.claim_word, found.source_word) == ("small", "large")


def test_a_season_without_a_year_is_a_date_in_the_year() -> None:
    (late,) = extract_dates("The festival takes place in late summer.")
    (august,) = extract_dates("It is held in the last week of August.")
    assert late.kind == august.kind == "date-in-year" and late.overlaps(august)
    (spring,) = extract_dates("They married in the spring.")
    assert not spring.overlaps(august)
    assert extract_dates("She ran a summer camp after a fall in sales.") == []


def test_a_bare_number_takes_the_unit_of_its_pair() -> None:
    claim = "The northern route is shorter than the coastal route."
    source = "The coastal route runs 140 kilometres, while the northern route covers only 95."
    assert judge_value_comparisons(claim, source).agreed == ["short comparison"]
    longer = "The northern route is longer than the coastal route."
    assert judge_value_comparisons(longer, source).mismatched == ["long comparison"]
    # values whose rounding only touches are two values: 120 is not taller than 130
    tall = judge_value_comparisons(
        "The tower is taller than the hotel.", "The tower is 120 metres tall and the hotel 130."
    )
    assert tall.mismatched == ["tall comparison"]
    # a number counting a noun keeps its own kind
    floors = judge_value_comparisons(
        "The tower is taller than the hotel.",
        "The tower is 120 metres tall and the hotel has 30 floors.",
    )
    assert (floors.agreed, floors.mismatched) == ([], [])


def test_a_share_in_words() -> None:
    (share,) = derived_shares("Police recovered four of the six stolen paintings.")
    assert 58 < share.low < share.high < 76
    assert derived_shares("Every one of the 250 delegates voted for the motion.") == []


def test_a_universal_time_covers_the_days_a_denial_names() -> None:
    from provgraph.verification.negation import negation_conflict

    found = negation_conflict(
        "The ferry runs every day of the year.", "The ferry does not run on Sundays in winter."
    )
    assert found is not None and found.side == "source"
    # a claim of another season is not denied by a winter timetable
    assert (
        negation_conflict(
            "The ferry runs every day in summer.", "The ferry does not run on Sundays in winter."
        )
        is None
    )


def test_a_ruling_for_the_other_party() -> None:
    from provgraph.verification.rulings import ruling_conflict

    claim = "The tenants won their case against the landlord."
    found = ruling_conflict(
        claim, "The court ruled in favour of the landlord and dismissed the tenants' claim."
    )
    assert found is not None and found.source_party == "the landlord"
    assert ruling_conflict(claim, "The court ruled in favour of the tenants.") is None
    # the loser's claim dismissed is what "lost" says
    assert (
        ruling_conflict(
            "The landlord lost the case against the tenants.",
            "The judge dismissed the landlord's lawsuit.",
        )
        is None
    )


def test_a_predicate_spoken_of_by_its_noun() -> None:
    from provgraph.verification.predicate import predicate_words

    words = predicate_words("The old mill has been restored.")
    assert words is not None
    from provgraph.verification.predicate import _spoken_share

    assert _spoken_share(words, "The old mill lies in ruins, with no plans for restoration.") == 1


def test_two_plural_objects_are_two_statements() -> None:
    from provgraph.verification.claimsplit import split_statements

    assert split_statements("The author wrote both novels and plays.") == [
        "The author wrote novels.",
        "The author wrote plays.",
    ]
    assert split_statements("She writes and paints.") == ["She writes.", "She paints."]
    assert split_statements("The shop sells both new and used cars.") == [
        "The shop sells both new and used cars."
    ]


def test_an_award_given_to_another_recipient() -> None:
    from provgraph.verification.recipients import recipient_conflict

    claim = "The prize was awarded to Okafor."
    found = recipient_conflict(claim, "The prize went to Lindqvist; Okafor was runner-up.")
    assert found is not None and (found.claim, found.source) == ("Okafor", "Lindqvist")
    # a source that never names the claim's recipient may name it otherwise
    assert recipient_conflict(claim, "The prize went to Lindqvist.") is None
    # a shared award includes the claim's recipient
    assert (
        recipient_conflict(
            "The medal was awarded to Doudna.", "The medal was awarded to Charpentier and Doudna."
        )
        is None
    )


def test_a_destruction_never_undone_ends_the_state() -> None:
    from provgraph.verification.ended_states import ended_state

    claim = "The bridge is still standing."
    assert ended_state(claim, "The bridge collapsed in 1981 and was never rebuilt.") is not None
    assert ended_state(claim, "The bridge collapsed in 1981 and was rebuilt.") is None


def test_a_comparison_in_apposition_to_the_subject() -> None:
    from provgraph.verification.directions import direction_conflict

    claim = "The southern lake is deeper than the northern lake."
    source = "The northern lake reaches 80 metres, more than twice the depth of the southern lake."
    assert direction_conflict(claim, source) is not None
    assert direction_conflict("The northern lake is deeper than the southern lake.", source) is None


def test_a_resignation_is_no_measure_of_a_birth_year() -> None:
    from provgraph.verification.consistency import check_consistency

    source = "The mayor was born in 1961 and studied law."
    result = check_consistency("The mayor resigned in 2020.", source, source)
    assert result.anchored_mismatches == ()


def test_an_article_before_a_unit_is_one() -> None:
    from provgraph.verification.quantities import extract_quantities

    (kilo,) = extract_quantities("The parcel weighs under a kilogram.")
    assert (kilo.kind, kilo.high) == ("mass", 1000.0)
    (mixed,) = extract_quantities("The flight lasts an hour and a half.")
    assert mixed.low < 5400 < mixed.high < 6000
    assert [m.kind for m in extract_quantities("They meet twice a year.")] == ["frequency"]


def test_quieter_is_the_lower_value_and_a_preposition_ends_an_elided_unit() -> None:
    quiet = judge_value_comparisons(
        "The electric model is quieter than the diesel model.",
        "The diesel model runs at 78 decibels, while the electric model runs at 61.",
    )
    assert quiet.agreed == ["quiet comparison"]
    twice = judge_value_comparisons(
        "The new engine is twice as powerful as the old one.",
        "The new engine delivers 400 horsepower, against 200 for the old one.",
    )
    assert twice.agreed and not twice.mismatched


def test_an_adverb_after_a_direction_verb_modifies_no_noun() -> None:
    found = antonym_conflict(
        "The new policy increased waiting times.",
        "Waiting times fell sharply after the new policy was introduced.",
    )
    assert found is not None


def test_a_small_minority_is_a_small_share() -> None:
    from provgraph.verification.proportions import extract_proportions

    (small,) = extract_proportions("Only a small minority of residents opposed the plan.")
    assert small.high <= 25
