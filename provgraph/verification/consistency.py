"""Consistency stage: quantities, dates and negation that embeddings and NLI miss.

Cosine similarity rates "founded in 1457" against "established in 1603" as
close, and NLI models are unreliable on numbers. This stage compares the
claim's values and negations with its evidence window:

* quantities (:mod:`~provgraph.verification.quantities`) and dates
  (:mod:`~provgraph.verification.dates`) are intervals of a kind; each claim
  value is compared with the window's values of the same kind that are
  attached to the same words (:mod:`~provgraph.verification.slots`):

  - ``mismatch`` (same fact, disjoint values — "founded in 1995" vs
    "founded in 1987", "March 2024" vs "May 2024", "at least 30" vs "12") is
    the contradiction signal, reported as ``anchored_mismatches``;
  - ``unverified`` (the window has values of that kind, none about the same
    subject, and the value occurs nowhere in the source) is a weak *not
    supported* signal, never a contradiction;
  - paraphrased values agree ("7%" / "seven percent", "$1.5 million" /
    "1,500 thousand dollars", "more than 80" / 95, "most" / 63%);
  - a claim comparison or ratio is judged against two source values
    (:mod:`~provgraph.verification.value_comparisons`: "cheaper than" / "$12 … $30");
  - a claim date the window gives to another event than the claim's verb is a
    mismatch (:mod:`~provgraph.verification.event_dates`: "opened in 2015" /
    "began in 2015 … opened in 2018");

* conflicts of meaning (:mod:`~provgraph.verification.meaning_conflicts`): a
  negated predicate asserted on the other side, opposites, agent and patient or
  a comparison's sides exchanged, an ended state, a cancelled event, a
  comparison stated the other way ("cheaper than" / "costs more than") — one
  conflict signal, ``negation_mismatch``;

* a statement of the claim the window says is not known (:mod:`.unknowns`).

``penalty`` (in [0, 1]) keeps the meaning the fusion was fitted on: 0.8 for a
value the source gives differently, 0.5 for a value the source does not
confirm, plus 0.3 for a negation mismatch. Deterministic and explainable: the
report lists the values and the negated predicate.
"""

from __future__ import annotations

from dataclasses import replace

from provgraph.verification.bridged_dates import bridged_by_duration, spanned_by_dates
from provgraph.verification.causal_swaps import reversed_cause
from provgraph.verification.change_checks import change_sizes, judge_claim_changes, sizes_in
from provgraph.verification.consistency_result import ConsistencyResult
from provgraph.verification.dates import extract_dates, in_year
from provgraph.verification.event_dates import dates_by_event, event_anchor
from provgraph.verification.meaning_conflicts import meaning_conflict
from provgraph.verification.quantities import read_quantities
from provgraph.verification.slots import (
    Mention,
    Outcome,
    compare,
)
from provgraph.verification.speculation import speculated_statement
from provgraph.verification.stated import (
    counts_other_things,
    of_claim_years,
    plain_numbers,
    stated_elsewhere,
    stated_for_other_years,
    years_of,
)
from provgraph.verification.stated_comparisons import judge_stated_comparisons
from provgraph.verification.unknowns import unknown_statement
from provgraph.verification.unstated import might_state
from provgraph.verification.value_comparisons import judge_value_comparisons
from provgraph.verification.wordsets import plain_apostrophes


def _date_views(
    claim_value: Mention, window: list[Mention], *, same_role: bool = True
) -> list[Mention]:
    """Window dates comparable with ``claim_value`` (day-of-year views for a yearless date),
    of its role (``same_role``) or of the other: a time, or a year naming an edition
    ("the 2020 festival" says which thing, not when; see :func:`_compare_date`)."""
    window = [w for w in window if (w.edition == claim_value.edition) == same_role]
    if claim_value.kind == "date":
        return window
    return [v for v in (in_year(w) for w in window) if v is not None]


def _compare_date(value: Mention, window: list[Mention]) -> tuple[Outcome, Mention | None, bool]:
    """``compare`` for a date, editions apart: ``(outcome, deciding value, other_role)``.

    Judged against the window dates of its own role (time or edition); one of the
    other role may still confirm it. ``other_role``: the window dates only things
    of the other role, so the value is unverified even where its digits appear.
    """
    outcome, other = compare(value, _date_views(value, window))
    if outcome == Outcome.AGREE:
        return outcome, other, False
    day = in_year(value) if value.kind == "date" and value.low == value.high else None
    if day is not None:
        # a day, "April 9, 2011", is stated by an anchored "April 9th" whose year the page
        # gives elsewhere (a dateline's "February 22, 2011" is another date); a month is
        # not: "October" alone may be any year's
        yearless = [w for w in window if w.kind == "date-in-year" and w.edition == value.edition]
        on_day, stating = compare(day, yearless)
        if on_day == Outcome.AGREE:
            return on_day, stating, False
    crossed, crossing = compare(value, _date_views(value, window, same_role=False))
    if crossed == Outcome.AGREE:
        return crossed, crossing, False
    if outcome == Outcome.NO_SIGNAL and crossed != Outcome.NO_SIGNAL:
        return Outcome.UNVERIFIED, None, True
    return outcome, other, False


