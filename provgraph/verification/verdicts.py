"""Fusing stage scores into a support score, and the verdict policy.

:func:`fuse` is a pure function of the stage signals, the documented weights
and the shipped combiner coefficients (package data, loaded once).

Fusion (every available signal is first mapped to [0, 1]):

* ``tfidf``: ``ramp(cosine, tfidf_low, tfidf_high)``
* ``recall``: ``ramp(claim_recall, recall_low, recall_high)`` (share of the
  claim's content words present in the source; computed by the TF-IDF stage)
* ``embedding``: ``ramp(cosine, embedding_low, embedding_high)``
* ``nli``: ``max(0, entailment − contradiction)`` at the best window
* ``llm``: the judge's probability of support

``support``, by default (``method = "learned"``): the probability of the shipped
logistic-regression combiner (:mod:`provgraph.verification.combiner`, fitted as
docs/verification.md describes) for the stages that ran. With ``method =
"weighted"``, with an LLM judge signal, or when no combiner variant fits: the
weighted mean of the available signals (weights renormalised over what ran),
times ``1 − consistency_weight × consistency.penalty``.
``contradiction`` = the larger of NLI's part — the shipped combiner's learned
contradiction model when ``method = "learned"`` (docs/verification.md), else
``max_contradiction × (1 − entailment)``, both on NLI's contradictions less what
rests only on a value the source never states (``Signals.contradiction_reading``,
:mod:`provgraph.verification.valuefree`) —,
``negation_contradiction × relevance`` when the consistency stage found a
predicate negated on one side and asserted on the other (relevance = the best
lexical or embedding signal, or the share of the claim the conflicting sentence
speaks of, ``Signals.consistency_conflict_share``, when higher), and
``anchored_contradiction`` (0.8) when a claim value and a source value speak
of the same fact and disagree ("founded in 1995" vs "founded in 1987"). A claim
value the source merely does not confirm lowers support (through the penalty)
but is never a contradiction.

Policy, in order: no source text or no scoring stage → ``unverifiable``;
a source sharing nothing with the claim but values (:func:`shares_only_values`) →
``unsupported``, even against a value conflict; a source *unrelated* to the claim
(:func:`relatedness` < :data:`RELATED_FLOOR` and no explicit conflict) →
``unsupported``, whatever the scores (session 5: NLI entails or contradicts some
unrelated pairs, and a source that is not about the claim can neither support nor
refute it);
``contradiction ≥ contradicted``, ``support < supported`` and the source is
*related* to the claim (:func:`relatedness` ≥ :data:`RELATED_FLOOR`, or no
lexical/embedding signal to tell) → ``contradicted``; ``support ≥ supported``
→ ``supported``; ``support ≥ weak`` → ``weak`` (``unsupported`` when one statement
of a split claim is not in the evidence at all, :func:`a_part_is_missing`); else
``unsupported``; a source that says a statement of the claim is not known ("… was not
studied", ``Signals.consistency_unknown``, :mod:`.unknowns`) or states the claim's cause
and effect exchanged (``Signals.consistency_reversed``, :mod:`.causal_swaps`), and no
explicit conflict → ``unsupported``; a claim about a relative of someone the source names
no relative of (``Signals.relative_unnamed``, :mod:`.relatives`) → ``unsupported``. An
unrelated source is at worst unsupported: NLI models call many unrelated
pairs "contradiction", and a source that is not about the claim cannot refute
it; likewise when the focused NLI pass found the contradiction only for a
statement of the claim the evidence does not speak of
(``Signals.nli_contradiction_unrelated``): a missing half is unsupported;
when no window NLI read speaks of more than a third of the claim's predicate
(``Signals.nli_contradiction_off_predicate``, :mod:`.predicate`: "The farm keeps
cows." / "The farm grows barley."; a source that speaks of at most a third of the
predicate's words — months and days read as times, ``Signals.predicate_unspoken`` —
has its support capped at
:data:`SILENT_PREDICATE_SUPPORT` unless NLI or the embedding stage reads the claim in
it — the embedding's reading counts only when NLI does not read the pair as confidently
neutral, :func:`silent_on_predicate`); and when every value
of a one-statement claim is confirmed by the source written otherwise, with no conflict
(``Signals.consistency_paraphrased``: "7%" / "0.07", "fell by 20%" / "from 50,000 to
40,000") — NLI models misread rewritten numbers, and the values are what such a
claim asserts. Such a claim whose comparison the source's two values confirm has at
least :data:`COMPARED_SUPPORT` support (``Signals.consistency_compared``: NLI cannot do
the arithmetic).
Confidence is ``0.5 + 0.5 × min(1, distance to the nearest threshold /
0.25)`` (1.0 for ``unverifiable``): near a threshold, ~0.5.
"""

