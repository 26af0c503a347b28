"""Canonical JSON (RFC 8785) and digests: the bytes every chain hash is computed over."""

from __future__ import annotations

import hashlib

import pytest

from provgraph.audit.canonical import canonical_json, digest, text_digest


def test_keys_are_sorted_by_utf16_code_units_and_whitespace_is_dropped() -> None:
    value = {"b": 1, "a": [1, 2, {"d": True, "c": None}], "\u20ac": "x", "\U0001f600": "y"}
    assert canonical_json(value) == (
        '{"a":[1,2,{"c":null,"d":true}],"b":1,"\u20ac":"x","\U0001f600":"y"}'.encode()
    )


@pytest.mark.parametrize(
    ("number", "text"),
    [
        (1.0, "1"),
        (-0.0, "0"),
        (1e21, "1e+21"),
        (1e-7, "1e-7"),
        (0.1, "0.1"),
        (123456789012.5, "123456789012.5"),
        (2**53 - 1, "9007199254740991"),
    ],
)
def test_numbers_use_the_ecmascript_form(number: float, text: str) -> None:
    assert canonical_json(number) == text.encode()


def test_integers_beyond_ijson_range_hash_as_their_decimal_string() -> None:
    big = 2**64
    assert canonical_json({"n": big}) == b'{"n":"18446744073709551616"}'


def test_strings_escape_only_what_rfc8785_requires() -> None:
    assert canonical_json('a"\\\n\u0001é') == b'"a\\"\\\\\\n\\u0001\xc3\xa9"'


def test_digest_of_the_canonical_bytes_is_pinned() -> None:
    value = {"project": "p", "seq": 1, "events": ["x"]}
    assert canonical_json(value) == b'{"events":["x"],"project":"p","seq":1}'
    # pinned: a change of serialisation would silently invalidate every stored chain
    assert digest(value) == "5b3972da822c9c0225ffdf5e8d20a44a5001175c7eaa00b465d51ea42ab99fa2"


def test_key_order_and_insertion_order_do_not_change_the_digest() -> None:
    assert digest({"a": 1, "b": [1, {"x": 1, "y": 2}]}) == digest(
        {"b": [1, {"y": 2, "x": 1}], "a": 1}
    )


def test_text_digest_hashes_utf8() -> None:
    assert text_digest("é") == hashlib.sha256("é".encode()).hexdigest()


@pytest.mark.parametrize(
    "value",
    [
        {"a": 1.5, "b": [0.1, -2.25, 1e-3, 123.456]},
        {"x": 1.0, "y": 1e16, "z": 1e-7, "w": 5e-324, "v": 1.7976931348623157e308},
        {"big": 2**60, "neg": -(2**53), "ok": 2**53 - 1},
        {"\U0001f600": 1, "\ue000": 2, "a\u2028b": "\u0000\u001f\u007f\u2029"},
        {"nested": [{"k": None, "t": True, "f": False, "s": 'é\\"/'}], "": []},
        ["plain", 0, -0, 10, "x" * 100],
    ],
)
def test_the_fast_path_agrees_with_the_reference_encoder(value: object) -> None:
    import rfc8785

    from provgraph.audit.canonical import _safe

    assert canonical_json(value) == rfc8785.dumps(_safe(value))
