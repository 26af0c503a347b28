"""The embedded store's audit trail: edits to the event log file are caught, erasure
rewrites the log with no trace of the erased content, and the CLI drives it all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from provgraph.cli.main import _mount_sub_apps, app
from provgraph.store.memory import MemoryGraphStore
from provgraph.usecases.audit_verify import verify_project
from provgraph.usecases.erasure import apply_erasure, plan_session_erasure, plan_subject_erasure
from tests.contract._story import SESSION, retarget, story_events

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "multi_agent_session.jsonl"
SUBJECT = "ree_generation"


def _lines(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, records: list[dict]) -> None:  # type: ignore[type-arg]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "events.jsonl"
    store = MemoryGraphStore(path)
    store.ingest("p", story_events())
    store.ingest("p", retarget(story_events(), "-b"))
    store.close()
    return path


def _verify(path: Path) -> tuple[int | None, str] | None:
    store = MemoryGraphStore(path)
    try:
        report = verify_project(store, "p")
    finally:
        store.close()
    return None if report.first is None else (report.first.seq, report.first.check)


def test_the_untouched_log_verifies_after_reopening(log: Path) -> None:
    assert _verify(log) is None


def test_an_edited_event_in_the_log_fails_its_entry(log: Path) -> None:
    records = _lines(log)
    records[1]["events"][3]["label"] = "forged"
    _write(log, records)
    assert _verify(log) == (2, "payload")


def test_a_removed_or_swapped_log_line_fails(log: Path) -> None:
    records = _lines(log)
    _write(log, [records[1]])
    assert _verify(log) == (1, "order")
    _write(log, [records[1], records[0]])
    assert _verify(log) == (1, "order")


def test_a_rewritten_entry_hash_breaks_the_next_link(log: Path) -> None:
    records = _lines(log)
    records[0]["entry"]["at"] = "2020-01-01T00:00:00.000000Z"
    _write(log, records)
    assert _verify(log) == (1, "hash")


def test_erasure_leaves_no_trace_in_the_log_and_the_chain_verifies(log: Path) -> None:
    text = log.read_text()
    assert SUBJECT in text and SESSION + '"' in text
    store = MemoryGraphStore(log)
    apply_erasure(store, "p", plan_session_erasure(store, "p", SESSION))
    apply_erasure(store, "p", plan_subject_erasure(store, "p", SUBJECT))
    store.close()
    text = log.read_text()
    assert SUBJECT not in text
    assert f'"session_id":"{SESSION}"' not in text
    assert not list(log.parent.glob("*.rewrite"))
    assert _verify(log) is None
    reopened = MemoryGraphStore(log)
    assert reopened.session_graph("p", SESSION).nodes == {}
    assert reopened.find_nodes("p", SUBJECT) == []
    reopened.close()


# ---------------------------------------------------------------------- CLI
@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    for name in ("PROVGRAPH_NEO4J_URI", "PROVGRAPH_RETENTION", "PROVGRAPH_AUDIT_SIGNING_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PROVGRAPH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PROVGRAPH_PROJECT", "p")
    monkeypatch.chdir(tmp_path)
    _mount_sub_apps()
    runner = CliRunner()
    assert runner.invoke(app, ["ingest", str(FIXTURE)]).exit_code == 0
    return runner


def test_cli_verify_checkpoint_bundle_with_a_pinned_key(cli: CliRunner, tmp_path: Path) -> None:
    assert cli.invoke(app, ["audit", "keygen", "k.pem", "k.pub"]).exit_code == 0
    env = {"PROVGRAPH_AUDIT_SIGNING_KEY": str(tmp_path / "k.pem")}
    made = cli.invoke(app, ["audit", "checkpoint"], env=env)
    assert made.exit_code == 0 and "(signed)" in made.output
    verified = cli.invoke(app, ["audit", "verify", "--public-key", "k.pub"])
    assert verified.exit_code == 0, verified.output
    assert (
        cli.invoke(app, ["audit", "export-bundle", SESSION, "-o", "b.json"], env=env).exit_code == 0
    )
    ok = cli.invoke(app, ["audit", "verify-bundle", "b.json", "--public-key", "k.pub"])
    assert ok.exit_code == 0 and "verified" in ok.output
    bundle = json.loads((tmp_path / "b.json").read_text())
    bundle["graph"]["nodes"][0]["label"] = "forged"
    (tmp_path / "forged.json").write_text(json.dumps(bundle))
    bad = cli.invoke(app, ["audit", "verify-bundle", "forged.json"])
    assert bad.exit_code == 1 and "FAILED" in bad.output and "label" in bad.output
    bundle = json.loads((tmp_path / "b.json").read_text())
    bundle["leaves"][0] = "0" * 64
    (tmp_path / "leaf.json").write_text(json.dumps(bundle))
    assert cli.invoke(app, ["audit", "verify-bundle", "leaf.json"]).exit_code == 1
    other = cli.invoke(app, ["audit", "keygen", "o.pem", "o.pub"])
    assert other.exit_code == 0
    wrong = cli.invoke(app, ["audit", "verify-bundle", "b.json", "--public-key", "o.pub"])
    assert wrong.exit_code == 1 and "pinned" in wrong.output
    (tmp_path / "junk.json").write_text("{not json")
    junk = cli.invoke(app, ["audit", "verify-bundle", "junk.json"])
    assert junk.exit_code == 2


def test_cli_verify_names_the_failing_entry(cli: CliRunner, tmp_path: Path) -> None:
    log = tmp_path / "home" / "events.jsonl"
    log.write_text(log.read_text().replace("Plan the research", "Plan the heist"))
    result = cli.invoke(app, ["audit", "verify"])
    assert result.exit_code == 1
    assert "first at entry 1 [payload]" in result.output


def test_cli_erase_and_retention(cli: CliRunner, tmp_path: Path) -> None:
    plan = cli.invoke(app, ["erase", "subject", SUBJECT])
    assert plan.exit_code == 0 and "would erase" in plan.output
    done = cli.invoke(app, ["erase", "subject", SUBJECT, "--yes"])
    assert done.exit_code == 0 and "tombstone entry" in done.output
    assert SUBJECT not in (tmp_path / "home" / "events.jsonl").read_text()
    assert cli.invoke(app, ["retention", "apply"]).exit_code == 2  # neither --dry-run nor --yes
    assert cli.invoke(app, ["retention", "apply", "--dry-run"]).exit_code == 2  # no policy
    env = {"PROVGRAPH_RETENTION": "p=1"}
    dry = cli.invoke(app, ["retention", "apply", "--dry-run"], env=env)
    assert dry.exit_code == 0 and SESSION in dry.output and "would erase 1" in dry.output
    assert cli.invoke(app, ["retention", "apply", "--yes"], env=env).exit_code == 0
    assert cli.invoke(app, ["audit", "verify"]).exit_code == 0
    assert cli.invoke(app, ["erase", "session", SESSION]).exit_code == 2  # gone: not found
    bad = cli.invoke(app, ["retention", "apply", "--dry-run"], env={"PROVGRAPH_RETENTION": "p=x"})
    assert bad.exit_code == 2 and "PROVGRAPH_RETENTION" in bad.output
