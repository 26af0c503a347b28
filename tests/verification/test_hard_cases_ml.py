"""Hand-written hard cases through the full default pipeline with the shipped models.

``data/hard_cases.jsonl`` (session 3, 52 cases),
``data/hard_cases_s4.jsonl`` (session 4, 92 more) and
``data/hard_cases_s5.jsonl`` (session 5, 62 more: paraphrased quantities and
dates — comparatives, relative changes, units, proportions, rounding,
quarters and months —, the same-quantity rule and unrelated sources) and
``data/hard_cases_s12.jsonl`` (session 12, 28 more: events the source says were
cancelled, comparisons stated the other way, and the agreeing wordings of both;
the two probes written before ``roles.cancelled_event`` and ``directions.py``) and
``data/hard_cases_s16.jsonl`` (session 16, 11 more: consecutive values in words and
decimals, centuries, speeds in other units, number words joined by "and", a left
office, a death that is not an enactment) and ``data/hard_cases_s17.jsonl`` (session 17,
10 more: ages against ages, counts and durations; two-part claims inside a reporting
frame or after a relative clause; null results stated with a degree word) and
``data/hard_cases_s18.jsonl`` (session 18, 11 more, written after the changes that the
session's two probes in ``bench/data/*_s18.jsonl`` led to: a thing compared with its own
past against a change, null results in other words, a measure or a baseline in a denied
scope, an amount before "more than", verbs of one relation, a shared year in a sentence
about something else, a share of a possessive whole) and ``data/hard_cases_s19.jsonl``
(session 19, 12 more, written after the changes the session's three probes led to: a
superlative or a one-holder role given to another, phrasal opposites, frequencies, ranges
with a scale word, a change re-read in the source's values, comparisons against two
values, places in a ranking, an ending that states a "no longer") and
``data/hard_cases_s25.jsonl`` (session 25, 16 more, written after sessions 24-25's changes:
an event's venue given another place, a cause still under investigation, synonymous verbs
under a negation, a predicate asserted in one clause while its direction word is denied in
another, strict / lenient, "just over / under", "twice as long as", a source silent on the
claim's predicate, "let go of" as "laid off", a fronted "instead of") and
``data/hard_cases_s30.jsonl`` (session 30, 16 more, written after the session's rules:
negation by a prefix, a negated scope ended by an adjunct clause, a fronted "instead of"
before an infinitive, "struck down", a date of the claim's other event, date bounds, a
change's ratio of round numbers) and ``data/hard_cases_s31.jsonl`` (session 31, 16 more,
written after the session's rules: a thing passed the other way between two parties,
converse verbs, a choice "over" another, "did nothing to", "took over as … from", a verb
that is the predicate's own and no ending, the contrapositive reading, comparisons of two
versions by generation and of speed by time taken) and ``data/hard_cases_s32.jsonl``
(session 32, 16 more, written after the session's rules: a claim of proof against "not
established", verbs that move something else as opposites, a comparison with no "than",
factors, "twice daily", "the following year", a ban ending a sale, an unrelated count,
"safe" / "harmful") and ``data/hard_cases_s33.jsonl`` (session 33, 16 more, written after
the session's rules: unrelated sources sharing only a percentage, a year, a length, a
month or an amount, and the same values of the claim's own subject; a paraphrase sharing
no word; ranges in words; "passed away"; a value in another unit) and
``data/hard_cases_s34.jsonl`` (session 34, 16 more, written after the session's rules: a
named object the source never names, a price that is higher, "except", an ending in a
synonymous verb, two dates of one clause, a date of another event, a relative the source
never names, an alternative set aside after a whole noun phrase), each
written before the code changes it measures (s17 and s18: after), balanced per category between
cases that must stay supported and cases that must not: one claim, one source and the verdict a
careful reader would give — paraphrased and scoped negation, antonyms, numbers with
units, rounding and comparatives, dates with months, quarters and ordinals,
entity swaps, changes of state, two-part claims, unrelated sources, plain
paraphrases. Written for this file (not taken from any benchmark), so that a
rule tuned to a dev set cannot pass it by accident.

Each case is verified as ``"<claim> [REF|d_1]"`` against ``{"d_1": source}``
with ``VerificationConfig()`` (every default stage: TF-IDF, embeddings, the
shipped NLI model, consistency, the learned fusion and the verdict policy).

Cases the pipeline gets wrong (the NLI model, or a stated limit of a check)
are marked ``xfail`` with the reason (:data:`KNOWN_MODEL_LIMITS`), strict: a
model that starts getting one right makes the test fail until the mark is
removed, so the list stays honest.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from provgraph.verification import (
    MappingSourceResolver,
    StageModels,
    VerificationConfig,
    verify_text,
)

pytestmark = pytest.mark.ml

CASE_FILES = sorted((Path(__file__).with_name("data")).glob("hard_cases*.jsonl"))
FILE_CASES: dict[str, list[dict[str, Any]]] = {
    path.name: [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    for path in CASE_FILES
}
CASES: list[dict[str, Any]] = [case for cases in FILE_CASES.values() for case in cases]

#: Cases the shipped NLI model gets wrong (measured), with why. Not fixed by
#: sentence-specific rules on purpose: that would pass this file and nothing else.
KNOWN_MODEL_LIMITS: dict[str, str] = {
    "h37-kind-of-dimension": (
        "weak, not unsupported: 'deeper' is no longer judged against two counts of islands "
        "(session 37: a dimension's values must be of its kind), and nothing else reads that "
        "the source is silent on depth; the lexical overlap and NLI (entailment 0.24) keep "
        "the support at 0.50"
    ),
    "h36-nominal": (
        "supported, not contradicted: the focused NLI pass entails 'The castle has been "
        "rebuilt.' from 'remains a ruin, and its reconstruction has never begun' (0.95); the "
        "negation is of 'begun', and 'rebuilt' / 'reconstruction' share no stem, so neither "
        "the negation rule nor the verb's-noun reading (session 36) reaches it"
    ),
    "s31-transfer-sold-other-thing": (
        "weak, not unsupported: the transfer rule rightly reads no swap (another thing sold "
        "the other way), and NLI gives entailment 0.11 / contradiction 0.49 for 'The studio "
        "sold the film rights to the network.' / 'The network sold its old archive footage "
        "to the studio': token overlap keeps the support at 0.41, in the weak band"
    ),
    "s31-contrapositive-other": (
        "supported, not unsupported: 'nobody was warned' denies another thing than the claim's "
        "'No one was killed', so the contrapositive reading is not entailed (it changes "
        "nothing); the polarity reading's positive form is contradicted (0.51) and lifts the "
        "entailment by agreement with the model's own 0.45"
    ),
    "s18-null-other-outcome": (
        "weak, not unsupported: NLI contradiction 0.66 for 'Melatonin improves sleep quality.' "
        "/ 'no association between melatonin and daytime alertness' (no rule fires: the null "
        "result is about another outcome, and the off-predicate reading keeps it from "
        "contradicted), while token overlap keeps the support at 0.40, in the weak band"
    ),
    "para-plain-1": "NLI entailment 0.18 for 'remote workers are more productive' / "
    "'employees working from home get more done': a paraphrase the model misses",
    "para-plain-4": "NLI entailment 0.22 for 'fixes a security flaw' / 'patches a "
    "vulnerability': a paraphrase the model misses",
    # session 4's file
    "neg2-never-supported": (
        "weak, no longer contradicted: the polarity reading discounts NLI's contradiction "
        "0.94 of 'has never charged an entrance fee' (the positive form is contradicted 0.66 "
        "by 'admission has been free'), but the claim's own entailment 0.06 keeps the support "
        "in the weak band"
    ),
    "neg2-without-supported": (
        "weak, no longer contradicted: 'without any opposition votes' vs 'unanimously' — "
        "NLI entailment 0.21, and the positive form is contradicted only 0.45"
    ),
    "num2-other-count-same-number": (
        "NLI entailment 0.97 for '12 public libraries' vs 'libraries lent 12 million books'; "
        "the quantity check marks 12 unconfirmed (a penalty) but does not override NLI"
    ),
    "state2-operating-supported": (
        "NLI contradiction 0.54 for 'still in operation' vs 'continues to produce copper "
        "today': a paraphrase the model misses"
    ),
    "part2-and-second-contradicted": (
        "'free to attend' vs 'tickets cost 40 euros' share no word: the statement's "
        "contradiction counts as unrelated (needs world knowledge), so weak, not contradicted"
    ),
    "para2-quarter-point": (
        "'a quarter of a percentage point' is read as a bare count 0.25, not 0.25 points, so "
        "no agreement to rewrite; NLI entailment 0.14"
    ),
    "para2-laid-off": (
        "NLI contradiction 0.67 for 'cut 300 jobs' vs 'laid off 300 employees': a paraphrase "
        "the model misses"
    ),
    "para2-commercial-failure": (
        "NLI contradiction 0.64 for 'a commercial failure' vs 'lost money at the box "
        "office': a paraphrase the model misses"
    ),
    # session 12's file
    "ev-other-year": (
        "weak, no longer contradicted: '2020' names another edition, so the date check "
        "leaves 2021 unconfirmed (session 13); NLI entailment 0.43 for 'took place in "
        "2021' vs 'The 2020 festival was cancelled' keeps the support in the weak band"
    ),
    "dir-other-comparison": (
        "'costs more to make than it did in 2010' is another comparison (no conflict, "
        "rightly), and NLI reads the shared words as support (entailment 0.49)"
    ),
    # session 5's file
    "same-other-percent-subject": (
        "'Unemployment … is 12%' vs 'Inflation in the country is 12%, while unemployment "
        "stands at 5%': both source values share one word with the claim ('country' / "
        "'unemployment'), a tie the word-overlap anchoring cannot break without a parser; "
        "NLI entailment 0.96"
    ),
    "same-number-other-thing": (
        "'95% effective' vs '95% of the staff had received the vaccine': an unanchored value "
        "that overlaps counts as agreeing (by design: windows often share no word with the "
        "claim), and NLI entailment 0.53 makes it supported"
    ),
    # session 14's file
    "s14-other-fact-count": (
        "supported, no longer contradicted: the source's 40 states the claim's own 40, so "
        "'more than 300 gyms worldwide' is unconfirmed (a penalty), but NLI entails the "
        "two-part claim 0.70 from its first part"
    ),
    "s14-never-ended": (
        "'has never stopped its Jersey route and sails there daily' against 'no longer sails "
        "to Jersey': the negation check finds the source's own negation over the same words "
        "(a double negative it cannot resolve) and NLI entails 0.93"
    ),
    # session 20's file
    "s20-bridged-year": (
        "unsupported, no longer contradicted: 'opened in 1950' against 'closed in 2000 after "
        "fifty years of production' — the source states the fifty years between the two "
        "years, so 1950 is unverified, not a mismatch; NLI contradiction 0.94 (it cannot "
        "subtract) keeps the support below the weak band"
    ),
    # session 17's file
    "s17-null-degree-minor": (
        "supported at 0.500 with NLI contradiction 0.70 and entailment 0.24: 'a minor role' "
        "against 'no evidence of a substantial role'; the lexical and embedding stages, near "
        "a copy of the source, carry the fused score over the line"
    ),
    # session 29's file
    "s29-price-cheaper": (
        "supported at 0.44: 'Train travel became cheaper' is read as 'travel fell', and the "
        "opposite 'fares went up' is said of fares, not of the claim's subject (travel), so "
        "the antonym rule does not compare them; the model reads the pair as agreement"
    ),
    "s29-rank-followed": (
        "supported: 'the region's largest crop by area' is bounded by 'area', which the "
        "ranking sentence ('covers the most farmland …, followed by maize') never names; a "
        "measure the source words otherwise is not matched, so the ranking is not compared"
    ),
    # session 33's file
    "s33-unrelated-shared-percent": (
        "supported, not unsupported: the airline's fares share only the quarter and the 6% "
        "with 'Exports grew by 6% in the second quarter', but the embedding cosine is 0.52, "
        "above the meaning bound (0.5) that keeps paraphrases sharing only a value related "
        "(verdicts.shares_only_values), and NLI entails the pair 0.76"
    ),
    "s33-no-shared-word-ok": (
        "unsupported, not supported: 'The origin of the blaze remains a mystery' says "
        "'unable to find the cause' in no shared word; NLI gives entailment below 0.3 and "
        "the embedding stage does not lift it"
    ),
    # session 30's file
    "s30-prefix-double": (
        "weak at 0.46: 'not infeasible' asserts 'feasible', and the prefix rule rightly finds "
        "no conflict in a negated prefix, but nothing lifts support: NLI reads the double "
        "negation as entailment 0.18 / contradiction 0.38"
    ),
}


@pytest.fixture(scope="module")
def models() -> StageModels:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("transformers")
    from provgraph.verification.embeddings import EmbeddingEncoder
    from provgraph.verification.nli import load_nli

    return StageModels(encoder=EmbeddingEncoder(), nli_model=load_nli(None))


def _params() -> list[Any]:
    out = []
    for case in CASES:
        reason = KNOWN_MODEL_LIMITS.get(case["id"])
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        out.append(pytest.param(case, id=case["id"], marks=marks))
    return out


def test_cases_are_well_formed() -> None:
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)) and set(FILE_CASES) == {
        "hard_cases.jsonl",
        "hard_cases_s4.jsonl",
        "hard_cases_s5.jsonl",
        "hard_cases_s12.jsonl",
        "hard_cases_s13.jsonl",
        "hard_cases_s14.jsonl",
        "hard_cases_s16.jsonl",
        "hard_cases_s17.jsonl",
        "hard_cases_s18.jsonl",
        "hard_cases_s19.jsonl",
        "hard_cases_s20.jsonl",
        "hard_cases_s21.jsonl",
        "hard_cases_s22.jsonl",
        "hard_cases_s23.jsonl",
        "hard_cases_s25.jsonl",
        "hard_cases_s26.jsonl",
        "hard_cases_s27.jsonl",
        "hard_cases_s28.jsonl",
        "hard_cases_s29.jsonl",
        "hard_cases_s30.jsonl",
        "hard_cases_s31.jsonl",
        "hard_cases_s32.jsonl",
        "hard_cases_s33.jsonl",
        "hard_cases_s34.jsonl",
        "hard_cases_s36.jsonl",
        "hard_cases_s37.jsonl",
        "hard_cases_s38.jsonl",
        "hard_cases_s39.jsonl",
        "hard_cases_s40.jsonl",
        "hard_cases_s41.jsonl",
    }
    sizes = [len(FILE_CASES[name]) for name in sorted(FILE_CASES)]
    assert sizes == [
        52, 28, 16, 10, 11, 10, 11, 12, 14, 14, 31, 24, 16, 15, 16, 16, 16, 16, 16, 16, 16, 16, 15,
        14, 14, 17, 92, 18, 13, 62,
    ]  # fmt: skip
    verdicts = {"supported", "unsupported", "contradicted", "weak"}
    assert all(c["expected"] in verdicts and c["claim"] and c["source"] for c in CASES)
    assert set(KNOWN_MODEL_LIMITS) <= set(ids)
    # sessions 4 and 5: every category of a check has cases that must stay
    # supported and cases that must not (paraphrase / unrelated are one-sided by definition;
    # session 12's categories are the sides themselves: cancelled / agrees, opposite / same)
    for name in ("hard_cases_s4.jsonl", "hard_cases_s5.jsonl"):
        cases = FILE_CASES[name]
        for category in {c["category"] for c in cases} - {"unrelated", "paraphrase"}:
            expected = {c["expected"] for c in cases if c["category"] == category}
            assert "supported" in expected and expected - {"supported"}, (name, category)
    # issue 14's target is 90% passing. This floor guards against regressions
    # until a better NLI model lifts it (measured: docs/verification.md).
    for cases in FILE_CASES.values():
        known = sum(c["id"] in KNOWN_MODEL_LIMITS for c in cases)
        assert len(cases) - known >= 0.8 * len(cases)


@pytest.mark.parametrize("case", _params())
def test_hard_case(case: dict[str, Any], models: StageModels) -> None:
    report = verify_text(
        f"{case['claim']} [REF|d_1]",
        MappingSourceResolver({"d_1": case["source"]}),
        VerificationConfig(),
        models=models,
    )
    check = report.checks[0]
    scores = {n: s.raw for n, s in check.scores.items() if n in ("nli", "consistency")}
    assert check.verdict.value == case["expected"], (
        f"{case['id']}: {check.verdict.value} (support {check.support_score}, "
        f"contradiction {check.contradiction_score}) {scores}"
    )


def test_demo_session_verdicts_with_the_default_pipeline(models: StageModels) -> None:
    """`make demo`'s citations, each verdict as a careful reader would give it."""
    from provgraph.events import Event
    from provgraph.store.memory import MemoryGraphStore
    from provgraph.verification import verify_output

    demo = Path(__file__).resolve().parents[2] / "provgraph" / "examples" / "demo_session.jsonl"
    store = MemoryGraphStore()
    lines = demo.read_text(encoding="utf-8").splitlines()
    store.ingest("demo", [Event.model_validate_json(line) for line in lines if line])
    report = verify_output(store, "demo", "coord-output", VerificationConfig(), models=models)
    verdicts = {(c.tag_index, c.key): c.verdict.value for c in report.checks}
    assert verdicts == {
        (0, "d_1"): "supported",  # revenue 12% to $4.2 billion
        (1, "d_1"): "supported",  # online channel, 41% of sales
        (1, "d_2"): "unsupported",  # the buyer survey says nothing about it
        (2, "d_2"): "supported",  # "most … rather than price" vs 63% / 22%
        (3, "a_3"): "supported",  # "rather than" vs ", not": the same statement
        (4, "d_4"): "contradicted",  # founded 1995 in Amsterdam vs 1987 in Rotterdam
        (6, "a_5"): "supported",  # CEO steps down in June 2026, Lindqvist succeeds
    }
    assert report.unresolvable_keys == ["d_9"]


