"""Session 20's consistency readings: a figure paired with another period in the same
sentence, counted-noun synonyms, comparisons read off a change's two values, and the
opposites and "too … to" negations added to the lexicons."""

from __future__ import annotations

import pytest

from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.changes import extract_changes
from provgraph.verification.consistency import check_consistency
from provgraph.verification.measures import same_counted_noun
from provgraph.verification.negation import negated_scopes
from provgraph.verification.quantities import read_quantities
from provgraph.verification.stated import years_around
from provgraph.verification.value_comparisons import judge_value_comparisons
from provgraph.verification.wordsets import stem


def test_a_clause_has_the_years_it_names_else_its_sentences() -> None:
    text = "Average rent rose 8% in 2021, while 2022 saw a 2% fall. Costs were flat."
    assert years_around(text, text.index("8%"), text.index("8%") + 2) == {"2021"}
    assert years_around(text, text.index("2%"), text.index("2%") + 2) == {"2022"}
    plain = "In 2021 revenue grew 8%, while costs fell 2%."
    assert years_around(plain, plain.index("2%"), plain.index("2%") + 2) == {"2021"}


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Average rent in the city rose 8% in 2022.",
            "Average rent in the city rose 8% in 2021, while 2022 saw a 2% fall.",
        ),
        (
            "Exports grew 5% in 2019.",
            "Exports grew 5% in 2018, compared with 1% in 2019.",
        ),
    ],
)
def test_a_figure_the_sentence_gives_another_year_contradicts(claim: str, source: str) -> None:
    result = check_consistency(claim, source, source)
    assert result.anchored_mismatches, result


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the claim's year is named in another sentence only: a change's baseline year
        (
            "Acme's revenue grew 12% in 2023 to $4.5 billion.",
            "Acme annual report 2023. Revenue increased to $4.5 billion from $4.0 billion "
            "in 2022, an increase of 12.5%.",
        ),
        # the figure is given for both years
        (
            "Average rent rose 8% in 2022.",
            "Average rent rose 8% in 2021 and again by 8% in 2022.",
        ),
    ],
)
def test_a_figure_not_paired_with_another_year_stands(claim: str, source: str) -> None:
    result = check_consistency(claim, source, source)
    assert result.anchored_mismatches == (), result


def test_counted_noun_synonyms_count_the_same_things() -> None:
    assert same_counted_noun(frozenset({stem("books")}), frozenset({stem("volumes")}))
    assert same_counted_noun(frozenset({stem("films")}), frozenset({stem("movies")}))
    assert not same_counted_noun(frozenset({stem("books")}), frozenset({stem("films")}))
    result = check_consistency(
        "The library holds 2 million books.",
        "The library holds about 600,000 volumes.",
        "The library holds about 600,000 volumes.",
    )
    assert "2 million" in result.anchored_mismatches, result


@pytest.mark.parametrize(
    ("claim", "mismatched"),
    [
        ("The team's new stadium is smaller than the old one.", True),
        ("The team's new stadium is larger than the old one.", False),
    ],
)
def test_a_comparison_is_judged_on_a_changes_two_values(claim: str, mismatched: bool) -> None:
    window = "The new stadium seats 62,000 fans, up from 45,000 at the old ground."
    judged = judge_value_comparisons(claim, window)
    assert bool(judged.mismatched) is mismatched
    assert bool(judged.agreed) is not mismatched


@pytest.mark.parametrize(
    ("claim", "source", "pair"),
    [
        (
            "The court upheld the lower court's ruling.",
            "The Supreme Court overturned the lower court's ruling in a 6-3 decision.",
            ("uphold", "overtur"),  # the irregular form read as its verb (session 21)
        ),
        (
            "The river's water level was unusually low in August.",
            "In August the river reached its highest level in a decade.",
            ("low", "high"),  # the superlative read as its adjective ("rose" is a pair too)
        ),
    ],
)
def test_added_opposites(claim: str, source: str, pair: tuple[str, str]) -> None:
    found = antonym_conflict(claim, source)
    assert found is not None
    assert (found.claim_word, found.source_word) == pair


