"""The verdict policy's relatedness and paraphrased-value rules (pure functions, no model)."""

from __future__ import annotations

from provgraph.verification.verdicts import (
    MEANING_FLOOR,
    RELATED_FLOOR,
    FusionWeights,
    Signals,
    Thresholds,
    Verdict,
    decide,
    fuse,
)

T = Thresholds()
UNRELATED = {"tfidf": 0.02, "recall": 0.1, "embedding": RELATED_FLOOR - 0.15}
RELATED = {"tfidf": 0.4, "recall": 0.8, "embedding": 0.7}


def test_an_unrelated_source_is_unsupported_even_when_nli_contradicts() -> None:
    signals = Signals(**UNRELATED, nli_entailment=0.02, nli_contradiction=0.95)
    verdict, _ = decide(0.1, 0.9, T, has_text=True, signals=signals)
    assert verdict == Verdict.UNSUPPORTED


def test_an_unrelated_source_is_unsupported_even_when_nli_entails() -> None:
    signals = Signals(**UNRELATED, nli_entailment=0.93, nli_contradiction=0.02)
    verdict, _ = decide(0.75, 0.02, T, has_text=True, signals=signals)
    assert verdict == Verdict.UNSUPPORTED


def test_an_explicit_conflict_is_evidence_of_relatedness() -> None:
    signals = Signals(**UNRELATED, consistency_anchored=True)
    verdict, _ = decide(0.2, 0.8, T, has_text=True, signals=signals)
    assert verdict == Verdict.CONTRADICTED


def test_a_related_source_with_high_contradiction_is_contradicted() -> None:
    signals = Signals(**RELATED, nli_entailment=0.05, nli_contradiction=0.9)
    verdict, _ = decide(0.2, 0.85, T, has_text=True, signals=signals)
    assert verdict == Verdict.CONTRADICTED


def test_nli_alone_does_not_contradict_confirmed_rewritten_values() -> None:
    signals = Signals(
        **RELATED,
        nli_entailment=0.08,
        nli_contradiction=0.88,
        consistency_agreement=1.0,
        consistency_paraphrased=True,
    )
    verdict, _ = decide(0.36, 0.81, T, has_text=True, signals=signals)
    assert verdict == Verdict.SUPPORTED  # confirmed values lift a weak support
    split = Signals(**{**signals.__dict__, "claim_statements": 2})
    verdict, _ = decide(0.36, 0.81, T, has_text=True, signals=split)
    assert verdict == Verdict.CONTRADICTED  # the values say nothing of the other statement


def test_a_conflict_still_contradicts_when_values_were_rewritten() -> None:
    signals = Signals(
        **RELATED,
        consistency_paraphrased=True,
        consistency_negation=True,
        consistency_agreement=1.0,
    )
    verdict, _ = decide(0.3, 0.8, T, has_text=True, signals=signals)
    assert verdict == Verdict.CONTRADICTED


def test_a_conflict_is_as_relevant_as_the_share_of_the_claim_its_sentence_speaks_of() -> None:
    # "Exports rose last year." / "Exports fell sharply last year as demand weakened.":
    # a short claim's lexical scores are low exactly because its one changed word is
    # the conflict; the conflicting sentence holds every other word of the claim
    short = {"tfidf": 0.2, "recall": 0.5, "embedding": 0.45}
    weights = FusionWeights(method="weighted")
    without = Signals(**short, consistency_negation=True, consistency_penalty=0.3)
    with_share = Signals(**{**without.__dict__, "consistency_conflict_share": 1.0})
    _s, before = fuse(without, weights)
    _s, after = fuse(with_share, weights)
    assert before < T.contradicted <= after
    assert after == weights.negation_contradiction
    # a share below the lexical relevance never lowers it
    _s, low = fuse(Signals(**{**without.__dict__, "consistency_conflict_share": 0.0}), weights)
    assert low == before


def test_a_claim_with_a_part_missing_from_the_evidence_is_not_supported_at_all() -> None:
    # "Exports rose by 4%, while imports fell by 2%." / a source about exports only
    missing = Signals(
        **RELATED, nli_entailment=0.2, claim_statements=2, nli_weakest_entailment=0.05
    )
    assert decide(0.4, 0.1, T, has_text=True, signals=missing)[0] == Verdict.UNSUPPORTED
    # both parts somewhat in the evidence: weak, as before
    thin = Signals(**RELATED, nli_entailment=0.3, claim_statements=2, nli_weakest_entailment=0.3)
    assert decide(0.4, 0.1, T, has_text=True, signals=thin)[0] == Verdict.WEAK
    # nor does a fused support above the threshold decide: the whole claim's overlap and
    # reading lift it ("serves breakfast and dinner" / "serves breakfast from 7 am", 0.56)
    assert decide(0.6, 0.1, T, has_text=True, signals=missing)[0] == Verdict.UNSUPPORTED
    assert decide(0.6, 0.1, T, has_text=True, signals=thin)[0] == Verdict.SUPPORTED
    # one statement: the rule does not apply
    whole = Signals(**RELATED, nli_entailment=0.05)
    assert decide(0.4, 0.1, T, has_text=True, signals=whole)[0] == Verdict.WEAK


def test_confirmed_values_lift_only_a_source_related_in_meaning() -> None:
    """A shared year in a sentence about something else ("The river flooded the town in
    1952." / "The town's bakery has been run by the same family since 1952") is no
    evidence of the claim's event: the lift needs an embedding cosine at the floor."""
    confirmed = {"tfidf": 0.28, "recall": 0.5, "consistency_agreement": 1.0}
    far = Signals(**confirmed, embedding=RELATED_FLOOR - 0.2, nli_entailment=0.2)
    verdict, _ = decide(0.39, 0.2, T, has_text=True, signals=far)
    assert verdict == Verdict.WEAK
    near = Signals(**{**far.__dict__, "embedding": RELATED_FLOOR + 0.1})
    verdict, _ = decide(0.39, 0.2, T, has_text=True, signals=near)
    assert verdict == Verdict.SUPPORTED


def test_shared_words_do_not_make_a_source_far_in_meaning_related() -> None:
    """Recall 0.5 from a shared place and year, cosine below the meaning floor: unrelated,
    so at worst unsupported — but an explicit conflict still counts as relatedness."""
    far = Signals(tfidf=0.28, recall=0.5, embedding=MEANING_FLOOR - 0.04, nli_entailment=0.16)
    verdict, _ = decide(0.39, 0.4, T, has_text=True, signals=far)
    assert verdict == Verdict.UNSUPPORTED
    near = Signals(**{**far.__dict__, "embedding": MEANING_FLOOR + 0.05})
    verdict, _ = decide(0.39, 0.4, T, has_text=True, signals=near)
    assert verdict == Verdict.WEAK
    conflict = Signals(**{**far.__dict__, "consistency_anchored": True})
    verdict, _ = decide(0.2, 0.8, T, has_text=True, signals=conflict)
    assert verdict == Verdict.CONTRADICTED
