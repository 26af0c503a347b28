"""The sessions page filtered by time, paged before it is aggregated (pinned in ``tests/neo4j``).

A session's last event is the newest timestamp among its nodes, so the
``(project, timestamp)`` index range from ``$since`` holds, for every session
that can pass ``since``, its newest node: grouping that range by session gives
each candidate's exact ``last_at`` without reading the rest of the session. The
page order, the cursor and the filters that do not need the aggregates (agent,
verdict) are therefore decided on the candidates, and only the ``$first``
sessions of the page are read in full and summarised. ``until`` and the text
filter need the aggregates: those pages use
:func:`~provgraph.store.neo4j.cypher.list_sessions_query`.
"""

from __future__ import annotations

from provgraph.store.neo4j.cypher import (
    EPOCH_TEXT,
    NODE,
    SESSION_PAGE_RETURN,
    session_cursor_condition,
    session_summary_clause,
    session_verdict_condition,
)


def recent_sessions_query(*, agent: bool, after: bool, verdict: bool = False) -> str:
    """One page of the sessions whose last event is at or after ``$since``.

    Same rows and order as ``list_sessions_query(since=True, ...)`` with the same
    filters; ``$first`` is the page size plus one. The agent filter is an
    existence test on the candidate's nodes (``(project, session_id)`` index),
    which stops at the first node of that agent.
    """
    where = ["session_id IS NOT NULL"]
    if agent:
        where.append(
            f"EXISTS {{ MATCH (a:{NODE} {{project: $project, session_id: session_id}})"
            " WHERE a.agent_name = $agent_name }"
        )
    if verdict:
        where.append(session_verdict_condition())
    if after:
        where.append(session_cursor_condition())
    return (
        f"MATCH (recent:{NODE} {{project: $project}})\n"
        f"WHERE recent.timestamp >= $since AND recent.timestamp <> {EPOCH_TEXT}\n"
        "WITH recent.session_id AS session_id, max(recent.timestamp) AS last_at\n"
        f"WHERE {' AND '.join(where)}\n"
        "ORDER BY last_at DESC, session_id ASC\n"
        "LIMIT $first\n"
        f"MATCH (n:{NODE} {{project: $project, session_id: session_id}})\n"
        + session_summary_clause(text=False)
        + SESSION_PAGE_RETURN
    )