def _yearly_report() -> str:
    """A long source of near-identical sentences that differ only in year and figures."""
    lines = [
        f"In {year} the cooperative shipped {tons:,} tonnes of coffee to {n} ports."
        for year, tons, n in zip(
            range(2008, 2024),
            (
                1200,
                1350,
                1410,
                1530,
                1620,
                1790,
                1850,
                1990,
                2110,
                2230,
                2380,
                2450,
                2600,
                2710,
                2890,
                3020,
            ),
            (4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12),
            strict=True,
        )
    ]
    return " ".join(lines)


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("In 2016 the cooperative shipped 2,110 tonnes of coffee to 8 ports.", "supported"),
        # 2,890 is the 2021 figure, stated beside the claim's words in another
        # sentence: the "stated elsewhere" rescue must not count a sentence
        # anchored to another year
        ("In 2016 the cooperative shipped 2,890 tonnes of coffee to 8 ports.", "contradicted"),
    ],
)
def test_a_quoted_sentence_is_read_where_it_is_quoted(
    claim: str, expected: str, models: StageModels
) -> None:
    """Siblings that differ only in figures must not stand in for the quoted sentence.

    The embedding ranking puts a sibling sentence first on such a source; the
    NLI read there and called the quote a contradiction (issue 14, the speed
    benchmark's copied claims).
    """
    report = verify_text(
        f"{claim} [REF|d_1]",
        MappingSourceResolver({"d_1": _yearly_report()}),
        VerificationConfig(),
        models=models,
    )
    check = report.checks[0]
    assert check.verdict.value == expected, (check.support_score, check.contradiction_score)
    assert check.evidence is not None and "2016" in check.evidence.text
