"""Session 33's rules, as pure text and signals: a source that shares nothing with the
claim but its values is unrelated (:mod:`provgraph.verification.topic_words`, the
verdict policy's :func:`~provgraph.verification.verdicts.shares_only_values`), a range
whose lower end is a bare number word ("between five and seven years") is one value, and
"passed away" is no place opposed to "home", and a source stating a claim's cause and
effect exchanged neither supports nor refutes it. The shipped models on such pairs are in
``data/hard_cases_s33.jsonl``.
"""

from __future__ import annotations

import pytest

from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.causal_swaps import reversed_cause
from provgraph.verification.quantities import extract_quantities
from provgraph.verification.signals import Signals
from provgraph.verification.topic_words import shares_a_value, topic_share, topic_stems
from provgraph.verification.verdicts import (
    SILENT_PREDICATE_SUPPORT,
    FusionWeights,
    Thresholds,
    Verdict,
    decide,
    fuse,
    shares_only_values,
)
from provgraph.verification.wordsets import stem

YEAR_SECONDS = 31_557_600  # the quantity reader's year (365.25 days)


def test_a_claims_topic_leaves_out_its_values_units_and_times() -> None:
    topic = topic_stems("The airline carried 3 million passengers last year.")
    # a count's noun goes with the count (session 34: "The protest drew 20,000 people." /
    # "The stadium can hold 20,000 people." share no topic)
    assert topic == {stem("airline"), stem("carried")}
    assert topic_stems("The protest drew 20,000 people.") == {stem("protest"), stem("drew")}
    # the unit goes with the value it belongs to, the dimension word with it
    assert topic_stems("The marathon route is 42 kilometres long.") == {
        stem("marathon"),
        stem("route"),
    }
    # a noun that is also a stop word is a topic ("mine")
    assert stem("mine") in topic_stems("The mine is still operating.")


@pytest.mark.parametrize(
    ("claim", "source", "share", "value"),
    [
        # nothing in common but the values: the coincidence the gate is for
        (
            "The airline carried 3 million passengers last year.",
            "The zoo welcomed 1.2 million visitors last year.",
            0.0,
            True,
        ),
        (
            "Unemployment fell to 4% in March.",
            "The bakery raised bread prices by 4% in March.",
            0.0,
            True,
        ),
        # nothing in common at all: a paraphrase or silence, not a coincidence of values
        (
            "Researchers were unable to replicate the result.",
            "The team successfully reproduced the original finding in two separate labs.",
            0.0,
            False,
        ),
        # the subject is shared
        (
            "The mine is still operating.",
            "The mine closed in 2015 after the seam ran out.",
            0.5,
            False,
        ),
    ],
)
def test_topic_share_and_shared_values(claim: str, source: str, share: float, value: bool) -> None:
    assert topic_share(claim, source) == pytest.approx(share)
    assert shares_a_value(claim, source) is value


def test_digits_in_a_name_are_no_value() -> None:
    assert not shares_a_value("5G networks spread the virus.", "The 5G rollout began in 2019.")
    assert topic_share("In 2020.", "In 2020.") is None  # all values: nothing to tell by


def _values_only(**overrides: object) -> Signals:
    base: dict[str, object] = {
        "tfidf": 0.3,
        "recall": 0.5,
        "embedding": 0.42,
        "nli_entailment": 0.93,
        "nli_contradiction": 0.05,
        "nli_max_contradiction": 0.05,
        "consistency_penalty": 0.0,
        "topic_share": 0.0,
        "shares_a_value": True,
    }
    base.update(overrides)
    return Signals(**base)  # type: ignore[arg-type]


def test_a_source_sharing_only_values_is_unsupported_even_against_a_value_conflict() -> None:
    assert shares_only_values(_values_only())
    verdict, _ = decide(0.77, 0.0, Thresholds(), has_text=True, signals=_values_only())
    assert verdict is Verdict.UNSUPPORTED
    anchored = _values_only(consistency_anchored=True)
    verdict, _ = decide(0.2, 0.8, Thresholds(), has_text=True, signals=anchored)
    assert verdict is Verdict.UNSUPPORTED


@pytest.mark.parametrize(
    "overrides",
    [
        {"embedding": 0.55},  # close in meaning: the topic said in other words
        {"consistency_rewritten": True},  # a value confirmed in another unit
        {"shares_a_value": False},  # nothing shared at all: a paraphrase or silence
        {"topic_share": 0.25},  # a topic word is shared
        {"topic_share": None},  # the claim is all values
    ],
)
def test_what_keeps_a_source_related(overrides: dict[str, object]) -> None:
    assert not shares_only_values(_values_only(**overrides))


def test_a_range_whose_lower_end_is_a_number_word_is_one_value() -> None:
    (value,) = extract_quantities("The bridge took between five and seven years to build.")
    assert value.kind == "time"
    assert (value.low, value.high) == pytest.approx((5 * YEAR_SECONDS, 7 * YEAR_SECONDS))
    (to,) = extract_quantities("Seedlings appear in ten to fourteen days.")
    assert (to.low, to.high) == pytest.approx((10 * 86_400, 14 * 86_400))


@pytest.mark.parametrize(
    "text",
    [
        "A crew of five and seven passengers.",  # "and" joins a range only after "between"
        "He was five and she was 7 years old.",  # not adjacent
    ],
)
def test_two_values_stay_two(text: str) -> None:
    assert len(extract_quantities(text)) == 2


def test_passed_away_is_no_place_opposed_to_home() -> None:
    assert (
        antonym_conflict("The singer passed away in 2016.", "She died in 2016 at her home.") is None
    )


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("Poor sleep causes depression.", "Depression often causes poor sleep."),
        ("Migraines trigger stress.", "Migraines are often triggered by stress."),
        (
            "High blood pressure causes kidney damage.",
            "Kidney disease can cause high blood pressure.",
        ),
    ],
)
def test_a_cause_and_effect_exchanged_is_read(claim: str, window: str) -> None:
    assert reversed_cause(claim, window) == window


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the passive states the claim's own direction
        ("Smoking causes lung cancer.", "Lung cancer is caused by smoking in most cases."),
        # both directions stated: the claim's is among them
        (
            "Obesity leads to diabetes.",
            "Diabetes can lead to weight gain, and obesity leads to diabetes.",
        ),
        # a negated relation is not read
        ("Smoking causes lung cancer.", "Lung cancer does not cause smoking."),
        # another effect
        ("Stress triggers migraines.", "Migraines can trigger anxiety in patients."),
    ],
)
def test_what_is_no_exchange(claim: str, window: str) -> None:
    assert reversed_cause(claim, window) is None


def test_a_reversed_cause_is_unsupported_and_its_support_capped() -> None:
    reversed_ = _values_only(topic_share=1.0, shares_a_value=False, consistency_reversed=True)
    verdict, _ = decide(0.91, 0.0, Thresholds(), has_text=True, signals=reversed_)
    assert verdict is Verdict.UNSUPPORTED
    support, _ = fuse(reversed_, FusionWeights())
    assert support is not None and support <= SILENT_PREDICATE_SUPPORT
    assert fuse(_values_only(), FusionWeights())[0] == pytest.approx(SILENT_PREDICATE_SUPPORT)
