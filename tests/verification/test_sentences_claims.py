"""Sentence splitting and claim extraction: seed worked cases, defects 3 and 6."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from provgraph.verification import ClaimMode, context_before_span, extract_claims
from provgraph.verification.sentences import split_sentences


def texts(s: str) -> list[str]:
    return [x.text for x in split_sentences(s)]


def test_abbreviations_do_not_split() -> None:
    assert texts("Dr. Smith found revenue grew. Then it fell.") == [
        "Dr. Smith found revenue grew.",
        "Then it fell.",
    ]
    for abbr in (
        "Mr.",
        "Mrs.",
        "Ms.",
        "Prof.",
        "Sr.",
        "Jr.",
        "St.",
        "vs.",
        "etc.",
        "e.g.",
        "i.e.",
        "cf.",
        "al.",
        "Fig.",
        "No.",
        "Vol.",
        "pp.",
        "Ch.",
    ):
        assert len(split_sentences(f"See {abbr} Example here. Next one.")) == 2, abbr


def test_initials_decimals_urls_quotes() -> None:
    assert texts("The U.S. economy grew 3.5 percent. J. R. Smith agreed.") == [
        "The U.S. economy grew 3.5 percent.",
        "J. R. Smith agreed.",
    ]
    assert texts("See https://example.com/a.b?x=1. Next sentence.") == [
        "See https://example.com/a.b?x=1.",
        "Next sentence.",
    ]
    assert texts('He said "Stop." Then he left.') == ['He said "Stop."', "Then he left."]


def test_tags_after_punctuation_belong_to_the_sentence() -> None:
    text = "Revenue grew. [REF|d_1][REF|d_2] Costs fell."
    assert texts(text) == ["Revenue grew. [REF|d_1][REF|d_2]", "Costs fell."]


def test_spans_index_the_text() -> None:
    text = "  First one.\n\nSecond one! Third?  "
    for s in split_sentences(text):
        assert text[s.start : s.end] == s.text


@given(st.text(max_size=300))
def test_splitter_never_raises_and_spans_are_exact(text: str) -> None:
    for s in split_sentences(text):
        assert text[s.start : s.end] == s.text
        assert s.text.strip() == s.text and s.text


def test_seed_context_before_worked_cases() -> None:
    text = "First sentence. [REF|d_1] Irrelevant. Second claim. [REF|d_2]"
    assert context_before_span(text, text.index("[REF|d_2]")) == "Second claim."
    assert context_before_span("[REF|d_1] Claim.", 0) == ""


def test_defect_6_abbreviation_in_claim() -> None:
    text = "Dr. Smith found revenue grew. [REF|d_1]"
    assert context_before_span(text, text.index("[REF")) == "Dr. Smith found revenue grew."


def test_defect_3_adjacent_tags_share_the_claim() -> None:
    for text in ("X grew fast. [REF|d_1][REF|d_2]", "X grew fast. [REF|d_1] \n [REF|d_2]"):
        claims = extract_claims(text)
        assert [c.text for c in claims] == ["X grew fast.", "X grew fast."]
        assert claims[0] is claims[1]
        assert claims[0].tag_indices == (0, 1)
        assert context_before_span(text, text.rindex("[REF")) == "X grew fast."


def test_claim_spans_and_paragraph_cut() -> None:
    text = "Old paragraph claim.\n\nNew claim here. [REF|d_1]"
    (claim,) = extract_claims(text)
    assert claim.text == "New claim here."
    assert text[claim.start : claim.end] == "New claim here."


def test_sentence_mode() -> None:
    text = "Intro. Sales rose [REF|d_1] and costs fell. Outro."
    (claim,) = extract_claims(text, mode=ClaimMode.SENTENCE)
    assert claim.text == "Sales rose and costs fell."
    assert text[claim.start : claim.end] == "Sales rose [REF|d_1] and costs fell."


def test_max_sentences() -> None:
    text = "A one. B two. C three. [REF|d_1]"
    assert context_before_span(text, text.index("[REF"), max_sentences=2) == "B two. C three."
