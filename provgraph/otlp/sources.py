"""Which tool spans read a data source, and the citation key each read gets (pure).

A span alone cannot say whether ``read_document`` read a source the answer
may cite or did arithmetic. provgraph decides, for each tool span, in order:

1. ``provgraph.citation_key`` on the span: a data read with that key;
2. the result's first line is one ``[REF|d_N]`` tag (the convention by which a
   tool shows the model the key to cite): a data read with that key;
3. the tool is *named as a source tool*: by the resource attribute
   ``provgraph.source_tools`` (string array, or a comma-separated string), the
   request header ``X-Provgraph-Source-Tools``, or the server setting
   ``PROVGRAPH_OTLP_SOURCE_TOOLS``; or the span has ``provgraph.source = true``.
   The read gets the session's next ``d_N`` when it is ingested (keys already
   given to the node are kept, so a re-sent span keeps its key);
4. otherwise a plain tool call and result.

Retrieval spans (OpenInference ``RETRIEVER``, GenAI ``retrieval``) are always
data reads, one per document (:mod:`provgraph.otlp.convert`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from provgraph.citations import citation_tag_spans
from provgraph.events import is_citation_key
from provgraph.otlp.decode import SpanRecord

SOURCE_TOOLS_ATTR = "provgraph.source_tools"
SOURCE_TOOLS_HEADER = "X-Provgraph-Source-Tools"
SOURCE_FLAG_ATTR = "provgraph.source"
CITATION_KEY_ATTR = "provgraph.citation_key"
_KEY_NUMBER = re.compile(r"^[a-z]_(\d+)$")


def tool_names(value: Any) -> frozenset[str]:
    """Tool names from a string array or a comma-separated string (blank names dropped)."""
    items: Iterable[Any] = value.split(",") if isinstance(value, str) else value
    if not isinstance(value, str | list | tuple):
        return frozenset()
    return frozenset(str(v).strip() for v in items if str(v).strip())


def header_key(text: str | None) -> str | None:
    """The key of a ``[REF|key]`` first line (how cited tool results are shown to models)."""
    if not text:
        return None
    first = text.partition("\n")[0].strip()
    spans = citation_tag_spans(first)
    if (
        len(spans) == 1
        and spans[0][0] == 0
        and spans[0][1] == len(first)
        and len(spans[0][2].refs) == 1
    ):
        key = spans[0][2].refs[0]
        return key if is_citation_key(key) else None  # any other tag text is plain content
    return None


def read_key(span: SpanRecord, output: str | None) -> str | None:
    """Rules 1–2: the key the span or its result names."""
    attr = span.attributes.get(CITATION_KEY_ATTR)
    return attr if isinstance(attr, str) else header_key(output)


def is_source_tool(span: SpanRecord, tool: str | None, configured: frozenset[str]) -> bool:
    """Rule 3: the tool is named a source by the span, its resource, the request or settings."""
    if span.attributes.get(SOURCE_FLAG_ATTR) is True:
        return True
    if not tool:
        return False
    return tool in configured or tool in tool_names(span.resource.get(SOURCE_TOOLS_ATTR, ()))


def next_keys(
    pending: list[tuple[str, str]],
    session_keys: Mapping[str, Iterable[str]],
    kept: Mapping[str, str],
    prefix: str = "d",
) -> dict[str, str]:
    """Keys for unkeyed reads ``(session, node_id)``, in order, after each session's highest.

    ``kept`` are keys the nodes already have (a re-sent span keeps its key).
    ``d_N`` and ``a_N`` share one counter per session, as in the SDK.
    """
    highest = {
        session: max(
            (int(m.group(1)) for k in keys if (m := _KEY_NUMBER.match(k))),
            default=0,
        )
        for session, keys in session_keys.items()
    }
    out: dict[str, str] = {}
    for session, node in pending:
        if node in kept:
            out[node] = kept[node]
            continue
        if node in out:
            continue
        highest[session] = highest.get(session, 0) + 1
        out[node] = f"{prefix}_{highest[session]}"
    return out
