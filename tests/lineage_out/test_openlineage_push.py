"""Pushing a stored session through the OpenLineage client's HttpTransport to a real receiver."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from provgraph.errors import ProvgraphError, ValidationError
from provgraph.lineage_out.openlineage import events_to_json_lines
from provgraph.lineage_out.push import push_session, stored_session_events
from tests.lineage_out.conftest import Receiver, VerifiedSession
from tests.lineage_out.spec import validate_event


def test_push_sends_every_event_in_order(
    verified_session: VerifiedSession, receiver: Receiver
) -> None:
    s = verified_session
    result = push_session(s.store, s.project, s.session_id, receiver.url, api_key="ol-key-123")
    exported = [
        json.loads(line)
        for line in events_to_json_lines(
            stored_session_events(s.store, s.project, s.session_id)
        ).splitlines()
    ]
    assert (result.events, result.runs) == (8, 4)
    assert set(receiver.paths) == {"/api/v1/lineage"}
    assert set(receiver.auth) == {"Bearer ol-key-123"}
    assert len(receiver.bodies) == 8
    for body in receiver.bodies:
        validate_event(body)
    # what arrived is the export, in order (the client may add its own run facets)
    assert [(b["eventType"], b["run"]["runId"]) for b in receiver.bodies] == [
        (e["eventType"], e["run"]["runId"]) for e in exported
    ]
    parents = [b["run"]["facets"].get("parent") for b in receiver.bodies]
    assert parents[0] is None and all(p is not None for p in parents[2:])


def test_a_refused_push_names_the_event(
    verified_session: VerifiedSession, receiver: Receiver
) -> None:
    s = verified_session
    receiver.status = 401
    with pytest.raises(ProvgraphError, match=r"failed at event 1/8 \(START of job"):
        push_session(s.store, s.project, s.session_id, receiver.url)


def test_an_unreachable_backend_is_a_clear_error(verified_session: VerifiedSession) -> None:
    s = verified_session
    with pytest.raises(ProvgraphError, match=r"OpenLineage push to http://127\.0\.0\.1:9/"):
        push_session(s.store, s.project, s.session_id, "http://127.0.0.1:9/", timeout=1.0)


def test_file_target_writes_json_lines(verified_session: VerifiedSession, tmp_path: Path) -> None:
    s = verified_session
    out = tmp_path / "lineage.jsonl"
    push_session(s.store, s.project, s.session_id, f"file://{out}")
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["eventType"] for line in lines].count("START") == 4
    for line in lines:
        validate_event(line)


@pytest.mark.parametrize("target", ["ftp://example", "file://", "kafka"])
def test_bad_targets_are_rejected(verified_session: VerifiedSession, target: str) -> None:
    s = verified_session
    with pytest.raises(ValidationError, match=r"target|path"):
        push_session(s.store, s.project, s.session_id, target)


def test_an_unknown_session_is_not_found(verified_session: VerifiedSession) -> None:
    s = verified_session
    with pytest.raises(ProvgraphError, match="no nodes"):
        stored_session_events(s.store, s.project, "no-such-session")


def test_cli_export_and_push(cli: CliRunner, receiver: Receiver) -> None:
    """The commands on the embedded store: export -f openlineage, lineage push, bad input."""
    from provgraph.cli.main import app

    runner = cli
    exported = runner.invoke(app, ["export", "demo-session-1", "-f", "openlineage"])
    assert exported.exit_code == 0, exported.output
    lines = [json.loads(line) for line in exported.stdout.splitlines()]
    assert len(lines) == 6
    for line in lines:
        validate_event(line)
    pushed = runner.invoke(app, ["lineage", "push", "demo-session-1", "--url", receiver.url])
    assert pushed.exit_code == 0, pushed.output
    assert "sent 6 events for 3 runs" in pushed.stdout
    assert [b["run"]["runId"] for b in receiver.bodies] == [x["run"]["runId"] for x in lines]
    missing = runner.invoke(app, ["export", "nope", "-f", "openlineage"])
    assert missing.exit_code == 2 and "no nodes" in missing.output
    bad = runner.invoke(app, ["lineage", "push", "demo-session-1", "--url", "ftp://x"])
    assert bad.exit_code == 2 and "unsupported OpenLineage target" in bad.output
