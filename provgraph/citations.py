"""Inline citation tags: ``[REF|key1|key2|…]``.

Compatible with ``pydantic_ai_provenance.citations``. Grammar: the literal
``[REF|``, one or more keys separated by ``|``, then ``]``; each key matches
``[A-Za-z_][A-Za-z0-9_]*``. Anything else (``[ref|d_1]``, ``[REF d_1]``,
``[REF|]``, ``[REF|1x]``, ``[REF|d-1]``) is plain text, never a tag.

Keys are scoped to a session: ``d_N`` names a data read, ``a_N`` a sub-agent's
output. Rewriting functions here touch only the characters of tags, so text
outside tags is byte-identical after any rewrite.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

KEY_PATTERN = r"[A-Za-z_][A-Za-z0-9_]*"
_KEY_RE = re.compile(rf"^{KEY_PATTERN}$")
_TAG_RE = re.compile(rf"\[REF\|({KEY_PATTERN}(?:\|{KEY_PATTERN})*)\]")

_KEY_PREFIX_DATA = "d"
_KEY_PREFIX_AGENT = "a"
DATA_KEY_PREFIX = _KEY_PREFIX_DATA
AGENT_KEY_PREFIX = _KEY_PREFIX_AGENT

FILE_PATH_ARG_NAMES = ("file_path", "path", "file", "filename", "filepath", "url", "uri", "source")
"""Argument names taken as a source's location, highest priority first (seed order)."""


@dataclass
class CitationRef:
    """One parsed tag: its keys in written order and the raw tag text (seed shape).

    ``refs`` is a list, as in the seed, so ``ref.refs == ["d_1"]`` holds;
    ``str(ref)`` renders the tag from ``refs``.
    """

    refs: list[str]
    raw: str

    @property
    def keys(self) -> list[str]:
        """The keys as a new list (convenience)."""
        return list(self.refs)

    def __str__(self) -> str:
        return format_tag(self.refs)


def is_valid_key(key: str) -> bool:
    """Whether ``key`` is a syntactically valid citation key."""
    return bool(_KEY_RE.match(key))


def citation_tag_spans(text: str) -> list[tuple[int, int, CitationRef]]:
    """Every tag as ``(start, end, ref)`` with ``text[start:end] == ref.raw``."""
    return [
        (m.start(), m.end(), CitationRef(m.group(1).split("|"), m.group(0)))
        for m in _TAG_RE.finditer(text)
    ]


def parse_citations(text: str) -> list[CitationRef]:
    """Every tag in ``text``, in order. Never raises on any string."""
    return [ref for _, _, ref in citation_tag_spans(text)]


def cited_keys(text: str) -> list[str]:
    """Distinct keys cited anywhere in ``text``, in first-seen order."""
    seen: dict[str, None] = {}
    for ref in parse_citations(text):
        for key in ref.refs:
            seen.setdefault(key, None)
    return list(seen)


def format_tag(keys: Iterable[str]) -> str:
    """Render keys as one tag; an empty key list renders as the empty string."""
    keys = list(keys)
    return f"[REF|{'|'.join(keys)}]" if keys else ""


def rewrite_citation_tags(text: str, replace: Callable[[int, CitationRef], str]) -> str:
    """Replace each tag with ``replace(index, ref)``; every other character is kept.

    The replacement may be a different length (or empty): the result is rebuilt
    from the original slices between tags, so no offset drift can garble the
    neighbouring text (defect 1 of the seed).
    """
    parts: list[str] = []
    cursor = 0
    for index, (start, end, ref) in enumerate(citation_tag_spans(text)):
        parts.append(text[cursor:start])
        parts.append(replace(index, ref))
        cursor = end
    parts.append(text[cursor:])
    return "".join(parts)


def strip_inline_citation_tags(text: str) -> str:
    """Remove every tag; the text between tags is kept exactly."""
    return rewrite_citation_tags(text, lambda _i, _r: "")


def strip_inline_citation_tags_preserve_leading_ref_header(text: str) -> str:
    """Remove tags, but keep a first line that is exactly one tag (a source header)."""
    first_line, sep, rest = text.partition("\n")
    if sep and _TAG_RE.fullmatch(first_line):
        return first_line + sep + strip_inline_citation_tags(rest)
    if not sep and _TAG_RE.fullmatch(first_line):
        return first_line
    return strip_inline_citation_tags(text)


def format_cited_content(content: Any, key: str) -> str:
    """What a model sees for a cited tool or sub-agent result: a header line, then the body.

    Inline tags inside the body are stripped so only the header carries a key.
    """
    return f"[REF|{key}]\n" + strip_inline_citation_tags(str(content))


def extract_file_path(args: Mapping[str, Any], *, any_string: bool = False) -> str | None:
    """The first argument named like a path or URL, in :data:`FILE_PATH_ARG_NAMES` order.

    A present, non-``None`` value is returned as text. With ``any_string`` the
    first string argument is the fallback when no name matches (the seed's
    rule; provgraph's recorder leaves it off, because a ``query`` or ``id``
    argument is not a file path).
    """
    for name in FILE_PATH_ARG_NAMES:
        value = args.get(name)
        if value is not None:
            return str(value)
    if any_string:
        return next((v for v in args.values() if isinstance(v, str)), None)
    return None


def key_kind(key: str) -> str | None:
    """``"data"`` for ``d_N``, ``"agent"`` for ``a_N``, else ``None``."""
    prefix, _, number = key.partition("_")
    if not number.isdigit():
        return None
    return {"d": "data", "a": "agent"}.get(prefix)


# ---------------------------------------------------------------------------
# The seed's private helpers, kept under their names: its users (and its test
# suite) import them. New code should use the public functions above.


def _is_data_key(key: str) -> bool:
    """Seed helper: ``key`` has the data prefix (``d_…``)."""
    return key.startswith(DATA_KEY_PREFIX + "_")


def _is_agent_key(key: str) -> bool:
    """Seed helper: ``key`` has the agent-output prefix (``a_…``)."""
    return key.startswith(AGENT_KEY_PREFIX + "_")


def _extract_file_path(args: Mapping[str, Any]) -> str | None:
    """Seed helper: :func:`extract_file_path` with the first-string fallback."""
    return extract_file_path(args, any_string=True)


def _format_cited_content(result: object, citation_key: str) -> str:
    """Seed helper: :func:`format_cited_content`."""
    return format_cited_content(result, citation_key)