from __future__ import annotations

from provgraph.verification.combiner import load_combiner
from provgraph.verification.signals import Signals as Signals  # re-exported (public name)
from provgraph.verification.verdict_types import FusionWeights as FusionWeights
from provgraph.verification.verdict_types import Thresholds as Thresholds
from provgraph.verification.verdict_types import Verdict as Verdict


def ramp(x: float, low: float, high: float) -> float:
    """Linear map of ``[low, high]`` onto ``[0, 1]``, clipped."""
    if high <= low:
        return 1.0 if x >= high else 0.0
    return min(1.0, max(0.0, (x - low) / (high - low)))


def fuse(signals: Signals, weights: FusionWeights) -> tuple[float | None, float]:
    """``(support, contradiction)``; support is None when no scoring signal is available."""
    parts: list[tuple[float, float]] = []
    relevance = 0.0
    if signals.tfidf is not None:
        value = ramp(signals.tfidf, weights.tfidf_low, weights.tfidf_high)
        parts.append((weights.tfidf, value))
        relevance = max(relevance, value)
    if signals.recall is not None:
        value = ramp(signals.recall, weights.recall_low, weights.recall_high)
        parts.append((weights.recall, value))
        relevance = max(relevance, value)
    if signals.embedding is not None:
        value = ramp(signals.embedding, weights.embedding_low, weights.embedding_high)
        parts.append((weights.embedding, value))
        relevance = max(relevance, value)
    if signals.nli_entailment is not None:
        contra = signals.nli_contradiction or 0.0
        parts.append((weights.nli, max(0.0, signals.nli_entailment - contra)))
    if signals.llm is not None:
        parts.append((weights.llm, signals.llm))
    total = sum(w for w, _ in parts if w > 0)
    if not parts or total <= 0:
        return None, 0.0
    penalty = signals.consistency_penalty or 0.0
    learned = _learned_support(signals) if weights.method == "learned" else None
    if learned is not None:
        support = learned  # the consistency penalty is one of its features
    else:
        support = sum(w * v for w, v in parts if w > 0) / total
        support *= 1.0 - weights.consistency_weight * penalty
    # a conflict's relevance: the lexical/embedding one, or how much of the claim
    # the conflicting sentence speaks of, whichever is higher
    conflict_relevance = max(relevance, signals.consistency_conflict_share or 0.0)
    contradiction = (
        weights.negation_contradiction * conflict_relevance if signals.consistency_negation else 0.0
    )
    if signals.consistency_anchored:
        contradiction = max(contradiction, weights.anchored_contradiction)
    if signals.nli_max_contradiction is not None and signals.nli_entailment is not None:
        # NLI's part: the learned contradiction model where one is shipped, else
        # the hand formula. The explicit conflicts above keep their floor.
        read = signals.contradiction_reading()  # less what rests on an unstated value
        assert read.nli_max_contradiction is not None and read.nli_entailment is not None
        learned_c = _learned_contradiction(read) if weights.method == "learned" else None
        nli_part = read.nli_max_contradiction * (1.0 - read.nli_entailment)
        contradiction = max(contradiction, nli_part if learned_c is None else learned_c)
    if signals.consistency_compared and signals.claim_statements == 1:
        support = max(support, COMPARED_SUPPORT)
    if (
        silent_on_predicate(signals)
        or about_something_else(signals)
        or signals.consistency_reversed
    ):
        support = min(support, SILENT_PREDICATE_SUPPORT)
    return min(1.0, max(0.0, support)), min(1.0, max(0.0, contradiction))


