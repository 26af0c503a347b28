"""Did a source sentence end what a positive statement asserts?

"The airline ended its Lisbon service" ends "The airline flies to Lisbon"; "the
newspaper ended its print edition" ends "The newspaper publishes a print
edition". The shipped NLI model reads such a premise as *entailing* the positive
statement (the words are all there; "ended" is one token among them), so the
polarity reading of "no longer flies to Lisbon" (:mod:`.polarity`) cannot use it.
This rule supplies what the model misses: an ending verb (*ended*, *stopped*,
*ceased*, *discontinued*, *dropped*, *abandoned*, *scrapped*, *axed*, *phased
out*, *shut down*, *closed*, *withdrew*, *gave up*, *quit*, *retired*) in a
sentence about the statement's subject, not negated, whose object shares a word
with what the statement says its subject does (the words after its verb: "to
*Lisbon*", "a *print edition*"). A statement with nothing after its verb ("The
shop opens") is never matched: the verb alone names too little.
"""

from __future__ import annotations

from provgraph.verification.claimsplit import subject_and_verb
from provgraph.verification.negation import negated_scopes
from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import ENDING_VERBS, clauses, content_stems

#: Content words of the ending's object compared with the statement's.
_OBJECT_WORDS = 4


def _subject_and_object(statement: str) -> tuple[set[str], set[str]] | None:
    """Content stems of the statement's subject and of what follows its verb."""
    head = subject_and_verb(statement)
    if head is None:
        return None
    subject, subject_verb = head
    rest = statement[len(subject_verb) :] if statement.startswith(subject_verb) else ""
    return set(content_stems(subject)), set(content_stems(rest))


def ends_statement(statement: str, window: str) -> bool:
    """Does a sentence of ``window`` about the statement's subject end what it asserts?"""
    parts = _subject_and_object(statement)
    if parts is None:
        return False
    subject, thing = parts
    if not subject or not thing:
        return False
    for sentence in split_sentences(window):
        words = set(content_stems(sentence.text))
        if len(subject & words) * 2 < len(subject):
            continue
        negated = {w for _cue, scope in negated_scopes(sentence.text) for w in scope}
        for clause in clauses(sentence.text):
            for m in ENDING_VERBS.finditer(clause.text):
                ended = content_stems(clause.text[m.end() :])[:_OBJECT_WORDS]
                verb = content_stems(m.group(0))
                if verb and verb[0] in negated:
                    continue  # "never stopped flying to Lisbon"
                if thing & set(ended):
                    return True
    return False
