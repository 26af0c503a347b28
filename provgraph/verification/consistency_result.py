"""What the consistency stage found for one claim and window, and the penalty it weighs
on support: its own module so that the stage (:mod:`.consistency`) holds the reading and
this the result's meaning (split in session 33).
"""

from __future__ import annotations

from dataclasses import dataclass, field

MISMATCH_PENALTY = 0.8
UNVERIFIED_PENALTY = 0.5
NEGATION_PENALTY = 0.3


@dataclass(frozen=True)
class ConsistencyResult:
    """What disagreed and what agreed; ``penalty`` in [0, 1] (0 = nothing disagrees).

    ``year_mismatches`` / ``number_mismatches``: claim dates / quantities the
    source gives differently or does not confirm; ``anchored_mismatches``: the
    subset the source gives *differently* for the same fact (a contradiction).
    """

    year_mismatches: tuple[str, ...] = ()
    number_mismatches: tuple[str, ...] = ()
    negation_mismatch: bool = False
    anchored_mismatches: tuple[str, ...] = ()
    checked: bool = False
    details: dict[str, str] = field(default_factory=dict)
    agreements: tuple[str, ...] = ()
    values_checked: int = 0
    values_agreed: int = 0
    #: Of those, the quantities, comparisons and changes (not dates): what a claim such
    #: as "The trail is about 5 kilometres long." asserts, in no word a source must share.
    quantities_agreed: int = 0
    #: ``(claim surface, source surface)`` of values that agree but are written
    #: differently ("$2.3 billion" / "2,300 million dollars"): the focused NLI
    #: pass reads the claim with the source's wording (:mod:`.focus`).
    agreed_values: tuple[tuple[str, str], ...] = ()
    #: Relative changes of the claim ("fell by 20%") a source change "from A to
    #: B" confirms.
    agreed_changes: tuple[str, ...] = ()
    #: Claim values the source gives by arithmetic: comparisons two source values
    #: confirm ("fewer heart attacks than the placebo group" / "31 … 58",
    #: :mod:`.value_comparisons`) and durations two source dates span ("took eight
    #: years" / "1961 … 1969", :mod:`.bridged_dates`).
    agreed_derived: tuple[str, ...] = ()
    #: Of those, the claim's comparisons the source's two values confirm ("faster than
    #: driving" / "two hours … about three"; :mod:`.value_comparisons`).
    agreed_comparisons: tuple[str, ...] = ()
    #: For a negation or antonym conflict: the share of the claim the conflicting
    #: sentence speaks of (its other content words; an antonym counts as the word it
    #: opposes). The conflict's own measure of relevance: a short claim ("Exports rose
    #: last year." / "Exports fell sharply last year …") has a low lexical score
    #: exactly because its one changed word is the conflict.
    conflict_share: float | None = None
    #: Claim character spans of quantities nothing in the source could state: no
    #: window value of the same dimension, measure and counted thing, digits nowhere in
    #: the source. The value-free reading (:mod:`.valuefree`) asks whether an NLI
    #: contradiction rests on them alone.
    unstated_spans: tuple[tuple[int, int], ...] = ()
    #: Likewise for dates: the window states no date, the year is nowhere in the source.
    unstated_date_spans: tuple[tuple[int, int], ...] = ()
    #: The window clause that says a statement of the claim is not known ("its effect
    #: on stroke risk was not studied", :mod:`.unknowns`): the claim is unsupported.
    unknown_clause: str | None = None
    #: The window sentence stating the claim's cause and effect exchanged (:mod:`.causal_swaps`).
    reversed_clause: str | None = None

    @property
    def values_paraphrased(self) -> bool:
        """Every claim value is confirmed, at least one written otherwise, and nothing conflicts.

        NLI models misread rewritten numbers ("7%" / "0.07", "fell by 20%" /
        "from 50,000 to 40,000", "fewer than" / "31 … 58") as contradictions; the
        verdict policy does not let NLI alone contradict such a claim
        (docs/verification.md, session 5).
        """
        return (
            self.agreement == 1.0
            and bool(self.agreed_values or self.agreed_changes or self.agreed_derived)
            and not self.anchored_mismatches
            and not self.negation_mismatch
        )

    @property
    def comparison_confirmed(self) -> bool:
        """Every claim value confirmed (:attr:`values_paraphrased`) and a comparison among
        them: the source's two values go the claim's way, which NLI cannot compute."""
        return self.values_paraphrased and bool(self.agreed_comparisons)

    @property
    def agreement(self) -> float | None:
        """Share of the claim's dates and quantities the source confirms (None: it has none)."""
        return self.values_agreed / self.values_checked if self.values_checked else None

    @property
    def penalty(self) -> float:
        """0.8 for a contradicting value, 0.5 for an unconfirmed one, +0.3 for negation; ≤ 1."""
        if self.anchored_mismatches:
            value = MISMATCH_PENALTY
        elif self.year_mismatches or self.number_mismatches:
            value = UNVERIFIED_PENALTY
        else:
            value = 0.0
        if self.negation_mismatch:
            value += NEGATION_PENALTY
        return min(1.0, value)
