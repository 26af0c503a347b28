"""The consistency stage's conflicts of meaning, as opposed to values: one finding.

Each rule names a way a source sentence about the claim's subject says the
opposite while sharing its words — the pairs a small NLI model reads as
agreement: a negated predicate (:mod:`.negation`; by a prefix, "non-binding" /
"binding": :mod:`.prefix_negation`), a null result about what the claim
asserts (:mod:`.null_results`), a pair of opposites
(:mod:`.antonyms`), agent and patient, a comparison's sides or two alternatives exchanged
(:mod:`.roles`, :mod:`.comparatives`, :mod:`.alternatives`), a state ended or an event
cancelled (:mod:`.roles`) or called off while the source says it went ahead
(:mod:`.went_ahead`), or ended by the claim while the source says it goes on (a problem
too: :mod:`.persisting_problems`), a change the source says did not happen
(:mod:`.held_steady`), a comparison stated the other way (:mod:`.directions`), a thing
compared with its own past against a source change the other way (:mod:`.trends`), a
superlative the source gives another holder (:mod:`.superlatives`), an exclusive
"only X" the source lists with another name (:mod:`.exclusives`), a passive's named
agent the source names otherwise (:mod:`.agents`), a unanimous vote against a divided
tally (:mod:`.votes`), a superlative at another rank (:mod:`.superlative_ranks`), two
events in the order the claim denies (:mod:`.event_order`), an "all" the source limits
(:mod:`.universals`), a one-holder office the source gives another person
(:mod:`.role_holders`), a one-place relation the source gives another place
(:mod:`.home_places`), a place the source gives as another known place
(:mod:`.place_swaps`), a decision the source says is still pending (:mod:`.pending`),
a claim of proof the source says is not proven (:mod:`.certainty`), a case the source's
ruling gives to the other party (:mod:`.rulings`), an award the source gives another
recipient (:mod:`.recipients`).
Negation and antonyms are checked per statement of a two-part claim ("a larger
screen but a smaller battery"). They all set one signal
(``ConsistencyResult.negation_mismatch``); ``share`` is how much of the claim
the first finding's sentence speaks of (None where a rule does not measure it:
the verdict then uses the pair's relevance).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from provgraph.verification.agents import agent_conflict
from provgraph.verification.alternatives import alternatives_swap
from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.cancelled_events import cancelled_event
from provgraph.verification.certainty import certainty_conflict
from provgraph.verification.claimsplit import split_statements
from provgraph.verification.comparatives import comparative_swap
from provgraph.verification.directions import direction_conflict
from provgraph.verification.ended_states import ended_state, persisting_state
from provgraph.verification.event_order import order_conflict
from provgraph.verification.exclusives import exclusive_conflict
from provgraph.verification.held_steady import held_steady
from provgraph.verification.home_places import place_conflict
from provgraph.verification.negation import negation_conflict
from provgraph.verification.null_results import null_result_conflict
from provgraph.verification.pending import pending_decision
from provgraph.verification.persisting_problems import persisting_problem
from provgraph.verification.place_swaps import place_swap
from provgraph.verification.possessive_roles import possessive_swap
from provgraph.verification.prefix_negation import prefix_negation_conflict
from provgraph.verification.recipients import recipient_conflict
from provgraph.verification.role_holders import role_holder_conflict
from provgraph.verification.roles import role_swap
from provgraph.verification.rulings import ruling_conflict
from provgraph.verification.superlative_ranks import rank_conflict
from provgraph.verification.superlatives import superlative_conflict
from provgraph.verification.trends import trend_conflict
from provgraph.verification.universals import universal_limit
from provgraph.verification.votes import vote_conflict
from provgraph.verification.went_ahead import went_ahead


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
    if negation is None:
        negation = next((f for s in statements if (f := prefix_negation_conflict(s, window))), None)
    antonym = None
    if negation is None:
        antonym = next((a for s in statements if (a := antonym_conflict(s, window))), None)
        if antonym is None and len(statements) > 1:
            # a short statement may share too little with its sentence to be read alone:
            # "… and closed on Mondays" against "… and open every day of the week"
            antonym = antonym_conflict(claim, window)
    swap = (
        role_swap(claim, window)
        or comparative_swap(claim, window)
        or alternatives_swap(claim, window)
    )
    ended = (
        ended_state(claim, window) or cancelled_event(claim, window) or went_ahead(claim, window)
    )
    persisting = persisting_state(claim, window) if ended is None else None
    lasting = persisting_problem(claim, window)
    still = held_steady(claim, window)
    pending = next((p for s in statements if (p := pending_decision(s, window))), None)
    direction = direction_conflict(claim, window)
    trend = trend_conflict(claim, window)
    superlative = superlative_conflict(claim, window)
    rank = rank_conflict(claim, window)
    order = order_conflict(claim, window)
    limited = universal_limit(claim, window)
    exclusive = exclusive_conflict(claim, window)
    agent = agent_conflict(claim, window)
    vote = vote_conflict(claim, window)
    holder = role_holder_conflict(claim, window)
    place = place_conflict(claim, window)
    moved = place_swap(claim, window) if place is None else None
    kin = possessive_swap(claim, window)
    unproven = certainty_conflict(claim, window)
    ruling = ruling_conflict(claim, window)
    recipient = recipient_conflict(claim, window)
    # every rule's finding and how the report names it: one table, so a rule that fires
    # always both sets the signal and explains itself
    described: list[tuple[str, object, Callable[[Any], str]]] = [
        ("universal", limited, lambda f: f"claim: {f.claim} / source: {f.limit}"),
        ("order", order, lambda f: f"claim: {f.relation} / source: {f.first}, {f.second}"),
        (
            "rank",
            rank,
            lambda f: (
                f"{f.superlative} {f.noun}: claim rank {f.claim_rank} / source rank {f.source_rank}"
            ),
        ),
        ("vote", vote, lambda f: f"unanimous ({f.unanimous_side}) / tally {f.tally}"),
        ("office_holder", holder, lambda f: f"{f.office}: claim {f.claim} / source {f.source}"),
        ("one_place", place, lambda f: f"{f.relation} in: claim {f.claim} / source {f.source}"),
        ("place", moved, lambda f: f"claim: {f.claim} / source: {f.source}"),
        ("agent", agent, lambda f: f"claim: {f.verb} by {f.claim} / source: by {f.source}"),
        (
            "possessive",
            kin,
            lambda f: f"claim: {f.holder} is {f.other}'s {f.relation} / source: the other way",
        ),
        ("exclusive", exclusive, lambda f: f"claim: only {f.name} / source: also {f.other}"),
        (
            "superlative",
            superlative,
            lambda f: (
                f"claim: {f.claim.holder} / source: {f.source.holder} "
                f"({f.source.superlative} {f.source.noun})"
            ),
        ),
        (
            "roles",
            swap,
            lambda f: (
                f"claim {f.claim[0]} {f.verb} {f.claim[1]} / "
                f"source {f.source[0]} {f.verb} {f.source[1]}"
            ),
        ),
        ("ended_state", ended, lambda f: f"claim: {f.state} / source: {f.event}"),
        ("persisting_state", persisting, lambda f: f"claim: {f.event} / source: still {f.state}"),
        ("persisting_problem", lasting, lambda f: f"claim: {f.remedy} / source: {f.went_on}"),
        ("held_steady", still, lambda f: f"claim: {f.change} / source: {f.held}"),
        ("pending", pending, lambda f: f"claim: {f.decision} / source: {f.pending}"),
        ("unproven", unproven, lambda f: f"claim: {f.claim} / source: {f.source}"),
        (
            "recipient",
            recipient,
            lambda f: f"{f.thing}: claim {f.claim} / source {f.source}",
        ),
        (
            "ruling",
            ruling,
            lambda f: f"claim: {f.claim_winner} won / source: {f.source_role} {f.source_party}",
        ),
        ("comparison_direction", direction, lambda f: f"claim: {f.claim} / source: {f.source}"),
        ("trend", trend, lambda f: f"claim: {f.claim} / source: {f.source}"),
        (
            "negated_predicate",
            negation,
            lambda f: f"{f.side}: {f.cue} {' '.join(f.predicate)}",
        ),
        ("antonyms", antonym, lambda f: f"claim {f.claim_word} / source {f.source_word}"),
    ]
    details = {key: text(f) for key, f, text in described if f is not None}
    shares = (
        negation.share if negation is not None else None,
        antonym.subject_share if antonym is not None else None,
        ended.share if ended is not None else None,
        persisting.share if persisting is not None else None,
        lasting.share if lasting is not None else None,
        still.share if still is not None else None,
        direction.share if direction is not None else None,
        vote.share if vote is not None else None,
        agent.share if agent is not None else None,
        unproven.share if unproven is not None else None,
    )
    return MeaningConflict(
        found=bool(details),
        share=next((s for s in shares if s is not None), None),
        details=details,
    )
