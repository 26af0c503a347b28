"""Per-session ingest locks: what replaced the per-project lock (docs/adr/0012).

A batch's read-decide-write (dedupe by event id, citation-key conflicts,
per-field last-writer-wins) needs the state it read to stay put until it
commits. Everything it reads and writes is scoped to its sessions: deliveries
of its events, key bindings ``(session, key)``, the nodes its events write.
So the batch locks its sessions, and batches of other sessions run beside it.

The one way two sessions meet on a node is events of different sessions
naming the same node id (``session_id`` is itself a last-writer-wins field).
:func:`lock_sessions` therefore also locks the session currently stored on
each node the batch writes, and repeats until no new session turns up: a
node's session only changes under the lock of the session it had, so once
the batch holds that lock, nobody else can be writing the node (the one
window left, a brand-new node id written by three sessions within one
commit, is described in the ADR). Event ids
are unique per project; a (malformed) event id reused in another session is
caught by the ``:Delivery`` uniqueness constraint and the batch is re-run
(``adapter``), which then reports it as a duplicate.

These locks are taken when the audit chain is off. With the chain on (the
default) every batch of a project appends to one chain, so the project's
batches take turns at the chain head anyway (:mod:`~provgraph.store.neo4j.audit_ops`);
the chained lookup takes the head *first*, before it reads, and the head is
then the lock that keeps what the batch read true until its commit. The session
locks would serialise nothing more and cost a statement that seeks every node of
the batch (≈ 10 % of a batch's time at 10^5 nodes: docs/neo4j-store.md, session
14), so chained ingest does not take them; an erasure, chained, takes the head
first too. Every process writing a project must use the same chain setting.
"""

from __future__ import annotations

from collections.abc import Iterable

from provgraph.errors import StoreError
from provgraph.store.neo4j import cypher_locks
from provgraph.store.neo4j.operations import Program, Statement

MAX_LOCK_ROUNDS = 8
"""Rounds of "lock, look for more sessions"; a node changes session rarely, so one
round is the rule and two the exception."""


def lock_sessions(
    project: str, sessions: Iterable[str], node_ids: Iterable[str]
) -> Program[frozenset[str]]:
    """Lock ``sessions`` and the sessions stored on ``node_ids``; returns all held."""
    nodes = sorted(set(node_ids))
    wanted = set(sessions)
    held: set[str] = set()
    for _ in range(MAX_LOCK_ROUNDS):
        new = sorted(wanted - held)
        records = yield Statement(
            cypher_locks.lock_sessions_query(),
            {"project": project, "sessions": new, "node_ids": nodes},
        )
        held |= set(new)
        wanted |= {str(r["session_id"]) for r in records}
        if wanted <= held:
            return frozenset(held)
    raise StoreError(
        f"ingest: the sessions of {len(nodes)} nodes kept changing while locking them "
        f"({MAX_LOCK_ROUNDS} rounds); retry the batch"
    )
