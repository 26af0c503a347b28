"""The checked-in SDL (docs/schema.graphql) must match the code: the contract changes as a diff."""

from __future__ import annotations

from pathlib import Path

from services.api.graphql.sdl import DEFAULT_PATH, current_sdl, main


def test_schema_file_matches_code() -> None:
    assert DEFAULT_PATH.read_text() == current_sdl(), (
        "docs/schema.graphql is out of date: run `python -m services.api.graphql.sdl`"
    )


def test_check_mode_detects_drift(tmp_path: Path) -> None:
    target = tmp_path / "schema.graphql"
    assert main(["--output", str(target), "--check"]) == 1
    assert main(["--output", str(target)]) == 0
    assert main(["--output", str(target), "--check"]) == 0
    target.write_text(current_sdl().replace("citationSummary", "citationSumary"))
    assert main(["--output", str(target), "--check"]) == 1