#: The least support of a one-statement claim whose comparison the source's two values
#: confirm, every claim value confirmed and nothing in conflict
#: (``Signals.consistency_compared``): the NLI model cannot do the arithmetic and reads
#: such pairs as neutral ("Train travel is faster than driving" / "The train takes two
#: hours, while the drive takes about three": entailment 0.03; session 37).
COMPARED_SUPPORT = 0.55

#: The most support a source silent on the claim's predicate, sharing only values with
#: the claim (:func:`shares_only_values`), stating its cause and effect exchanged
#: (``Signals.consistency_reversed``) or silent on its subject's relative
#: (``Signals.relative_unnamed``) gives (below the default
#: ``weak`` threshold, 0.35): "The river froze over in January 1963." against "In
#: January 1963 the town council approved a new library on the river bank." shares the
#: river and the date, and the lexical and embedding stages lift it (session 24).
SILENT_PREDICATE_SUPPORT = 0.34
#: ... unless NLI entails the claim at least this much: a paraphrase may say the
#: predicate in none of its words ("ice covered the river").
SILENT_PREDICATE_ENTAILMENT = 0.5
#: ... or the best window's embedding cosine is at least this: the source then means
#: what the claim says in other words ("passed away" / "died", "called off" /
#: "cancelled": hand-written paraphrases 0.57–0.85; sources about something else that
#: share the subject and a date 0.36–0.56, session 24).
SILENT_PREDICATE_MEANING = 0.5
#: ... unless NLI reads the pair as neutral at least this much (1 − entailment −
#: contradiction at the best window): the closeness in meaning is then the shared
#: subject and date, not the predicate ("The bank raised interest rates in May." /
#: "The bank opened a new branch … in May.": cosine 0.65, neutral 0.82; session 37).
SILENT_PREDICATE_NEUTRAL = 0.75


def silent_on_predicate(signals: Signals) -> bool:
    """No window NLI read speaks of the claim's predicate (:mod:`.predicate`), neither NLI
    nor the embedding stage reads the claim's meaning in the source (a close meaning
    that NLI reads as confidently neutral is the shared subject's:
    :data:`SILENT_PREDICATE_NEUTRAL`), the consistency stage found no conflict (which is
    about it) and confirmed no quantity of the claim's:
    "The trail is about 5 kilometres long." is spoken of by "just over three miles", in
    none of its words; nor every value confirmed written otherwise ("launched in the
    first quarter of 2023" / "went on sale in February 2023": NLI misreads rewritten
    values, ``consistency_paraphrased``). A date confirmed as written is not enough: it
    says when, not what ("froze over in January 1963")."""
    return (
        signals.predicate_unspoken
        and (signals.nli_entailment or 0.0) < SILENT_PREDICATE_ENTAILMENT
        and signals.embedding is not None
        and (signals.embedding < SILENT_PREDICATE_MEANING or _read_as_neutral(signals))
        and not explicit_conflict(signals)
        and not signals.consistency_quantity_agreed
        and not signals.consistency_paraphrased
    )


def _read_as_neutral(signals: Signals) -> bool:
    """NLI found the source neither entails nor contradicts the claim, confidently."""
    if signals.nli_entailment is None:
        return False
    contradiction = signals.nli_contradiction or 0.0
    return 1.0 - signals.nli_entailment - contradiction >= SILENT_PREDICATE_NEUTRAL


def _learned_contradiction(signals: Signals) -> float | None:
    """The combiner's learned contradiction score (None: no model, no NLI, or a judge scored)."""
    if signals.llm is not None:
        return None
    combiner = load_combiner()
    return None if combiner is None else combiner.contradiction_score(signals)


def _learned_support(signals: Signals) -> float | None:
    if signals.llm is not None:
        return None
    combiner = load_combiner()
    return None if combiner is None else combiner.support(signals)


