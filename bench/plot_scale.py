"""Plot query latency against graph size from ``bench/ingest.py --json`` outputs.

    python bench/plot_scale.py out-1e4.json out-1e5.json out-1e6.json \\
        --out docs/img/neo4j-scale.png

One line per query kind (p50, with p99 as a thin line of the same colour) on
log-log axes, the targets of issue 15 as dotted horizontal lines.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

KINDS = {
    "attribution": ("attribution", 20.0),
    "lineage": ("lineage, a data read (depth 10)", None),
    "lineage_hot_source_depth3": ("lineage, source read by ~10^3 sessions (depth 3)", 50.0),
    "sessions_page_agent_since": ("sessions page (agent + since, first 50)", 30.0),
    "console_session_query": ("console session query (store)", 100.0),
}


def main(argv: list[str] | None = None) -> int:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="JSON outputs of bench/ingest.py")
    parser.add_argument("--out", type=Path, default=Path("docs/img/neo4j-scale.png"))
    args = parser.parse_args(argv)
    runs = sorted((json.loads(p.read_text()) for p in args.runs), key=lambda r: r["nodes"])
    fig, ax = plt.subplots(figsize=(8, 5))
    for index, (key, (name, target)) in enumerate(KINDS.items()):
        points = [(r["nodes"], r["queries"][key]) for r in runs if key in r["queries"]]
        if not points:
            continue
        colour = f"C{index}"
        sizes = [n for n, _ in points]
        ax.plot(sizes, [q["p50_ms"] for _, q in points], "o-", color=colour, label=f"{name} p50")
        ax.plot(sizes, [q["p99_ms"] for _, q in points], "--", color=colour, linewidth=0.8)
        if target is not None:
            ax.axhline(target, color=colour, linestyle=":", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("nodes in the project")
    ax.set_ylabel("ms (p50 solid, p99 dashed, target dotted)")
    ax.set_title("Neo4j store query latency by graph size (bench/ingest.py)")
    ax.legend(fontsize=7, loc="upper left")
    ax.grid(True, which="both", linewidth=0.3)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
