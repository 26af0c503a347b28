"""The model-card table is read from the training log: last record per step wins."""

from __future__ import annotations

import json
from pathlib import Path

from provgraph.nli.history import eval_records, markdown_table


def test_table_has_one_row_per_step_with_the_last_record(tmp_path: Path) -> None:
    log = tmp_path / "train_log.jsonl"
    recs = [
        {
            "event": "eval",
            "step": 500,
            "epoch": 0.1,
            "per_source": {"a": 0.5, "b": 0.25},
            "macro": 0.375,
            "overall": 0.4,
        },
        {"event": "train", "step": 510},
        {
            "event": "eval",
            "step": 500,
            "epoch": 0.1,
            "per_source": {"a": 0.6, "b": 0.2},
            "macro": 0.4,
            "overall": 0.41,
        },
        {
            "event": "eval",
            "step": 1000,
            "epoch": 0.2,
            "per_source": {"a": 0.7},
            "macro": 0.7,
            "overall": 0.7,
        },
    ]
    log.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    records = eval_records(log)
    assert [r["step"] for r in records] == [500, 1000]
    lines = markdown_table(records).splitlines()
    assert lines[0] == "| step | epochs | a | b | macro | overall |"
    assert lines[2] == "| 500 | 0.100 | 0.600 | 0.200 | **0.400** | 0.410 |"
    assert lines[3] == "| 1000 | 0.200 | 0.700 | nan | **0.700** | 0.700 |"
