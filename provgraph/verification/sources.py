"""Resolving citation keys to source text, through the storage port only.

A :class:`SourceResolver` answers two questions: does a key exist in the
session (``resolve`` returns ``None`` when it does not — the *existence*
check), and what text does it name (``ResolvedSource.text``, possibly empty:
then the citation is *unverifiable*, not unsupported). Evidence offsets in a
report always index ``ResolvedSource.text``.

:class:`GraphSourceResolver` reads a :class:`~provgraph.store.port.GraphStore`;
:class:`MappingSourceResolver` wraps a plain dict for tests and benchmarks.
Seed-API functions accept either a resolver or any object with a
``source_resolver()`` method (the seed-compatible ``ProvenanceStore``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from provgraph.citations import citation_tag_spans, key_kind, strip_inline_citation_tags

if TYPE_CHECKING:
    from provgraph.graph import ProvenanceNode
    from provgraph.store.port import GraphStore

TEXT_DATA_KEYS: tuple[str, ...] = ("output", "result", "text", "content")
"""``node.data`` keys read (in this order) when a node has no ``content``."""

_RESULT_EDGE_LABELS = ("returns", "produces")


@dataclass(frozen=True)
class ResolvedSource:
    """What a citation key names: the node and the text claims are checked against."""

    key: str
    node_id: str
    node_type: str | None
    label: str
    text: str


@runtime_checkable
class SourceResolver(Protocol):
    """Maps session-scoped citation keys to source text."""

    def resolve(self, key: str) -> ResolvedSource | None:
        """The source a key names, or ``None`` when the key does not exist."""
        ...

    def all_sources(self) -> list[ResolvedSource]:
        """Every source of the session (for the relative check and coverage)."""
        ...


class MappingSourceResolver:
    """A resolver over ``{key: text}`` (tests, benchmarks, callers without a store)."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self._sources = {
            k: ResolvedSource(k, k, "data_read" if key_kind(k) != "agent" else "agent_run", k, v)
            for k, v in sources.items()
        }

    def resolve(self, key: str) -> ResolvedSource | None:
        return self._sources.get(key)

    def all_sources(self) -> list[ResolvedSource]:
        return list(self._sources.values())


def as_resolver(store: Any) -> SourceResolver:
    """Accept a resolver, an object with ``source_resolver()``, or a ``{key: text}`` mapping."""
    if hasattr(store, "source_resolver"):
        resolver = store.source_resolver()
        if isinstance(resolver, SourceResolver):
            return resolver
        raise TypeError(f"{type(store).__name__}.source_resolver() did not return a SourceResolver")
    if isinstance(store, SourceResolver):
        return store
    if isinstance(store, Mapping):
        return MappingSourceResolver({str(k): str(v) for k, v in store.items()})
    raise TypeError(
        f"expected a SourceResolver, an object with source_resolver(), or a mapping; "
        f"got {type(store).__name__}"
    )


def _own_text(node: ProvenanceNode) -> str | None:
    if node.content is not None and str(node.content) != "":
        return str(node.content)
    for name in TEXT_DATA_KEYS:
        value = node.data.get(name)
        if value is not None and str(value) != "":
            return str(value)
    return None


def _strip_ref_header(text: str) -> str:
    """Drop a leading ``[REF|key]`` header line (how tool results are shown to the model)."""
    first, sep, rest = text.partition("\n")
    spans = citation_tag_spans(first)
    if sep and len(spans) == 1 and spans[0][0] == 0 and spans[0][1] == len(first.rstrip()):
        return rest
    return text


class GraphSourceResolver:
    """Resolve keys of one session through the storage port (no adapter-specific calls).

    Text of a node: ``node.content``, else ``node.data`` keys ``output``,
    ``result``, ``text``, ``content``, else the text of its ``returns`` (or
    ``produces``) successor. ``a_N`` keys name a sub-agent's output; inline
    tags are stripped from it, and with ``include_cited_sources_for_agents`` the
    texts of the data sources it cited are appended (separated by a blank
    line), so a claim can be checked against the primary documents too.
    Results are cached per key for the resolver's lifetime (one report).
    """

    def __init__(
        self,
        store: GraphStore,
        project: str,
        session_id: str,
        include_cited_sources_for_agents: bool = False,
    ) -> None:
        self._store = store
        self._project = project
        self._session_id = session_id
        self._include_cited = include_cited_sources_for_agents
        self._cache: dict[str, ResolvedSource | None] = {}

    def _node_text(self, node: ProvenanceNode) -> str:
        own = _own_text(node)
        if own is not None:
            return _strip_ref_header(own)
        for label in _RESULT_EDGE_LABELS:
            for edge in self._store.node_edges(self._project, node.id):
                if edge.source_id != node.id or edge.label != label:
                    continue
                succ = self._store.get_node(self._project, edge.target_id)
                if succ is not None:
                    text = _own_text(succ)
                    if text is not None:
                        return _strip_ref_header(text)
        return ""

    def _build(self, key: str, node: ProvenanceNode) -> ResolvedSource:
        text = self._node_text(node)
        if key_kind(key) == "agent":
            body = strip_inline_citation_tags(text)
            if self._include_cited:
                extra: list[str] = []
                for _s, _e, ref in citation_tag_spans(text):
                    for cited in ref.refs:
                        if cited == key or key_kind(cited) == "agent":
                            continue
                        cited_node = self._store.resolve_citation_key(
                            self._project, self._session_id, cited
                        )
                        if cited_node is not None:
                            cited_text = self._node_text(cited_node)
                            if cited_text and cited_text not in extra:
                                extra.append(cited_text)
                body = "\n\n".join([body, *extra]) if extra else body
            text = body
        node_type = node.type.value if node.type is not None else None
        return ResolvedSource(key, node.id, node_type, node.label, text)

    def resolve(self, key: str) -> ResolvedSource | None:
        if key not in self._cache:
            node = self._store.resolve_citation_key(self._project, self._session_id, key)
            self._cache[key] = None if node is None else self._build(key, node)
        return self._cache[key]

    def all_sources(self) -> list[ResolvedSource]:
        out: list[ResolvedSource] = []
        for entry in self._store.citation_summary(self._project, self._session_id):
            if entry.key not in self._cache:
                self._cache[entry.key] = self._build(entry.key, entry.node)
            source = self._cache[entry.key]
            if source is not None:
                out.append(source)
        return out
