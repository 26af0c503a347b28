"""Citation tag grammar and rewrites: the seed's worked cases and property tests."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from provgraph.citations import (
    citation_tag_spans,
    cited_keys,
    format_cited_content,
    parse_citations,
    rewrite_citation_tags,
    strip_inline_citation_tags,
    strip_inline_citation_tags_preserve_leading_ref_header,
)


def test_parse_multi_key_tag() -> None:
    refs = parse_citations("Claim. [REF|d_1|a_2]")
    assert len(refs) == 1
    assert refs[0].keys == ["d_1", "a_2"]
    assert refs[0].raw == "[REF|d_1|a_2]"


def test_malformed_tags_are_plain_text() -> None:
    for text in ["[ref|d_1]", "[REF d_1]", "[REF|]", "[REF|1x]", "[REF|d-1]"]:
        assert parse_citations(text) == [], text


def test_tag_spans() -> None:
    spans = citation_tag_spans("[REF|d_1|a_2]")
    assert [(s, e) for s, e, _ in spans] == [(0, 13)]


def test_strip_inline_tags() -> None:
    text = "Claim. [REF|d_1] Another claim. [REF|a_2|d_3]"
    assert strip_inline_citation_tags(text) == "Claim.  Another claim. "


def test_strip_preserves_leading_header() -> None:
    text = "[REF|d_1]\nBody text [REF|d_2] with inline tag."
    assert strip_inline_citation_tags_preserve_leading_ref_header(text) == (
        "[REF|d_1]\nBody text  with inline tag."
    )


def test_cited_keys_distinct_in_order() -> None:
    assert cited_keys("a [REF|d_2|d_1] b [REF|d_1][REF|a_3]") == ["d_2", "d_1", "a_3"]


def test_format_cited_content_strips_inner_tags() -> None:
    assert format_cited_content("x [REF|d_9] y", "d_1") == "[REF|d_1]\nx  y"


_TAG = re.compile(r"\[REF\|[A-Za-z_][A-Za-z0-9_]*(?:\|[A-Za-z_][A-Za-z0-9_]*)*\]")
_texts = st.lists(
    st.one_of(
        st.text(max_size=30),
        st.sampled_from(["[REF|d_1]", "[REF|d_1|a_2]", "[REF|", "]", "|", "[REF|bad-key]", "\n"]),
    ),
    max_size=12,
).map("".join)


@given(_texts)
def test_parsing_and_stripping_never_raise(text: str) -> None:
    parse_citations(text)
    strip_inline_citation_tags(text)
    strip_inline_citation_tags_preserve_leading_ref_header(text)


@given(_texts, st.sampled_from(["", "[REF|x]", "[REF|d_1|d_2|d_3]", "zz"]))
def test_text_outside_tags_is_byte_identical_after_any_rewrite(text: str, replacement: str) -> None:
    rewritten = rewrite_citation_tags(text, lambda _i, _r: replacement)
    spans = citation_tag_spans(text)
    outside = []
    cursor = 0
    for start, end, _ in spans:
        outside.append(text[cursor:start])
        cursor = end
    outside.append(text[cursor:])
    # the rewritten text is exactly the outside pieces joined by the replacement
    assert rewritten == replacement.join(outside)
