"""The API process's garbage-collector threshold: fewer, cheaper collections under big reads.

Measured (issue 16, ADR 0009): a heavy allowed GraphQL query allocates millions
of short-lived objects; with Python's default young-generation threshold (700)
that triggered ~660 collections per query, among them full (generation 2)
collections of 0.3-0.8 s each. A collection stops every thread of the process,
so ingestion stalled behind it even with the query on its own thread. With
10,000 the same query ran no full collection, spent 0.3-0.6 s instead of
2.7 s collecting, and the longest stall fell to ~0.1-0.2 s. The cost is a few
more megabytes of garbage between collections.
"""

from __future__ import annotations

import gc


def set_young_threshold(threshold: int) -> None:
    """Collect the youngest generation every ``threshold`` allocations (0: keep Python's)."""
    if threshold > 0:
        _, older, oldest = gc.get_threshold()
        gc.set_threshold(threshold, older, oldest)