def test_a_superlative_is_not_opposed_by_a_comparative() -> None:
    # "higher than in July" does not say the level was not low: only the superlative pairs
    assert (
        antonym_conflict(
            "The river's water level was low in August.",
            "In August the river's water level was higher than in July.",
        )
        is None
    )


def test_too_small_to_is_a_negation() -> None:
    scopes = negated_scopes("The trial was too small to show any effect on stroke.")
    assert scopes and scopes[0][0] == "too small to"
    assert "effect" in scopes[0][1]
    assert negated_scopes("The trial was too large for the room.") == []


def test_a_year_moved_by_a_stated_duration_is_unverified_not_contradicted() -> None:
    source = "The museum, which reopened in 2023 after a three-year renovation, houses 5,000 works."
    bridged = check_consistency("The museum closed for renovation in 2020.", source, source)
    assert bridged.anchored_mismatches == () and "2020" in bridged.year_mismatches
    other = check_consistency("The museum closed for renovation in 2016.", source, source)
    assert "2016" in other.anchored_mismatches


def test_an_opposite_in_another_sentence_about_the_claims_subject() -> None:
    window = (
        "Third-quarter revenue rose 8% year over year to $1.2 billion, the company said. "
        "Net income fell to $140 million."
    )
    found = antonym_conflict("Net income rose in the third quarter.", window)
    assert found is not None
    # a sentence stating the claim's word of that subject too: no conflict
    both = window + " Net income rose in the third quarter, after a weak start."
    assert antonym_conflict("Net income rose in the third quarter.", both) is None
    # the other sentence is not about the claim's subject
    assert antonym_conflict("Revenue rose in the third quarter.", window) is None


def test_ruled_out_is_a_negation() -> None:
    source = (
        "The chief executive ruled out job cuts, saying the company would instead freeze hiring."
    )
    assert negated_scopes(source)[0][0] == "ruled out"
    assert check_consistency(
        "The company announced it would cut 500 jobs.", source, source
    ).negation_mismatch


def test_a_comparison_read_from_values_followed_by_their_sides() -> None:
    window = (
        "Heart attacks occurred in 31 patients in the treatment group and 58 in the placebo group."
    )
    fewer = judge_value_comparisons(
        "The treatment group had fewer heart attacks than the placebo group.", window
    )
    assert fewer.agreed and not fewer.mismatched
    more = judge_value_comparisons(
        "The treatment group had more heart attacks than the placebo group.", window
    )
    assert more.mismatched and not more.agreed
    result = check_consistency(
        "The treatment group had fewer heart attacks than the placebo group.", window, window
    )
    assert result.values_paraphrased


@pytest.mark.parametrize(
    ("text", "surface", "seconds"),
    [
        ("The flight time is 2 hours 25 minutes.", "2 hours 25 minutes", 8700.0),
        ("The baby weighed 3 kg 200 g.", "3 kg 200 g", None),
    ],
)
def test_a_value_in_two_units_is_read_as_their_sum(
    text: str, surface: str, seconds: float | None
) -> None:
    mentions = read_quantities(text).mentions
    assert [m.surface for m in mentions] == [surface]
    if seconds is not None:
        assert mentions[0].low <= seconds <= mentions[0].high


def test_a_list_in_one_unit_stays_a_list() -> None:
    mentions = read_quantities("The runs were 5 km, 3 km and 1 km.").mentions
    assert [m.surface for m in mentions] == ["5 km", "3 km", "1 km"]


def test_a_compound_duration_agrees_with_its_paraphrase() -> None:
    source = "The flight time is 2 hours 25 minutes."
    result = check_consistency("The flight takes about two and a half hours.", source, source)
    assert result.anchored_mismatches == () and result.agreement == 1.0


def test_an_approximate_fraction_is_a_change() -> None:
    (change,) = extract_changes("The population fell by about a tenth.")
    assert change.low <= 47_000 / 52_000 <= change.high
