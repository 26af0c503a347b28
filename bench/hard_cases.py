"""Score hand-written hard-case files with the full default pipeline, per category.

Usage: ``python bench/hard_cases.py [FILE ...] [--json] [--show-failures] [--dump F]``
(default: every ``tests/verification/data/hard_cases*.jsonl``). Each case
(``id``, ``category``, ``claim``, ``source``, ``expected``) is verified as
``"<claim> [REF|d_1]"`` against ``{"d_1": source}`` with
``VerificationConfig()`` and the shipped models, exactly as
``tests/verification/test_hard_cases_ml.py`` does. Prints passing / total per
file and category; ``--json`` prints ``{"files": {name: {"categories":
{category: [passed, total]}, "passed", "total", "failures": [...]}}}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from provgraph.verification import (
    MappingSourceResolver,
    StageModels,
    VerificationConfig,
    verify_text,
)

DATA = Path(__file__).resolve().parents[1] / "tests" / "verification" / "data"


def _score_file(
    path: Path, models: StageModels, config: VerificationConfig, every: list[dict[str, Any]]
) -> dict[str, Any]:
    """Score one file; every case's verdict and scores are appended to ``every``."""
    cats: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    failures: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        report = verify_text(
            f"{case['claim']} [REF|d_1]",
            MappingSourceResolver({"d_1": case["source"]}),
            config,
            models=models,
        )
        check = report.checks[0]
        ok = check.verdict.value == case["expected"]
        cats[case["category"]][0] += int(ok)
        cats[case["category"]][1] += 1
        every.append(
            {
                "file": path.name,
                "id": case["id"],
                "expected": case["expected"],
                "got": check.verdict.value,
                "support": check.support_score,
                "contradiction": check.contradiction_score,
            }
        )
        if not ok:
            raw = {n: s.raw for n, s in check.scores.items() if n in ("nli", "consistency")}
            failures.append(
                {
                    "id": case["id"],
                    "expected": case["expected"],
                    "got": check.verdict.value,
                    "support": check.support_score,
                    "contradiction": check.contradiction_score,
                    "nli": {
                        k: round(v, 3)
                        for k, v in raw.get("nli", {}).items()
                        if isinstance(v, float)
                        and k in ("entailment", "contradiction", "focused_entailment")
                    },
                }
            )
    return {
        "categories": {k: v for k, v in sorted(cats.items())},
        "passed": sum(v[0] for v in cats.values()),
        "total": sum(v[1] for v in cats.values()),
        "failures": failures,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--show-failures", action="store_true")
    parser.add_argument(
        "--dump", type=Path, default=None, help="write every case's verdict and scores (JSONL)"
    )
    parser.add_argument(
        "--no-nli-focus", action="store_true", help="skip the focused NLI pass (its A/B)"
    )
    parser.add_argument(
        "--no-nli-polarity",
        action="store_true",
        help="skip the polarity reading of negated claims (its A/B)",
    )
    parser.add_argument(
        "--no-nli-value-free",
        action="store_true",
        help="skip the value-free reading of contradicted claims with unstated values (its A/B)",
    )
    parser.add_argument(
        "--nli-model", default=None, help="NLI model folder (default: the shipped one)"
    )
    parser.add_argument(
        "--nli-refine-model", default=None, help="the accurate mode's larger NLI model folder"
    )
    parser.add_argument(
        "--nli-refine-entailment", choices=("agreement", "refiner"), default="agreement"
    )
    args = parser.parse_args()
    config = VerificationConfig(
        nli_focus=not args.no_nli_focus,
        nli_polarity=not args.no_nli_polarity,
        nli_value_free=not args.no_nli_value_free,
        nli_model=args.nli_model,
        nli_refine_model=args.nli_refine_model,
        nli_refine_entailment=args.nli_refine_entailment,
    )
    files = args.files or sorted(DATA.glob("hard_cases*.jsonl"))
    from provgraph.verification.embeddings import EmbeddingEncoder
    from provgraph.verification.nli import load_nli

    models = StageModels(
        encoder=EmbeddingEncoder(),
        nli_model=load_nli(args.nli_model),
        nli_refiner=load_nli(args.nli_refine_model) if args.nli_refine_model else None,
    )
    every: list[dict[str, Any]] = []
    out = {"files": {p.name: _score_file(p, models, config, every) for p in files}}
    if args.dump is not None:
        args.dump.write_text("".join(json.dumps(row) + "\n" for row in every), encoding="utf-8")
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for name, res in out["files"].items():
        print(f"{name}: {res['passed']}/{res['total']}")
        for cat, (ok, n) in res["categories"].items():
            print(f"  {cat:<12} {ok}/{n}")
        if args.show_failures:
            for f in res["failures"]:
                print(
                    f"  FAIL {f['id']}: expected {f['expected']}, got {f['got']} "
                    f"(support {f['support']}, contradiction {f['contradiction']}, nli {f['nli']})"
                )


if __name__ == "__main__":
    main()
