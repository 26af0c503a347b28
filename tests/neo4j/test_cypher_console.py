"""The session-listing builder's console filters, as strings (behaviour: tests/contract)."""

from __future__ import annotations

from provgraph.store.neo4j import cypher


def test_filters_add_their_conditions_only_when_asked() -> None:
    plain = cypher.list_sessions_query(agent=False, since=False, after=False)
    full = cypher.list_sessions_query(
        agent=False, since=False, after=False, until=True, verdict=True, text=True
    )
    assert "text_hits" not in plain and "$until" not in plain and "$verdict" not in plain
    assert "first_at IS NOT NULL AND first_at <= $until" in full
    assert "AS text_hits" in full and "text_hits > 0" in full
    assert "toLower(coalesce(n.content, '')) CONTAINS $text" in full
    # the verdict is read from the newest report version of each output
    assert "$verdict IN r.verdicts AND NOT EXISTS" in full
    assert "newer.version > r.version" in full
    assert full.endswith("LIMIT $first")
