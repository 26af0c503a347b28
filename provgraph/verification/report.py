"""The versioned verification report (pydantic; JSON Schema in docs/schema/).

Schema version ``"1"``. It keeps every stage's raw scores apart from the
decision (``checks[].scores`` vs ``verdict``), says what produced it (stages
ran/skipped with reasons, ``models`` with versions and content sha256 of the
weights and of the learned combiner, thresholds, fusion weights,
``config_hash``), and separates "nothing checked" (``citations_checked == 0``,
``support_rate is None``) from "all supported". Evidence offsets index the
cited source's text as resolved (see :mod:`provgraph.verification.sources`).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from provgraph.verification.verdicts import FusionWeights, Thresholds, Verdict

if TYPE_CHECKING:
    from provgraph.store.types import StoredReport

SCHEMA_VERSION: Literal["1"] = "1"
ENGINE_VERSION = "0.4.24"
"""The scoring rules' version, stored in every report: it changes whenever the same inputs,
config, NLI model and combiner can score differently, so an auditor can tell reports made
by different rules apart (0.2.0, session 9: the focused pass's two readings, focus.py;
0.3.0, session 10: the polarity reading of negated claims, polarity.py, and a negation or
antonym conflict's relevance read from its sentence; 0.3.1, session 11: the value-free
reading, valuefree.py; 0.4.0, session 12: cancelled events, comparisons stated the other
way, and NLI contradictions off the claim's predicate — roles.py, directions.py,
predicate.py; 0.4.1, session 13: association words as one predicate and associations
with a direction read as effects in the negation check, years naming an edition, events
named as the object of an active verb — wordsets.py, negation.py, dates.py, roles.py;
0.4.2, session 14: values owned by another claim value, temperatures, exchanged
alternatives, endings, seasons — consistency.py, quantities.py, alternatives.py,
endings.py, dates.py; 0.4.3, session 15: a change whose size is a fraction in words,
"fell by a third", "cut by half" — changes.py, proportions.py, fraction_words.py;
0.4.4, session 16: values whose rounding intervals only touch differ ("four" / "five",
"1.5" / "1.6"), centuries, speeds across units, number words joined by "and", "7B",
"100k", "once", identifiers ("port 8080"), "almost", "left office", a deprecated
service, typographic apostrophes, hedged and quantified negations and conditional
clauses — slots.py, bounds.py, centuries.py, quantities.py, quantulum_reader.py,
roles.py, negation.py, polarity.py, wordsets.py; 0.4.5, session 17: ages as their own
kind, a reporting frame and a relative clause in claim splitting, null results stated
with a degree word — ages.py, bounds.py, quantities.py, claimsplit.py, negation.py;
0.4.6, session 18: confirmed values lift only a source related in meaning, a measure or
a baseline in a denied scope, an amount before "more/less than", verbs of one relation,
a thing compared with its own past against a change, "up/down from" changes, possessive
wholes, null results in other words — verdicts.py, negation.py, directions.py, roles.py,
trends.py, quantulum_reader.py, proportions.py, antonyms.py, null_results.py; 0.4.7,
session 19: superlatives and one-holder roles given to another, phrasal verbs, small-share
quantifiers, copular and ambiguous-verb splits, frequencies, places in a ranking, ranges
with a scale word, "a single", changes re-read in the source's values, comparisons
against two values, endings that state a "no longer", opposites in the polarity reading,
a split claim's statement with no word in the window — superlatives.py, phrasal.py,
proportions.py, claimsplit.py, frequencies.py, ranks.py, quantulum_reader.py, changes.py,
value_comparisons.py, negation.py, polarity.py, ended_states.py, focus.py; 0.4.8, session
20: a figure paired with another year in one sentence, counted-noun and verb synonyms,
comparisons off a change or in two years, durations between two dates and years moved by a
stated duration, exclusives, passive agents, unanimous votes, superlative ranks, event
order, limited universals, a set-aside alternative asserted, opposites in another sentence
and as superlatives, "ruled out" and "too … to", compound durations — stated.py,
consistency.py, synonyms.py, value_comparisons.py, bridged_dates.py, exclusives.py,
agents.py, votes.py, superlative_ranks.py, event_order.py, universals.py, alternatives.py,
antonyms.py, negation.py, polarity.py, quantities.py, changes.py, predicate.py; 0.4.9,
session 21: irregular verb forms read as their verb, a one-holder office or a one-place
relation the source gives another, "hardly any" and "far from" as negations, leaving a
team or employer and a merger as ended states (with the share of the claim the ending
sentence holds), verbs of one direction against every verb of the other, words of a name
opposing nothing, a scale word the library drops, "not yet" / "has yet to", an infinitive
cue denying its verb and object, two-part claims split where the second part opens with a
verb that cannot be a noun and passives sharing their auxiliary — wordsets.py,
role_holders.py, home_places.py, negation.py, ended_states.py, antonyms.py,
quantulum_reader.py, claimsplit.py; 0.4.10, session 22: a date the source gives to another
event than the claim's verb, years given relative to another ("two years later"), a change
against the source's own relative change ("doubled" / "rose 15%"), "double" as a change only
as a verb, people and a group of people as one count's anchor, agent and patient between
common nouns and routes run the other way, leaving a named body, a stopped activity
("still makes" / "stopped making"), omission cues ("skipped"),
comparatives opposing only comparatives, "its predecessor" as "the old one", more units, a
statement the source says is not known (unsupported), a verb that is also a noun before its
object — event_dates.py, relative_dates.py, change_checks.py, changes.py, slots.py,
noun_roles.py, routes.py, ended_states.py, negation.py, antonyms.py, value_comparisons.py,
quantities.py, unknowns.py, claimsplit.py, focus.py; 0.4.11, session 23: an active claim
against a named passive agent and an agent ending at the next passive, object lists split,
opposites in one statement of a coordinated sentence, fronted birthplaces, a part of the
claim the source did not measure and "insufficient evidence", ended partnerships, weights
in pounds, "half a litre", a fraction of one unit, "a decade" and "three full days", "not
all" as a share, "into force" as "took effect", a noun after a number, one-way relations
between two names stated the other way round, and windows re-read without clauses that
say something else was not measured — agents.py, claimsplit.py, object_lists.py,
antonyms.py, home_places.py, unknowns.py, ended_states.py, quantities.py,
quantulum_reader.py, unit_phrases.py, proportions.py, wordsets.py, possessive_roles.py,
meaning_conflicts.py, unknown_free.py, scoring.py; 0.4.12, sessions 24-25: "rather than X,
Y" fronted, "just over / under" as near bounds, multiples of adjectives as comparatives,
the support of a source silent on the claim's predicate capped, an event's venue as a
one-place relation, a cause under investigation as unknown, synonymous verbs in the
predicate and negation tests, a verb only intended is not asserted, "fewer … than" denies
nothing, one-way relations in their "of" form, the size of a change the claim does not
state re-read without it, a list of names after the verb as one statement per name —
alternatives.py, bounds.py, degrees.py, antonyms.py, verdicts.py, predicate.py,
home_places.py, unknowns.py, synonyms.py, phrasal.py, negation.py, possessive_roles.py,
size_free.py, window_rereads.py, object_lists.py, claimsplit.py, wordsets.py; 0.4.13,
session 26: a negated predicate asserted only within one side of a contrast, "found" as
"find"'s past, appointments to a one-holder office, a state the claim denies is no current
state and a negated claim whose positive form a source ends is entailed, changes in
percentage points, a change's size compared only with sizes, a decade's parts, converse
relations, jobs cut as workers dismissed, a named predicate a silent source does not
support — negation.py, wordsets.py, role_holders.py, ended_states.py, polarity.py,
changes.py, change_checks.py, consistency.py, dates.py, converses.py, roles.py,
phrasal.py, quantities.py, predicate.py, antonyms_hand.txt; 0.4.14, session 27: a
death or an employer's end against a present state, "stop" as "prevent", "knocked out"
as "eliminated", an active source clause naming another agent, a predicate the source
speaks of at most a third of, an opposite said in another statement or of another
subject, "a $500,000", "half a million dollars", "below freezing", "30C", shares of "its"
whole — ended_states.py, state_endings.py, negation.py, synonyms.py, phrasal.py,
converses.py, agents.py, predicate.py, antonyms.py, antonym_lexicon.py,
quantulum_reader.py, unit_phrases.py, quantities.py, proportions.py, antonyms_hand.txt;
0.4.15, session 28: a sale against ownership, "in May" as the month, "of the year" as
part of a quarter or half, an opposite said of another period or in a relative clause of
another subject, an appointer who is not the appointee, event words beside a physical
measure, a looser bound states no tighter one, a two-part claim read whole for opposites,
"travelled to" as "visited", a value beside an opposite verb, a subject cut off by a
parenthetical, shares of two amounts, a past event the source says only may happen, a
transfer made the other way, ages by decade of life and in apposition, a passive defeat as
a loss, a clause dated "two months later", a removal against what a product supports, a
holding bought back, "unchanged" as a null result —
state_endings.py, ended_states.py, dates.py, antonyms.py, role_holders.py, measures.py,
slots.py, stated.py, unstated.py, meaning_conflicts.py, phrasal.py, wordsets.py,
proportions.py, speculation.py, consistency.py, routes.py, roles.py, ages.py,
quantities.py, event_order.py, ended_objects.py, null_results.py, antonyms_hand.txt;
0.4.16, session 29: a decision the source says is still pending, a holder a ranking puts
after another, a second relation in a relative clause ("which it bought"), "a subsidiary
of" as ownership and "controls" as owning, a price that became cheaper as one that fell, a
concession that ends a negated scope, a fraction that ends its clause as a share, a target
met as achieved and "fell short of" as missed, a former holder of an office, a negated
scope ended by a "when" clause or after "without"'s noun phrase, a shortage as no assertion,
an amount after a currency code, a count near a money word compared as a count, an action
set aside against the infinitive before it, a building destroyed against one that still
stands, hectares as an area, ahead / behind and large / little as opposites, "not guilty"
as innocent, "an hour and a half", "X was Y's teacher" as "X taught Y", ahead / behind only
relative to the same thing —
pending.py, meaning_conflicts.py, superlatives.py, roles.py, cancelled_events.py,
converses.py, phrasal.py, negation.py, scope_ends.py, proportions.py, role_holders.py,
money_codes.py, quantulum_reader.py, measures.py, alternatives.py, state_endings.py,
ended_states.py, unit_phrases.py, quantities.py, antonyms.py, converse_opposites.py,
antonyms_hand.txt;
0.4.17, session 30: negation by a prefix ("non-binding", "unsafe", "inauthentic"), a negated
scope ended by an adjunct clause of time or reason ("after cutting the route", "because
…"), a fronted "instead of" whose choice is named before its infinitive, "struck down" as
"overturned", a date the source gives only to the claim's other event, a date after
"before", "after" or "since" read as a bound (a source's bound neither confirms nor denies),
a change "from A to B" judged by the ratio of the values as stated, "lacks" denying its
noun phrase only —
prefix_negation.py, meaning_conflicts.py, scope_ends.py, alternatives.py, phrasal.py,
event_dates.py, consistency.py, date_bounds.py, dates.py, slots.py, changes.py);
0.4.18, session 31: a thing passed the other way between two common-noun parties ("the
museum lent the painting to the gallery" / "the gallery lent it to the museum"), converse
verbs with the parties exchanged read as agreement ("lent to" / "borrowed from", "sold to"
/ "bought from"), a choice of one thing "over" or "to" another, "did little / nothing to"
as a negation, "took over as <role> from" as "succeeded", and an ending verb that is the
predicate's own verb ("the ferry stops at") no longer read as an ending, a negated claim
read against a negated source sentence by contraposition ("Nobody was injured" / "no one
was hurt"), two versions of a thing compared by generation ("larger than the old one") and
"faster" / "slower" judged by a speed or a time taken, a gallon or a ton read against
litres or tonnes as every size it has (noun_roles.py, roles.py, converse_opposites.py,
antonyms.py, alternatives.py, negation.py, phrasal.py, contrapositive.py, scoring.py,
value_comparisons.py, ambiguous_units.py, slots.py);
0.4.19, session 32: a claim of proof against a source saying the matter is not established
("has been proven to prevent" / "a causal effect has not been established"), factors read
as values ("threefold", "twice as likely"), "twice daily" as two a day, a comparison with
no "than" against its opposite ("less likely" / "far more likely … than"), verbs that move
something else as opposites ("raises" / "lowers", "an increased risk" / "a lower risk"),
"the following year" dating the later event, a ban ending a sale and lifting it ending the
ban, a city's capital as a one-holder office, and two counts of people with nothing else in
common no longer one fact (certainty.py, multipliers.py, frequencies.py, directions.py,
antonym_lexicon.py, antonyms.py, modified_heads.py, event_order.py, state_endings.py,
role_holders.py, slots.py);
0.4.20, session 33: a source sharing nothing with the claim but values (a number, a unit,
a time) and far from it in meaning is unrelated, *unsupported* even against a value
conflict, its support capped below *weak*; an opposite pair needs a shared word that is
more than a value; "between five and seven years" read as one range; "passed away" no
place opposed to "home" (topic_words.py, verdicts.py, scoring.py, antonyms.py,
word_ranges.py, quantulum_reader.py, wordsets.py);
0.4.21, session 33: a source stating the claim's cause and effect exchanged ("Depression
often causes poor sleep." for "Poor sleep causes depression.") makes it *unsupported*, its
support capped below *weak* (causal_swaps.py, consistency.py, verdicts.py);
0.4.22, session 34: NLI's contradiction of a predicate with a name ("won two Nobel Prizes")
judged by its other words when the source names none of its names; a claim about a
relative of someone the source names no relative of is *unsupported*; a price's "higher"
read as "more expensive"; what "except" sets apart not asserted; an ending read by the
verb's synonyms ("stopped making" / "no longer produces"); a claim date's own verb breaks a
tie between two dates of one clause; a window date of another event when the window names
nothing of the claim's event; ", not a surgeon" set aside after a whole noun phrase; the
noun of a count in digits no topic word ("20,000 people") (predicate.py, relatives.py,
scoring.py, verdicts.py, directions.py, exceptions_words.py, negation.py, event_dates.py,
consistency.py, alternatives.py, topic_words.py);
0.4.23, session 35: opposites ratify/reject, extinct/survive, dormant/erupt; a value's
near words stop at a subordinate clause ("completed in November 2021 *after regulators
approved it*"); a passive agent after a short phrase ("translated into Japanese by") and
an active source clause whose object holds a name; a source naming the claim's subject
only as a relative's possessor ("the painter's father") is about someone else
(antonyms_hand.txt, wordsets.py, agents.py, relatives.py, scoring.py);
0.4.24, session 36: the subordinate-clause cut only at a clause ("after a three-year
renovation" stays the value's); a time named in other words ("fourth quarter" / "the three
months to December", "every day" / "on Mondays") and a comparison's other side count as
shared words of an opposite pair; "twice the size of" / "half the length of" read as
comparatives; seasons without a year ("late summer") are dates; a bare number takes the unit
of the value it is compared with ("140 kilometres … only 95"), and touching values differ in
a comparison; shares in words ("four of the six"), "not every"; a ruling for the other party
("ruled in favour of the landlord"); a predicate spoken of by its verb's noun ("restored" /
"restoration", not for a hedged claim); two plural objects are two statements ("wrote both
novels and plays"); a comparison with the same other side is no exchange of sides; an award
the source gives another recipient; a destruction "never rebuilt" ends a state; a
dimension's multiple is a comparative in the direction check, also in apposition ("…, more
than twice the depth of …"); a resignation is an ending for the date checks; recover/die; "a
kilogram" / "an hour" as one unit; quieter / nearer / closer as the lower value; an adverb
after a direction verb modifies no noun; "a small minority of" (wordsets.py, recipients.py,
ended_states.py, directions.py, measures.py, quantities.py, modified_heads.py, antonyms.py,
covered_times.py, opposite_subjects.py, negation.py, degrees.py, dates.py,
value_comparisons.py, proportions.py, rulings.py, predicate.py, claimsplit.py,
object_lists.py, converse_opposites.py)."""

RawValue = float | int | str | bool | None | list[str]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Evidence(_Model):
    """Where in the cited source the claim was matched: ``text == source[start:end]``."""

    source_key: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str


class StageScore(_Model):
    """One stage's raw output for one citation; ``score`` is its headline value."""

    stage: str
    score: float | None
    raw: dict[str, RawValue] = Field(default_factory=dict)
    evidence: Evidence | None = None


class ClaimInfo(_Model):
    """The claim a tag supports and its span in the checked text."""

    text: str
    start: int
    end: int
    mode: str
    #: The text the stages scored when it differs from ``text`` (a pronoun resolved).
    checked_text: str | None = None


class SourceInfo(_Model):
    """What a key resolved to."""

    key: str
    node_id: str
    node_type: str | None
    label: str
    chars: int


class RelativeInfo(_Model):
    """Cited source vs the session's best other source for the same claim."""

    stage: str
    cited_score: float
    best_other_key: str | None
    best_other_score: float | None
    margin: float | None
    better_source_key: str | None


class CitationCheck(_Model):
    """One (tag, key) pair: raw stage scores, fused scores, verdict."""

    tag_index: int
    key: str
    claim: ClaimInfo
    source: SourceInfo
    scores: dict[str, StageScore]
    evidence: Evidence | None
    support_score: float | None
    contradiction_score: float
    verdict: Verdict
    confidence: float
    relative: RelativeInfo | None = None
    kept_in_text: bool


class TagResult(_Model):
    """One tag occurrence as written and as rewritten."""

    tag_index: int
    raw_tag: str
    start: int
    end: int
    keys: list[str]
    unresolvable_keys: list[str]
    verified_tag: str
    claim: ClaimInfo


class CoverageFinding(_Model):
    """An uncited sentence that a session source would support."""

    sentence: str
    start: int
    end: int
    candidate_source_key: str
    support_score: float
    stage: str
    evidence: Evidence | None


class JudgeUsage(_Model):
    """What the LLM judge cost one report: calls made, refused by the cap, failed; tokens.

    ``estimated_cost`` is tokens times the configured prices
    (``PROVGRAPH_LLM_JUDGE_*_COST_PER_MTOK``), ``None`` when no price is set.
    """

    max_calls: int
    calls: int = 0
    failed_calls: int = 0
    capped_pairs: int = 0
    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    estimated_cost: float | None = None


class StageStatus(_Model):
    """Whether a stage ran, and if not, why (``usage``: the LLM judge's calls and tokens)."""

    name: str
    status: Literal["ran", "skipped", "disabled"]
    reason: str | None = None
    model: str | None = None
    version: str | None = None
    seconds: float = 0.0
    usage: JudgeUsage | None = None


class ModelRef(_Model):
    """A model (or the fusion's coefficient file) that produced the report.

    ``sha256`` hashes the files themselves (a folder: every file's relative
    path and sha256), so retrained weights under the same name are told apart.
    """

    stage: str
    name: str
    version: str | None = None
    sha256: str | None = None


class VerificationReport(_Model):
    """The full report for one checked text."""

    schema_version: Literal["1"] = SCHEMA_VERSION
    engine_version: str = ENGINE_VERSION
    text_with_verified_citations: str
    tags: list[TagResult]
    checks: list[CitationCheck]
    unresolvable_keys: list[str]
    totals: dict[str, int]
    citations_checked: int
    support_rate: float | None
    coverage: list[CoverageFinding]
    stages: list[StageStatus]
    thresholds: Thresholds
    fusion: FusionWeights
    config: dict[str, object]
    config_hash: str
    models: list[ModelRef] = Field(default_factory=list)
    seconds: float

    def stage(self, name: str) -> StageStatus | None:
        """The status entry of stage ``name``."""
        return next((s for s in self.stages if s.name == name), None)


def export_json_schema(path: str | Path) -> dict[str, object]:
    """Write the report's JSON Schema (sorted keys, trailing newline) and return it."""
    schema = VerificationReport.model_json_schema()
    schema["$id"] = "https://provgraph.dev/schema/verification-report-v1.json"
    Path(path).write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return schema


def report_to_stored(
    report: VerificationReport, output_id: str, session_id: str | None
) -> StoredReport:
    """Wrap a report for :meth:`GraphStore.save_report` (summary fields copied out)."""
    from provgraph.store.types import StoredReport

    verdicts = tuple(sorted({c.verdict.value for c in report.checks}))
    return StoredReport(
        output_id=output_id,
        session_id=session_id,
        config_hash=report.config_hash,
        report=report.model_dump(mode="json"),
        created_at=datetime.now(UTC),
        verdicts=verdicts,
        support_rate=report.support_rate,
    )
