"""``bench/compare_runs.py``: what two quality runs say changed. A case only one run scored
is no loss, a new flag that is false moved nothing, and embedding noise alone is no move."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "compare_runs", REPO / "bench" / "compare_runs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(files: dict[str, tuple[int, list[tuple[str, str]]]]) -> dict[str, Any]:
    return {
        "files": {
            name: {"passed": passed, "failures": [{"id": i, "got": got} for i, got in failures]}
            for name, (passed, failures) in files.items()
        }
    }


def test_hard_cases_fixed_lost_and_changed_between_files_of_both_runs() -> None:
    before = _run({"a.jsonl": (1, [("a1", "supported"), ("a2", "weak")]), "old.jsonl": (0, [])})
    after = _run(
        {
            "a.jsonl": (1, [("a2", "unsupported"), ("a3", "contradicted")]),
            "new.jsonl": (0, [("n1", "supported")]),  # a new probe's failure is no loss
        }
    )
    result = _module().compare_hard(before, after)
    assert result["fixed"] == [["a.jsonl", "a1"]]
    assert [x["case"] for x in result["lost"]] == [["a.jsonl", "a3"]]
    assert result["changed"] == [
        {"case": ["a.jsonl", "a2"], "before": "weak", "after": "unsupported"}
    ]
    assert result["passed"] == {"a.jsonl": [1, 1]}


def _dump(path: Path, rows: list[tuple[str, float, dict[str, Any]]]) -> Path:
    lines = [
        json.dumps(
            {
                "file": "f.jsonl",
                "id": row_id,
                "label": "unsupported",
                "support": support,
                "contradiction": 0.1,
                "signals": signals,
            }
        )
        for row_id, support, signals in rows
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_dev_rows_that_moved(tmp_path: Path) -> None:
    before = _dump(
        tmp_path / "a.jsonl",
        [
            ("same", 0.5, {"embedding": 0.61}),
            ("noise", 0.5, {"embedding": 0.6100001}),
            ("flag", 0.5, {"embedding": 0.6}),
            ("score", 0.5, {"embedding": 0.6}),
        ],
    )
    after = _dump(
        tmp_path / "b.jsonl",
        [
            ("same", 0.5, {"embedding": 0.61, "new_flag": False}),  # a new flag, unset
            ("noise", 0.5, {"embedding": 0.6100002}),  # float noise alone
            ("flag", 0.5, {"embedding": 0.6, "new_flag": True}),
            ("score", 0.4, {"embedding": 0.6}),
        ],
    )
    moved = _module().compare_dev(before, after)
    assert [(m["id"], m["signals"]) for m in moved] == [("flag", ["new_flag"]), ("score", [])]
    assert moved[1]["support"] == [0.5, 0.4]
