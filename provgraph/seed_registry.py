"""The seed's ``store._citation_registry`` (key → node id), as a view of the graph.

``pydantic_ai_provenance.ProvenanceStore`` kept its citation keys in a private
dict, and its own test suite writes to it
(``store._citation_registry["d_1"] = "nonexistent-id"``). provgraph keeps keys
on the nodes in the graph store (embedded or Neo4j) so that verification,
attribution and the API see them; this view gives seed code the dict it
touched, backed by that store: reading resolves a key, writing binds it (to a
recorded node at once, else when the node is added, as a key handed out before
``add_node``), iteration lists the session's keys.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from typing import TYPE_CHECKING

from provgraph.errors import ValidationError

if TYPE_CHECKING:
    from provgraph.provenance_store import ProvenanceStore


class CitationRegistryView(MutableMapping[str, str]):
    """Key → node id of one :class:`ProvenanceStore` session (a live view, no copy)."""

    def __init__(self, store: ProvenanceStore) -> None:
        self._store = store

    def __getitem__(self, key: str) -> str:
        node_id = self._store.resolve_citation(key)
        if node_id is None:
            raise KeyError(key)
        return node_id

    def __setitem__(self, key: str, node_id: str) -> None:
        self._store.bind_citation_key(key, node_id)

    def __delitem__(self, key: str) -> None:
        """Only a key still waiting for its node can be taken back.

        A key bound to a recorded node is part of the graph (reports and
        citations refer to it); removing it is refused with a clear error.
        """
        if not self._store.forget_pending_key(key):
            if key in self:
                raise ValidationError(
                    f"citation key {key!r} is bound to a recorded node and cannot be removed",
                    path="_citation_registry",
                )
            raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._store.citation_keys())

    def __len__(self) -> int:
        return len(self._store.citation_keys())
