"""Session 39's rules, read without models: places known to be two (GeoNames), a
comparison of two groups exchanged, and a state the source says goes on."""

from __future__ import annotations

from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.claimsplit import split_statements
from provgraph.verification.comparatives import comparative_swap, group_comparisons
from provgraph.verification.consistency import check_consistency
from provgraph.verification.ended_states import ended_state, persisting_state
from provgraph.verification.gazetteer import distinct_places, is_known_place
from provgraph.verification.home_places import place_conflict
from provgraph.verification.meaning_conflicts import meaning_conflict
from provgraph.verification.phrasal import plain_cultivation, plain_verbs
from provgraph.verification.place_swaps import place_swap
from provgraph.verification.roles import holder_stems, role_swap
from provgraph.verification.superlatives import superlative_conflict


def test_places_are_two_only_when_known_to_be_two() -> None:
    assert distinct_places("Edinburgh", "Glasgow")
    assert distinct_places("Oxford", "Cambridge")  # every Oxford is far from every Cambridge
    assert distinct_places("France", "Germany")
    assert distinct_places("Texas", "Ohio")
    # one may hold the other, or be near it, or be the other by another name
    assert not distinct_places("London", "England")
    assert not distinct_places("Wembley", "London")
    assert not distinct_places("Brooklyn", "New York City")
    assert not distinct_places("Holland", "Netherlands")
    # a name of two levels (a state and a city), and a name of no known place
    assert not distinct_places("Washington", "Seattle")
    assert not distinct_places("Gotham", "Metropolis")
    assert is_known_place("the United States") and not is_known_place("Gotham")


def test_a_one_place_relation_given_a_known_other_place_conflicts() -> None:
    found = place_conflict(
        "The festival is held in Edinburgh.", "The festival takes place every August in Glasgow."
    )
    assert found is not None and (found.claim, found.source) == ("Edinburgh", "Glasgow")
    # a place that may hold the claim's is left to the model
    assert (
        place_conflict("The singer was born in England.", "The singer was born in London.") is None
    )


def test_a_place_after_the_same_preposition_swapped_for_a_known_other() -> None:
    found = place_swap(
        "Researchers at Oxford University developed the test.",
        "Researchers at Cambridge University developed the test.",
    )
    assert found is not None and (found.claim, found.source) == ("Oxford", "Cambridge")
    assert place_swap("The team flew from Madrid to Oslo.", "The team flew from Madrid to Bergen.")
    # a route's ends are not interchangeable, nor is a place that holds the other
    assert place_swap("The team flew to Madrid.", "The team flew from Barcelona.") is None
    assert place_swap("The firm is based in London.", "The firm is based in England.") is None
    # the source names the claim's place: not this rule's question
    assert place_swap("The band played in Leeds.", "The band played in Leeds and York.") is None
    # a sentence that says something else of the subject is no swap
    assert place_swap("The author lives in Paris.", "The author was translated in Lyon.") is None


def test_a_comparison_of_two_groups_exchanged() -> None:
    claim = "Vitamin D deficiency was more common in women than in men."
    assert group_comparisons(claim) == [("women", "more common", "men")]
    found = comparative_swap(claim, "Vitamin D deficiency was more common in men than in women.")
    assert found is not None
    assert comparative_swap(claim, claim) is None
    assert group_comparisons("Rates were higher among older adults than among teenagers.") == [
        ("older adults", "high", "teenagers")
    ]


def test_an_ending_the_source_says_has_not_happened() -> None:
    found = persisting_state(
        "The road has reopened.", "The road remains closed after the landslide."
    )
    assert found is not None and found.state == "closed" and found.share == 1.0
    assert persisting_state("The minister resigned.", "The minister remains in office.")
    # the state that goes on is another one: it was closed, and remains open
    assert (
        persisting_state(
            "The road reopened in May.", "The road was closed for a month and remains open."
        )
        is None
    )
    assert meaning_conflict("The shop closed in 2019.", "The shop is still open.").found


def test_in_charge_is_an_office() -> None:
    found = ended_state(
        "The coach is still in charge of the team.", "The coach was sacked in October."
    )
    assert found is not None and found.state == "office"


def test_a_capacity_counts_what_its_place_holds() -> None:
    claim = "The stadium seats 50,000 fans."
    other = check_consistency(claim, *["The stadium has a capacity of 35,000."] * 2)
    assert other.anchored_mismatches == ("50,000",)
    same = check_consistency(claim, *["The stadium has a capacity of 50,000."] * 2)
    assert same.agreements == ("50,000",) and not same.anchored_mismatches