#: Minimum :func:`relatedness` for a ``contradicted`` verdict. Contradicted rows
#: of the dev files are on-topic by construction, so this floor costs them little
#: while it keeps unrelated sources unsupported (docs/verification.md).
RELATED_FLOOR = 0.4


#: Below this best-window embedding cosine a source is far from the claim in meaning,
#: whatever words they share: the low end of the fusion's embedding ramp
#: (``FusionWeights.embedding_low``), where the embedding signal already counts as 0.
MEANING_FLOOR = 0.2


def relatedness(signals: Signals) -> float | None:
    """How much the source is about the claim: the best of claim recall and embedding cosine,
    or the cosine alone when it is below :data:`MEANING_FLOOR`.

    None when neither ran (nothing to gate on). NLI is deliberately not used: its
    "contradiction" on unrelated pairs is the failure this gate exists for. Why the
    cosine alone when it is that low: shared words are then a coincidence of a place or a
    year ("The river flooded the town in 1952." / "The town's bakery has been run by the
    same family since 1952 …": recall 0.5, cosine 0.16), and the pair was *weak* on them
    (session 18; on the dev files 4 such rows were weak or supported, 1 of them labelled
    supported).
    """
    if signals.embedding is not None and signals.embedding < MEANING_FLOOR:
        return signals.embedding
    values = [v for v in (signals.recall, signals.embedding) if v is not None]
    return max(values) if values else None


def shares_only_values(signals: Signals) -> bool:
    """The source uses none of the claim's topic words but one of its values (a number, a
    unit, a time: :mod:`.topic_words`), is not close to it in meaning (best-window
    embedding cosine below :data:`SILENT_PREDICATE_MEANING`, when the stage ran) and does
    not confirm the claim's values written otherwise: it is about something else.
    "Unemployment fell to 4% in March." is not supported by a bakery that raised its
    prices by 4% in March (NLI entails it, 0.93), nor "3 million passengers last year"
    refuted by a zoo's "1.2 million visitors last year",
    however NLI reads the pair or the two values anchor (both on "last year").

    Why each condition (session 33): a source that shares no word at all is a paraphrase
    or silent ("unable to replicate the result" / "successfully reproduced the original
    finding"), which the other rules read; a value confirmed in another unit ("40 degrees
    Celsius" / "104 degrees Fahrenheit") is no coincidence; and a close meaning keeps a
    source that says the topic in other words ("warmer weather" / "temperature", "the
    bridge collapsed" / "the span gave way": 0.55). The cosine does not separate the
    two well near the bound: unrelated pairs sharing a value measured 0.33–0.52 on
    hand-written probes, paraphrases sharing only a value 0.49–0.63; a bound of 0.6
    turned four such paraphrases unsupported to fix three unrelated pairs, so the
    meaning bound stays the silence test's."""
    if signals.topic_share != 0 or not signals.shares_a_value or signals.consistency_rewritten:
        return False
    return signals.embedding is None or signals.embedding < SILENT_PREDICATE_MEANING


def about_something_else(signals: Signals) -> bool:
    """The source is about something else than the claim, whatever conflict it seems to
    state: it shares nothing with the claim but values (:func:`shares_only_values`), or it
    speaks of the claim's subject's possessor and of no relative of theirs
    (``Signals.relative_unnamed``: "The poet's brother was a sailor." / "The poet was a
    sailor …"), or of the claim's subject only as a relative's possessor ("The painter was
    a sailor." / "The painter's father was a sailor …")."""
    return shares_only_values(signals) or signals.relative_unnamed


def explicit_conflict(signals: Signals) -> bool:
    """The consistency stage found the same fact stated otherwise (a value or a negation)."""
    return signals.consistency_anchored or signals.consistency_negation


def values_confirmed(signals: Signals) -> bool:
    """Every date and quantity of the claim is confirmed by a same-subject source value,
    in a source whose meaning is related to the claim's (embedding cosine at least
    :data:`RELATED_FLOOR`, when the stage ran).

    Why the second condition: a shared value alone is weak evidence of the claim's
    event. "The river flooded the town in 1952." against "The town's bakery has been
    run by the same family since 1952 …" confirms the year (embedding cosine 0.16) and
    was lifted to *supported*; on the dev files every lifted row below that cosine (6
    of 6) was labelled not supported (session 18).
    """
    if signals.consistency_agreement is None or signals.consistency_agreement < 1.0:
        return False
    return signals.embedding is None or signals.embedding >= RELATED_FLOOR


