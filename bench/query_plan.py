"""The read statements' plans under Neo4j ``PROFILE``: the hot-source lineage, the
sessions page and an attribution, on a graph ``bench/ingest.py --keep`` loaded.

    PROVGRAPH_NEO4J_URI=bolt://... python bench/query_plan.py --project b1e6 --nodes 1000000

Runs the adapter's own programs (``provgraph.store.neo4j.operations``) with
``PROFILE`` in front of every statement, in one read transaction, and prints per
operation: the statements, their time, total db hits and rows returned, and the
operators with the most db hits. ``--nodes`` and ``--seed`` must be those of the
load (they pick the hot source, the sessions page's ``since`` and an output).
This is how the read-plan changes in docs/neo4j-store.md were measured. The
statements are the ones of whichever ``provgraph`` is imported (this checkout's,
unless the script is copied out of the tree and run with another ``PYTHONPATH``),
so two checkouts can be compared on one loaded server.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _neo4j import neo4j_for_benchmark
from _workload import T0, build_workload
from ingest_plan import print_top, profile_statements

from provgraph.store.neo4j import Neo4jGraphStore, open_neo4j_store
from provgraph.store.neo4j import operations as ops
from provgraph.store.types import AttributionQuery, LineageDirection, SessionFilter

try:
    from provgraph.store.neo4j.lineage_ops import lineage as lineage_program
except ImportError:  # a checkout from before lineage_ops (to compare two checkouts)
    lineage_program = ops.lineage  # type: ignore[attr-defined]


def profile_program(store: Neo4jGraphStore, program: ops.Program[Any]) -> dict[str, Any]:
    """Run a read program with PROFILE statements; totals and the costliest operators."""
    started = time.perf_counter()
    with (
        store.driver.session(database=store.config.database) as session,
        session.begin_transaction() as tx,
    ):
        statements = profile_statements(tx, program)
    return {
        "ms": round((time.perf_counter() - started) * 1000, 1),
        "statements": len(statements),
        "db_hits": sum(s["db_hits"] for s in statements),
        "rows": sum(s["rows"] for s in statements),
        "detail": statements,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", required=True, help="a project bench/ingest.py kept")
    parser.add_argument("--nodes", type=int, required=True, help="--nodes of that load")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    workload = build_workload(args.nodes, seed=args.seed)
    since = T0 + timedelta(minutes=max(0, workload.sessions - 60))
    programs = {
        "lineage_hot_source_depth3": lambda: lineage_program(
            args.project, workload.hot, LineageDirection.DOWN, 3, 1000
        ),
        "sessions_page_agent_since": lambda: ops.list_sessions(
            args.project, 50, None, SessionFilter(agent_name="analyst1", since=since)
        ),
        "attribution": lambda: ops.attribution(
            args.project, AttributionQuery(workload.final_outputs[len(workload.final_outputs) // 2])
        ),
    }
    report: dict[str, Any] = {}
    with neo4j_for_benchmark(1000) as (settings, _):
        store = open_neo4j_store(settings)
        assert isinstance(store, Neo4jGraphStore)
        try:
            for name, make in programs.items():
                profile_program(store, make())  # warm: plan and cache once
                report[name] = profile_program(store, make())
        finally:
            store.close()
    if args.json:
        print(json.dumps(report))
    else:
        for name, found in report.items():
            totals = {k: found[k] for k in ("ms", "statements", "db_hits", "rows")}
            print(name, totals)
            for s in found["detail"]:
                print(f"  {s['ms']} ms, {s['db_hits']} db hits, {s['rows']} rows: {s['statement']}")
                print_top(s["top"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
