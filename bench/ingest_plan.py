"""The ingest statements' plans under Neo4j ``PROFILE``: operators, db hits, rows.

    python bench/ingest_plan.py --nodes 5000 --batch-size 1000 [--json]

Ingests the first batches of the :mod:`_workload` graph (warm-up), then runs
the next batch's ingest program (the adapter's own program, audit chain
included) with ``PROFILE`` in front of every statement, inside one
transaction, and prints per statement: the time, total db hits, the
``Eager`` operators and any label scan, and the operators with the most db hits.
This is how the plan changes in docs/neo4j-store.md were measured.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _neo4j import neo4j_for_benchmark
from _workload import build_workload
from ingest import delete_projects

from provgraph.store.neo4j import Neo4jGraphStore, audit_ops, open_neo4j_store
from provgraph.store.neo4j.driver import new_batch_token


def flatten(plan: Any, depth: int = 0) -> list[dict[str, Any]]:
    """Every operator of a profiled plan (``ResultSummary.profile``), depth first."""
    args = plan.get("args", {})
    name = str(plan.get("operatorType", "?")).split("@")[0]
    row = {
        "op": name,
        "depth": depth,
        "db_hits": int(plan.get("dbHits", 0)),
        "rows": int(plan.get("rows", 0)),
        "details": str(args.get("Details", ""))[:90],
    }
    out = [row]
    for child in plan.get("children", []):
        out += flatten(child, depth + 1)
    return out


def print_top(operators: list[dict[str, Any]]) -> None:
    """The costliest operators of a statement, one per line (db hits, rows, details)."""
    for o in operators:
        print(f"      {o['db_hits']:8d}  {o['rows']:7d}  {o['op']}: {o['details']}")


def profile_statements(tx: Any, program: Any) -> list[dict[str, Any]]:
    """Run a program's statements with PROFILE in ``tx``; one summary per statement:
    time, db hits, rows back, ``Eager`` operators, label scans, costliest operators."""
    summaries: list[dict[str, Any]] = []
    try:
        statement = next(program)
        while True:
            started = time.perf_counter()
            result = tx.run("PROFILE " + statement.text, statement.params)
            records = [dict(r) for r in result]
            summary = result.consume()
            elapsed = (time.perf_counter() - started) * 1000
            ops = flatten(summary.profile or {})
            summaries.append(
                {
                    "statement": statement.text.splitlines()[0][:70],
                    "ms": round(elapsed, 1),
                    "rows_param": len(statement.params.get("rows", [])),
                    "rows": len(records),
                    "db_hits": sum(o["db_hits"] for o in ops),
                    "eager": sum(1 for o in ops if o["op"] == "Eager"),
                    "label_scans": [o["op"] for o in ops if "LabelScan" in o["op"]],
                    "top": sorted(ops, key=lambda o: -o["db_hits"])[:6],
                }
            )
            statement = program.send(records)
    except StopIteration:
        pass
    return summaries


def profile_batch(store: Neo4jGraphStore, project: str, events: list[Any]) -> list[dict[str, Any]]:
    """Run one batch's program with PROFILE statements; one summary per statement."""
    program = audit_ops.ingest_program(
        store.config.audit_chain, project, list(enumerate(events)), new_batch_token()
    )
    with (
        store.driver.session(database=store.config.database) as session,
        session.begin_transaction() as tx,
    ):
        summaries = profile_statements(tx, program)
        tx.commit()
    return summaries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--batch-size", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    events = build_workload(args.nodes, seed=7).events
    batches = [events[i : i + args.batch_size] for i in range(0, len(events), args.batch_size)]
    with neo4j_for_benchmark(args.batch_size) as (settings, _):
        store = open_neo4j_store(settings)
        assert isinstance(store, Neo4jGraphStore)
        project = f"bench-plan-{uuid.uuid4().hex[:8]}"
        try:
            for batch in batches[:-1]:
                store.ingest(project, batch)
            report = profile_batch(store, project, batches[-1])
        finally:
            delete_projects(store.driver, store.config.database, [project])
            store.close()
    if args.json:
        print(json.dumps(report))
    else:
        for s in report:
            print(
                f"{s['ms']:8.1f} ms  {s['db_hits']:8d} db hits  eager {s['eager']}"
                f"  scans {s['label_scans']}  rows {s['rows_param']}  | {s['statement']}"
            )
            print_top(s["top"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