#: A split claim's weakest statement below this focused entailment is taken as not in
#: the evidence at all (hand-written partial claims: 0.05–0.09; session 11).
MISSING_PART_BELOW = 0.1


def a_part_is_missing(signals: Signals) -> bool:
    """One statement of a two-part claim is not in the evidence (its focused entailment
    is near zero): the claim is then at best unsupported, never weakly supported —
    the lexical overlap of the other part is what lifts such a claim's support."""
    weakest = signals.nli_weakest_entailment
    return signals.claim_statements > 1 and weakest is not None and weakest < MISSING_PART_BELOW


def _confidence(distance: float) -> float:
    return round(0.5 + 0.5 * min(1.0, abs(distance) / 0.25), 6)


def decide(
    support: float | None,
    contradiction: float,
    thresholds: Thresholds,
    *,
    has_text: bool,
    signals: Signals | None = None,
) -> tuple[Verdict, float]:
    """The verdict and its confidence under the documented policy.

    ``signals`` (the pair's stage outputs) enable the rules that need more than
    the two fused scores: the relatedness gate on ``contradicted``, an explicit
    conflict overriding support, and confirmed values lifting a weak support.
    """
    if not has_text or support is None:
        return Verdict.UNVERIFIABLE, 1.0
    t = thresholds
    if signals is not None and about_something_else(signals):
        # not evidence either way, even of a value conflict
        return Verdict.UNSUPPORTED, 0.75
    related = relatedness(signals) if signals is not None else None
    conflict = signals is not None and explicit_conflict(signals)
    # an explicit conflict is itself evidence of relatedness: the same fact, other value
    on_topic = related is None or related >= RELATED_FLOOR or conflict
    if not on_topic:
        # neither claim words nor meaning in the source: not evidence either way,
        # whatever NLI reads into the pair (it entails or contradicts unrelated pairs)
        assert related is not None
        return Verdict.UNSUPPORTED, _confidence(RELATED_FLOOR - related)
    if (
        signals is not None
        and (signals.consistency_unknown or signals.consistency_reversed)
        and not conflict
    ):
        # the source says the claim's matter is not known, or states the other direction
        # of its causal relation: no evidence either way
        return Verdict.UNSUPPORTED, 0.75
    may_contradict = (
        conflict
        or signals is None
        or not (
            # NLI's contradiction is about a statement the evidence omits,
            signals.nli_contradiction_unrelated
            # or about something else the source says of the claim's subject
            or signals.nli_contradiction_off_predicate
            # or NLI misread a rewritten value the consistency stage confirmed
            or (signals.consistency_paraphrased and signals.claim_statements == 1)
        )
    )
    if may_contradict and contradiction >= t.contradicted and (support < t.supported or conflict):
        return Verdict.CONTRADICTED, _confidence(contradiction - t.contradicted)
    if conflict and support >= t.weak:
        return Verdict.WEAK, _confidence(min(support - t.weak, t.supported - support))
    if support >= t.weak and signals is not None and a_part_is_missing(signals):
        # evidence for one part is no evidence for the other: neither "supported" (the
        # whole claim's lexical overlap and reading lift it, session 38) nor "weakly"
        return Verdict.UNSUPPORTED, _confidence(support - t.weak)
    if support >= t.supported:
        return Verdict.SUPPORTED, _confidence(support - t.supported)
    if (
        support >= t.weak
        and signals is not None
        and values_confirmed(signals)
        and signals.claim_statements == 1  # values of one part say nothing of the other
    ):
        return Verdict.SUPPORTED, _confidence(support - t.weak)
    if support >= t.weak:
        return Verdict.WEAK, _confidence(min(support - t.weak, t.supported - support))
    return Verdict.UNSUPPORTED, _confidence(t.weak - support)
