"""A statement the source says is not known: "its effect on stroke risk was not studied".

A source that says a matter was not studied, is unknown or remains unclear neither
supports nor contradicts a claim that asserts it; such a claim is *unsupported*. The
small NLI model reads "The drug reduced the risk of stroke." against "… its effect on
stroke risk was not studied." as a contradiction (0.77), and a two-part claim whose
other part the source states came out *supported* on the lexical overlap.

The rule: a clause of the evidence with an unknown cue (:data:`UNKNOWN_CUE`: "was not
studied / assessed / measured", "did not measure", "was not designed to test", "is
unknown / unclear / uncertain", "remains to be seen", "little is known", "is yet to be
determined", "are still investigating", "remains under investigation"; not "was not
reported", which may report a null result) that speaks of one statement of the claim —
at least two of the statement's own content words and half of them, the cue's words
aside ("its *effect on* cholesterol" counts as one: the effect is the claim's verb).
Never when the claim itself says the matter is unknown or hedges it ("The cause remains
unclear." / "… is still unknown" is a paraphrase), and never when another clause of
the evidence states that statement's words without a cue (the source answers it after
all: "Earlier work left the effect unclear; this trial found that the drug reduced
strokes").
"""

from __future__ import annotations

import re

from provgraph.verification.claimsplit import split_statements
from provgraph.verification.wordsets import clauses, content_stems, sentence_around

UNKNOWN_CUE = re.compile(
    r"\b(?:(?:was|were|is|are|has|have|had)\s+(?:not|never)\s+(?:yet\s+)?(?:been\s+)?"
    r"(?:studied|examined|assessed|measured|evaluated|investigated|tested|known|"
    r"established|determined)|"
    r"(?:did|does|do)\s*(?:not|n't)\s+(?:measure|study|assess|examine|evaluate|investigate|"
    r"test|track|record|look\s+at|address)|"
    r"(?:was|were)\s+not\s+designed\s+to\s+(?:measure|assess|test|detect|evaluate)|"
    r"(?:is|are|was|were|remains?|remained)\s+(?:still\s+)?(?:unclear|unknown|uncertain|"
    r"undetermined|not clear|not known|untested|unexplored)|"
    r"remains? to be (?:seen|determined|established)|little is known|unknown|unclear|"
    r"(?:is|are|was|were)\s+yet\s+to\s+be\s+(?:determined|established|identified)|"
    r"(?:is|are|was|were)\s+(?:still\s+)?(?:investigating|looking\s+into)|"
    r"(?:is|are|remains?)\s+(?:still\s+)?(?:under|being)\s+investigat(?:ion|ed)|"
    r"(?:insufficient|inconclusive|not enough|no conclusive|no clear|too little)\s+"
    r"(?:evidence|data)(?:\s+(?:yet\s+)?(?:to\s+(?:show|say|conclude)|that))?)\b",
    re.IGNORECASE,
)
_HEDGES = re.compile(r"\b(?:may|might|could|possibly|perhaps|whether)\b", re.IGNORECASE)
_MIN_SHARED = 2
_MIN_SHARE = 0.5


#: "its *effect on* cholesterol": the effect stands for the claim's verb ("lowered").
_EFFECT_ON = re.compile(r"\b(?:effects?|impacts?|influence|role)\s+(?:on|of|in)\b", re.I)


def speaks_of(own: set[str], text: str) -> bool:
    words = set(content_stems(UNKNOWN_CUE.sub(" ", text)))
    shared = len(own & words) + (1 if own & words and _EFFECT_ON.search(text) else 0)
    return shared >= _MIN_SHARED and shared >= _MIN_SHARE * len(own)


def _names_part(own: set[str], others: set[str], clause: str, sentence: str) -> bool:
    """A bare cue clause about one part of a two-part claim ("…; headaches were not
    measured"): it names a word only this statement has, and its sentence speaks of
    the statement."""
    mine = own - others
    return bool(mine & set(content_stems(clause))) and speaks_of(own, sentence)


def unknown_statement(claim: str, window: str) -> str | None:
    """The evidence clause that says a statement of ``claim`` is not known, else None."""
    if UNKNOWN_CUE.search(claim) or _HEDGES.search(claim):
        return None
    cut = clauses(window)
    parts = [c.text for c in cut]
    statements = split_statements(claim) or [claim]
    stems = [set(content_stems(statement)) for statement in statements]
    for k, own in enumerate(stems):
        if not own:
            continue
        others = set().union(*(o for j, o in enumerate(stems) if j != k))
        for i, clause in enumerate(parts):
            if not UNKNOWN_CUE.search(clause):
                continue
            sentence = sentence_around(window, cut[i].start, cut[i].end)
            if not speaks_of(own, clause) and not (
                len(stems) > 1 and _names_part(own, others, clause, sentence)
            ):
                continue
            # another clause states it after all; of a two-part claim, with a word of this
            # statement's own ("The programme reduced pain scores" answers nothing of
            # "The programme improved mobility": the subject is in both statements)
            mine = own - others if len(stems) > 1 else own
            answered = any(
                j != i
                and not UNKNOWN_CUE.search(other)
                and speaks_of(own, other)
                and bool(mine & set(content_stems(other)))
                for j, other in enumerate(parts)
            )
            if not answered:
                return clause.strip()
    return None