def _outcome(
    value: Mention, window_values: list[Mention], *, dates: bool
) -> tuple[Outcome, Mention | None, bool]:
    """``(outcome, deciding window value, other_role)`` of one claim value, alone."""
    if dates:
        return _compare_date(value, window_values)
    outcome, other = compare(value, window_values)
    return outcome, other, False


def _unless_taken(
    value: Mention,
    against: Mention,
    claim_values: list[Mention],
    outcomes: list[tuple[Outcome, Mention | None, bool]],
    window_values: list[Mention],
    *,
    dates: bool,
    claim: str = "",
) -> tuple[Outcome, Mention | None, bool]:
    """A mismatch, unless the window value it was judged against states another claim value.

    "founded in 2015 and acquired in 2020" against "founded in 2015": 2015 agrees
    with the claim's own 2015, which is more attached to it than 2020 is ("founded"
    on both sides), so it says nothing about 2020. On a tie ("opened in 1990 and
    closed in 1995" against "opened in 1995": one clause, the same words near both)
    the mismatch stands; for dates, the claim's verb of each among the window value's
    words breaks such a tie (:func:`~provgraph.verification.event_dates.event_anchor`,
    ``claim``). The value is then judged against the window's
    other values; with none of its kind left it is *unverified* (other facts'
    values, never a contradiction).
    """
    span = (against.start, against.end)
    own = event_anchor(claim, value, against)
    taken = any(
        other_value is not value
        and outcome == Outcome.AGREE
        and other is not None
        and (other.start, other.end) == span
        and event_anchor(claim, other_value, other) > own
        for other_value, (outcome, other, _role) in zip(claim_values, outcomes, strict=True)
    )
    if not taken:
        return Outcome.MISMATCH, against, False
    rest = [w for w in window_values if (w.start, w.end) != span]
    outcome, other, other_role = _outcome(value, rest, dates=dates)
    if outcome == Outcome.NO_SIGNAL:
        return Outcome.UNVERIFIED, None, True
    return outcome, other, other_role


def _judge(
    claim_values: list[Mention],
    window_values: list[Mention],
    source: str,
    *,
    dates: bool,
    pairs: list[tuple[str, str]],
    years: frozenset[str] = frozenset(),
    unstated: list[Mention] | None = None,
    window: str = "",
    claim: str = "",
) -> tuple[list[str], list[str], list[str], list[str]]:
    """``(mismatched, unverified, agreed, window values that disagreed)`` surfaces.

    Appends ``(claim surface, window surface)`` of agreeing values written
    differently to ``pairs``. ``years``: the claim's years, which anchor its
    quantities (see :func:`_stated_elsewhere`). ``unstated``: also collects the
    values not agreed that nothing could state — digits nowhere in the source, no
    window value that :func:`~provgraph.verification.unstated.might_state` them.
    ``window``: the text ``window_values`` were read from (a year it moves by a
    duration it states is unverified, :mod:`.bridged_dates`). ``claim``: the text of
    ``claim_values``, for the verbs they date (:func:`_unless_taken`).
    """
    mismatched: list[str] = []
    unverified: list[str] = []
    agreed: list[str] = []
    against: list[str] = []
    source_numbers = plain_numbers(source)
    outcomes = [_outcome(value, window_values, dates=dates) for value in claim_values]
    for value, (outcome, other, other_role) in zip(claim_values, outcomes, strict=True):
        candidates = _date_views(value, window_values) if dates else window_values
        if outcome == Outcome.MISMATCH and other is not None:
            outcome, other, other_role = _unless_taken(
                value, other, claim_values, outcomes, window_values, dates=dates, claim=claim
            )
        if (
            outcome == Outcome.MISMATCH
            and other is not None
            and bridged_by_duration(value, other, window)
        ):
            outcome, other, other_role = Outcome.UNVERIFIED, None, True
        stated = outcome == Outcome.MISMATCH and stated_elsewhere(
            value, source, whole=dates, years=years
        )
        if outcome != Outcome.AGREE and not dates and stated_for_other_years(value, source, years):
            outcome, other = Outcome.MISMATCH, None  # another period's figure
        written = plain_numbers(value.surface)
        present = bool(written) and written <= source_numbers
        if outcome == Outcome.AGREE or stated:
            agreed.append(value.surface)
            if outcome == Outcome.AGREE and other is not None and other.surface != value.surface:
                pairs.append((value.surface, other.surface))
            continue
        if outcome == Outcome.MISMATCH:
            mismatched.append(value.surface)
            if other is not None:
                against.append(other.surface)
        elif outcome == Outcome.UNVERIFIED and (
            other_role or not present or counts_other_things(value, source)
        ):
            unverified.append(value.surface)
        if unstated is not None and written and not present and not might_state(value, candidates):
            unstated.append(value)
    return mismatched, unverified, agreed, against


