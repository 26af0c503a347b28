"""The API process's garbage-collector threshold: fewer, cheaper collections under big reads.

Measured (issue 16, ADR 0009, loaded 2-core machine): a heavy allowed GraphQL
query allocates millions of short-lived objects; with Python's default
young-generation threshold (700) that triggered ~660 collections per query
(3.0-3.3 s), 4-5 of them full (generation 2) collections of 0.3-0.9 s each. A
collection stops every thread of the process, so ingestion stalled behind it
even with the query on its own thread. With 10,000 the same query ran 35-37
collections (0.7-0.9 s), and a full one only about every third query. The cost
is a few more megabytes of garbage between collections.
"""

from __future__ import annotations

import gc


def set_young_threshold(threshold: int) -> None:
    """Collect the youngest generation every ``threshold`` allocations (0: keep Python's)."""
    if threshold > 0:
        _, older, oldest = gc.get_threshold()
        gc.set_threshold(threshold, older, oldest)
