"""The raw stage outputs for one citation: what the verdict rules and the combiner read.

Its own module so that the verdict rules (:mod:`provgraph.verification.verdicts`)
and the learned combiner (:mod:`provgraph.verification.combiner`) can both
depend on it without depending on each other.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Signals:
    """Raw stage outputs for one citation (None = stage did not run for it)."""

    tfidf: float | None = None
    recall: float | None = None
    #: Share of the claim's topic words (its content words less values and times,
    #: :mod:`.topic_words`) the source uses; None: the stage did not run or the claim
    #: is all values. 0: the two share nothing but values (the relatedness gate).
    topic_share: float | None = None
    #: With no topic word shared: the source uses one of the claim's numbers or value
    #: words (``topic_words.shares_a_value``), the coincidence that made it look related.
    shares_a_value: bool = False
    #: The claim is about a relative of someone the source speaks of ("The poet's brother
    #: …"), and the source names no relative (``relatives.unnamed_relative``), or the
    #: reverse: the source names the claim's subject only as a relative's possessor ("The
    #: painter's father …", ``relatives.relative_only``). Either way it speaks of another
    #: person.
    relative_unnamed: bool = False
    embedding: float | None = None
    nli_entailment: float | None = None
    nli_contradiction: float | None = None
    nli_max_contradiction: float | None = None
    llm: float | None = None
    consistency_penalty: float | None = None
    consistency_anchored: bool = False
    #: A predicate negated (or an antonym used) on one side and asserted on the other.
    consistency_negation: bool = False
    #: For a negation or antonym conflict: how much of the claim its sentence speaks
    #: of (``ConsistencyResult.conflict_share``); the conflict's relevance.
    consistency_conflict_share: float | None = None
    #: Share of the claim's dates and quantities a same-subject source value
    #: confirms (None: the claim has none).
    consistency_agreement: float | None = None
    #: A quantity, comparison or change of the claim (not a date) the source confirms
    #: (``ConsistencyResult.quantities_agreed``).
    consistency_quantity_agreed: bool = False
    #: Every claim value confirmed, at least one written otherwise ("7%" / "0.07",
    #: "fell by 20%" / "from 50,000 to 40,000"), and no conflict
    #: (``ConsistencyResult.values_paraphrased``).
    consistency_paraphrased: bool = False
    #: Of those, a comparison the source's two values confirm
    #: (``ConsistencyResult.comparison_confirmed``).
    consistency_compared: bool = False
    #: Every claim value confirmed and at least one in other words than the source's
    #: ("7%" / "seven percent", "fell by 20%" / "from 50,000 to 40,000"): no coincidence
    #: of a shared value, unlike "rose 8%" / "rose 8%" (the relatedness gate, session 40).
    consistency_rewritten: bool = False
    #: The evidence says a statement of the claim is not known ("… was not studied",
    #: ``ConsistencyResult.unknown_clause``): neither support nor contradiction.
    consistency_unknown: bool = False
    #: The evidence states the claim's cause and effect the other way round ("Depression
    #: causes poor sleep." for "Poor sleep causes depression.", ``ConsistencyResult.
    #: reversed_clause``): neither support nor contradiction.
    consistency_reversed: bool = False
    #: The focused NLI pass (focus.py) found the strongest NLI contradiction only
    #: for statements of the claim the evidence does not speak of ("missing" read
    #: as "false"): not a contradiction, by the relatedness rule of the policy.
    nli_contradiction_unrelated: bool = False
    #: No window NLI read speaks of more than a third of the claim's predicate words
    #: (predicate.py): its contradiction is about something else the source says of the
    #: subject.
    nli_contradiction_off_predicate: bool = False
    #: The same test with the claim's times left out of its predicate and its names kept
    #: (predicate.py, ``times_apart``): the support side's silence test
    #: (verdicts.silent_on_predicate).
    predicate_unspoken: bool = False
    #: Statements the claim was split into by the focused pass (1: not split).
    claim_statements: int = 1
    #: For a split claim: the focused entailment of its weakest statement (None: not
    #: split). Near zero, one part of the claim is not in the evidence at all.
    nli_weakest_entailment: float | None = None
    #: The value-free reading (valuefree.py): NLI's contradiction (best window, most
    #: contradicting window) of the claim with its unstated quantities and dates left open,
    #: when that was read. Discounts the contradiction side only.
    nli_value_free_contradiction: float | None = None
    nli_value_free_max_contradiction: float | None = None

    def contradiction_reading(self) -> Signals:
        """The signals the contradiction side reads: NLI's contradictions limited to
        what survives the value-free reading (a premise that contradicts the claim for a
        reason other than its unstated value contradicts the value-free form too).
        Support keeps the claim's own reading: an unconfirmed value already weighs on
        it through the consistency penalty."""
        best, worst = self.nli_value_free_contradiction, self.nli_value_free_max_contradiction
        if best is None and worst is None:
            return self
        return replace(
            self,
            nli_contradiction=_at_most(self.nli_contradiction, best),
            nli_max_contradiction=_at_most(self.nli_max_contradiction, worst),
        )


def _at_most(value: float | None, reading: float | None) -> float | None:
    return value if value is None or reading is None else min(value, reading)