def test_a_capital_named_after_its_copula_has_one_holder() -> None:
    claim = "The capital of Australia is Sydney."
    assert superlative_conflict(claim, "The capital of Australia is Canberra.") is not None
    assert superlative_conflict(claim, "Sydney is the capital of Australia.") is None
    # another bound is another capital
    assert (
        superlative_conflict(
            "The capital of Ontario is Toronto.", "Ottawa is the capital of Canada."
        )
        is None
    )
    # a superlative with no noun names no holder of one thing
    assert (
        superlative_conflict(
            "Sydney is the largest in Australia.", "Canberra is the largest in Australia."
        )
        is None
    )


def test_being_at_large_ends_with_an_arrest() -> None:
    found = ended_state("The suspect is still at large.", "The suspect was arrested on Tuesday.")
    assert found is not None and found.state == "at large"


def test_a_passive_activity_stops_with_no_object_of_its_own() -> None:
    claim = "The newspaper is still printed daily."
    found = ended_state(
        claim, "The newspaper stopped printing in 2015 and now appears only online."
    )
    assert found is not None and found.state == "activity"
    # it stopped printing something else: the newspaper itself may still be printed
    assert ended_state(claim, "The newspaper stopped printing its sports section in 2015.") is None


def test_opposites_of_access_and_of_safety() -> None:
    assert antonym_conflict(
        "The new law expanded access to childcare.", "The new law restricted access to childcare."
    )
    assert antonym_conflict("The treatment was safe.", "The treatment caused serious harm.")


def test_a_list_of_places_after_the_verb_may_hold_the() -> None:
    assert split_statements("The drug was approved in Europe and the United States.") == [
        "The drug was approved in Europe.",
        "The drug was approved in the United States.",
    ]


def test_a_passive_transfer_is_read_as_its_active() -> None:
    claim = "The lawsuit was filed by the city against the company."
    found = role_swap(claim, "The company filed the lawsuit against the city.")
    assert found is not None and found.verb == "file … against"
    assert role_swap(claim, "The city filed the lawsuit against the company.") is None


def test_a_name_may_end_a_listed_object() -> None:
    assert split_statements("The actor won an Oscar and two Golden Globes.") == [
        "The actor won an Oscar.",
        "The actor won two Golden Globes.",
    ]
    # one "the" per place of a list after "the"
    assert split_statements("The drug was approved in the UK and the US.") == [
        "The drug was approved in the UK.",
        "The drug was approved in the US.",
    ]
    assert split_statements("He joined the Department of Health and Human Services.") == [
        "He joined the Department of Health and Human Services."
    ]


def test_a_bill_that_passed_was_not_defeated() -> None:
    assert antonym_conflict("The bill passed.", "The bill was defeated in the Senate.")
    assert antonym_conflict(
        "Uniforms are required at the school.", "Uniforms are optional at the school."
    )
    assert antonym_conflict("The striker passed the ball.", "The team lost the match.") is None


def test_a_rare_noun_ends_a_listed_object() -> None:
    assert split_statements("The hospital has 500 beds and a helipad.") == [
        "The hospital has 500 beds.",
        "The hospital has a helipad.",
    ]


def test_a_weekday_before_a_date_keeps_the_date_s_words() -> None:
    claim = "The concert took place on a Saturday in May."
    source = "The concert took place on Saturday, 14 June."
    assert check_consistency(claim, source, source).anchored_mismatches == ("May",)


def test_an_adverb_before_the_verb_is_not_the_subject() -> None:
    assert holder_stems("The factory still employs 500 people.") == {"factori"}
    found = ended_state(
        "The factory still employs 500 people.", "The factory closed down last year."
    )
    assert found is not None and found.share == 1.0


def test_the_one_caught_must_be_the_one_at_large() -> None:
    claim = "The suspect is still at large."
    assert ended_state("The gunman remains at large.", "Police captured the gunman on Friday.")
    assert ended_state(claim, "Police arrested the suspect's brother on Tuesday.") is None
    assert ended_state(claim, "The suspect's brother was arrested on Tuesday.") is None


def test_a_crop_that_is_grown_has_not_grown() -> None:
    assert (
        antonym_conflict("Green tea lowers cholesterol.", "Green tea is grown mainly in China.")
        is None
    )
    assert antonym_conflict("Sales fell.", "Sales have grown strongly.")


def test_retiring_ends_what_one_still_does() -> None:
    found = ended_state(
        "The doctor still practises medicine.", "The doctor retired from practice in 2015."
    )
    assert found is not None and found.event == "retired"
    assert (
        ended_state("The company still makes cameras.", "The company retired its camera line.")
        is None
    )


def test_a_deal_that_fell_through_failed() -> None:
    assert plain_verbs("The deal fell through.") == "The deal failed."


def test_a_cultivated_crop_says_nothing_of_the_claim_s_predicate() -> None:
    assert plain_cultivation("Green tea is grown mainly in China.") == (
        "Green tea is cultivated mainly in China."
    )
    assert plain_cultivation("Sales have grown by 5%.") == "Sales have grown by 5%."