def check_consistency(claim: str, window: str, source: str) -> ConsistencyResult:
    """Compare ``claim`` with its evidence ``window`` (and the whole ``source`` for presence)."""
    if not claim.strip() or not window.strip():
        return ConsistencyResult()
    claim, window, source = map(plain_apostrophes, (claim, window, source))
    claim_dates, window_dates = extract_dates(claim), extract_dates(window)
    claim_read = read_quantities(claim, [(d.start, d.end) for d in claim_dates])
    window_read = read_quantities(window, [(d.start, d.end) for d in window_dates])
    pairs: list[tuple[str, str]] = []
    c_mm, c_ok, claim_quantities = judge_claim_changes(
        claim, window, claim_read, window_read, pairs
    )
    compared = judge_value_comparisons(claim, window)
    words_mm, words_ok = judge_stated_comparisons(
        claim, window, set(compared.agreed + compared.mismatched)
    )  # a comparison the source states in words ("twice as much rain as")
    compared = replace(
        compared, mismatched=compared.mismatched + words_mm, agreed=compared.agreed + words_ok
    )
    claim_quantities = [
        m
        for m in claim_quantities
        if not any(s < m.end and m.start < e for s, e in compared.judged_spans)
    ]
    # a duration the window states as two dates ("took eight years" / "1961 … 1969"),
    # read by the focused pass as "took from 1961 to 1969" (not "a from … to … delay")
    spanned = [(m, ends) for m in claim_quantities if (ends := spanned_by_dates(m, window))]
    claim_quantities = [m for m in claim_quantities if all(m is not s for s, _ in spanned)]
    pairs += [(m.surface, f"from {a} to {b}") for m, (a, b) in spanned if "-" not in m.surface]
    sizes, claim_quantities = change_sizes(claim, claim_quantities)
    derived = compared.agreed + [m.surface for m, _ in spanned]
    claim_years = years_of(claim)
    window_quantities = of_claim_years(window, window_read.mentions, claim_years)
    # a date the window gives to another event than the claim's ("began in 2015 … opened
    # in 2018" for "opened in 2015"), or gives only to the claim's other event
    judged, rebound, undated = dates_by_event(claim, claim_dates, window, window_dates)
    d_unstated: list[Mention] = []
    d_mm, d_unv, d_ok, d_against = _judge(
        judged,
        window_dates,
        source,
        dates=True,
        pairs=pairs,
        unstated=d_unstated,
        window=window,
        claim=claim,
    )
    d_mm += [v.surface for v, _other in rebound]
    d_unv += [v.surface for v in undated]
    d_against += [other.surface for _v, other in rebound]
    q_unstated: list[Mention] = []
    q_mm, q_unv, q_ok, q_against = _judge(
        claim_quantities,
        window_quantities,
        source,
        dates=False,
        pairs=pairs,
        years=claim_years,
        unstated=q_unstated,
    )
    s_mm, _s_unv, s_ok, s_against = _judge(
        sizes, sizes_in(window, window_quantities), source, dates=False, pairs=pairs
    )  # a change's size against the window's sizes only (change_sizes)
    q_mm, q_ok = q_mm + s_mm + c_mm + compared.mismatched, q_ok + s_ok + c_ok + derived
    q_against += s_against
    meaning = meaning_conflict(claim, window)
    details: dict[str, str] = {}
    if d_against or q_against:
        details["values_in_source"] = ", ".join((d_against + q_against)[:10])
    unknown = unknown_statement(claim, window) or speculated_statement(claim, window)
    if unknown is not None:
        details["unknown_in_source"] = unknown
    if (reversed_clause := reversed_cause(claim, window)) is not None:
        details["reversed_in_source"] = reversed_clause
    return ConsistencyResult(
        year_mismatches=tuple(sorted(set(d_mm + d_unv))),
        number_mismatches=tuple(sorted(set(q_mm + q_unv))),
        negation_mismatch=meaning.found,
        anchored_mismatches=tuple(sorted(set(d_mm + q_mm))),
        checked=True,
        details={**meaning.details, **details},
        agreements=tuple(sorted(set(d_ok + q_ok))),
        values_checked=len(claim_dates)
        + len(claim_quantities)
        + len(c_mm + c_ok + s_mm + s_ok)
        + len(compared.mismatched + derived),
        values_agreed=len(d_ok) + len(q_ok),
        quantities_agreed=len(q_ok),
        agreed_values=tuple(pairs),
        agreed_changes=tuple(c_ok),
        agreed_derived=tuple(derived),
        agreed_comparisons=tuple(compared.agreed),
        conflict_share=meaning.share,
        unstated_spans=tuple(sorted((m.start, m.end) for m in q_unstated)),
        unstated_date_spans=tuple(sorted((m.start, m.end) for m in d_unstated)),
        unknown_clause=unknown,
        reversed_clause=reversed_clause,
    )
