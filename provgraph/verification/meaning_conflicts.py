"""The consistency stage's conflicts of meaning, as opposed to values: one finding.

Each rule names a way a source sentence about the claim's subject says the
opposite while sharing its words — the pairs a small NLI model reads as
agreement: a negated predicate (:mod:`.negation`), a null result about what the claim
asserts (:mod:`.null_results`), a pair of opposites
(:mod:`.antonyms`), agent and patient, a comparison's sides or two alternatives exchanged
(:mod:`.roles`, :mod:`.comparatives`, :mod:`.alternatives`), a state ended or an event cancelled
(:mod:`.roles`), a comparison stated the other way (:mod:`.directions`), a thing
compared with its own past against a source change the other way (:mod:`.trends`), a
superlative the source gives another holder (:mod:`.superlatives`), an exclusive
"only X" the source lists with another name (:mod:`.exclusives`), a passive's named
agent the source names otherwise (:mod:`.agents`), a unanimous vote against a divided
tally (:mod:`.votes`), a superlative at another rank (:mod:`.superlative_ranks`), two
events in the order the claim denies (:mod:`.event_order`), an "all" the source limits
(:mod:`.universals`).
Negation and antonyms are checked per statement of a two-part claim ("a larger
screen but a smaller battery"). They all set one signal
(``ConsistencyResult.negation_mismatch``); ``share`` is how much of the claim
the first finding's sentence speaks of (None where a rule does not measure it:
the verdict then uses the pair's relevance).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from provgraph.verification.agents import agent_conflict
from provgraph.verification.alternatives import alternatives_swap
from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.claimsplit import split_statements
from provgraph.verification.comparatives import comparative_swap
from provgraph.verification.directions import direction_conflict
from provgraph.verification.ended_states import ended_state
from provgraph.verification.event_order import order_conflict
from provgraph.verification.exclusives import exclusive_conflict
from provgraph.verification.negation import negation_conflict
from provgraph.verification.null_results import null_result_conflict
from provgraph.verification.roles import cancelled_event, role_swap
from provgraph.verification.superlative_ranks import rank_conflict
from provgraph.verification.superlatives import superlative_conflict
from provgraph.verification.trends import trend_conflict
from provgraph.verification.universals import universal_limit
from provgraph.verification.votes import vote_conflict


@dataclass(frozen=True)
class MeaningConflict:
    """Whether any rule fired, its share, and what each rule found (for the report)."""

    found: bool = False
    share: float | None = None
    details: dict[str, str] = field(default_factory=dict)


def meaning_conflict(claim: str, window: str) -> MeaningConflict:
    """Every meaning rule over ``claim`` and ``window``."""
    statements = split_statements(claim) or [claim]
    negation = next((f for s in statements if (f := negation_conflict(s, window))), None)
    if negation is None:
        negation = null_result_conflict(claim, window)
    antonym = None
    if negation is None:
        antonym = next((a for s in statements if (a := antonym_conflict(s, window))), None)
    swap = (
        role_swap(claim, window)
        or comparative_swap(claim, window)
        or alternatives_swap(claim, window)
    )
    ended = ended_state(claim, window) or cancelled_event(claim, window)
    direction = direction_conflict(claim, window)
    trend = trend_conflict(claim, window)
    superlative = superlative_conflict(claim, window)
    rank = rank_conflict(claim, window)
    order = order_conflict(claim, window)
    limited = universal_limit(claim, window)
    exclusive = exclusive_conflict(claim, window)
    agent = agent_conflict(claim, window)
    vote = vote_conflict(claim, window)
    details: dict[str, str] = {}
    if limited is not None:
        details["universal"] = f"claim: {limited.claim} / source: {limited.limit}"
    if order is not None:
        details["order"] = f"claim: {order.relation} / source: {order.first}, {order.second}"
    if rank is not None:
        details["rank"] = (
            f"{rank.superlative} {rank.noun}: claim rank {rank.claim_rank} / "
            f"source rank {rank.source_rank}"
        )
    if vote is not None:
        details["vote"] = f"unanimous ({vote.unanimous_side}) / tally {vote.tally}"
    if agent is not None:
        details["agent"] = f"claim: {agent.verb} by {agent.claim} / source: by {agent.source}"
    if exclusive is not None:
        details["exclusive"] = f"claim: only {exclusive.name} / source: also {exclusive.other}"
    if superlative is not None:
        details["superlative"] = (
            f"claim: {superlative.claim.holder} / source: {superlative.source.holder} "
            f"({superlative.source.superlative} {superlative.source.noun})"
        )
    if swap is not None:
        details["roles"] = (
            f"claim {swap.claim[0]} {swap.verb} {swap.claim[1]} / "
            f"source {swap.source[0]} {swap.verb} {swap.source[1]}"
        )
    if ended is not None:
        details["ended_state"] = f"claim: {ended.state} / source: {ended.event}"
    if direction is not None:
        details["comparison_direction"] = f"claim: {direction.claim} / source: {direction.source}"
    if trend is not None:
        details["trend"] = f"claim: {trend.claim} / source: {trend.source}"
    if negation is not None:
        details["negated_predicate"] = (
            f"{negation.side}: {negation.cue} {' '.join(negation.predicate)}"
        )
    if antonym is not None:
        details["antonyms"] = f"claim {antonym.claim_word} / source {antonym.source_word}"
    shares = (
        negation.share if negation is not None else None,
        antonym.subject_share if antonym is not None else None,
        ended.share if ended is not None else None,
        direction.share if direction is not None else None,
        vote.share if vote is not None else None,
    )
    return MeaningConflict(
        found=any(
            f is not None
            for f in (
                negation,
                antonym,
                swap,
                ended,
                direction,
                trend,
                superlative,
                exclusive,
                agent,
                vote,
                rank,
                order,
                limited,
            )
        ),
        share=next((s for s in shares if s is not None), None),
        details=details,
    )
