"""Ingest slowdown with the audit chain on (target: at most 10 %), embedded and Neo4j.

    python bench/audit_chain.py --nodes 10000 --json

The same workload (``bench/_workload.py``) is ingested twice per store, into
two projects: once with the chain on, once off. Batches are interleaved (on,
off, off, on, …: the order flips every batch) so the load swings of a busy
machine hit both alike; ``slowdown_total`` = time on / time off − 1 over all
batches, ``slowdown_median_batch`` the median of the per-batch ratios (robust to
the load spikes of a shared machine), over ``--rounds`` fresh projects.
The embedded store writes its fsynced log to a temporary folder. Neo4j:
``PROVGRAPH_NEO4J_URI`` if set, else a throwaway server (``bench/_neo4j.py``).
Also times ``verify_project`` on the chained Neo4j project (for information).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _neo4j import neo4j_for_benchmark
from _workload import build_workload

from provgraph.events import Event
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.neo4j import Neo4jGraphStore, open_neo4j_store
from provgraph.store.port import GraphStore
from provgraph.usecases.audit_verify import verify_project

LABELS = ("Node", "Delivery", "CitationKey", "IngestLock", "AuditEntry", "AuditHead")


def interleaved(
    on: GraphStore, off: GraphStore, events: Sequence[Event], batch: int, projects: tuple[str, str]
) -> dict[str, Any]:
    spent = {"on": 0.0, "off": 0.0}
    ratios: list[float] = []
    for number, start in enumerate(range(0, len(events), batch)):
        chunk = list(events[start : start + batch])
        order = [("on", on), ("off", off)] if number % 2 == 0 else [("off", off), ("on", on)]
        took: dict[str, float] = {}
        for name, store in order:
            project = projects[0] if name == "on" else projects[1]
            began = time.perf_counter()
            store.ingest(project, chunk)
            took[name] = time.perf_counter() - began
            spent[name] += took[name]
        ratios.append(took["on"] / took["off"])
    return {**spent, "ratios": ratios}


def summary(rounds: list[dict[str, Any]], count: int) -> dict[str, Any]:
    on = sum(r["on"] for r in rounds)
    off = sum(r["off"] for r in rounds)
    ratios = [x for r in rounds for x in r["ratios"]]
    return {
        "events": count,
        "rounds": len(rounds),
        "seconds_chain_on": round(on, 3),
        "seconds_chain_off": round(off, 3),
        "events_per_s_on": round(count * len(rounds) / on, 1),
        "events_per_s_off": round(count * len(rounds) / off, 1),
        "slowdown_total": round(on / off - 1, 4),
        "slowdown_median_batch": round(statistics.median(ratios) - 1, 4),
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    events = build_workload(args.nodes, seed=args.seed).events
    result: dict[str, Any] = {
        "nodes": args.nodes,
        "batch_size": args.batch_size,
        "python": platform.python_version(),
        "loadavg_before": os.getloadavg(),
    }
    with tempfile.TemporaryDirectory(prefix="provgraph-bench-audit-") as folder:
        rounds = []
        for number in range(args.rounds):
            on = MemoryGraphStore(Path(folder) / f"on{number}.jsonl", audit_chain=True)
            off = MemoryGraphStore(Path(folder) / f"off{number}.jsonl", audit_chain=False)
            rounds.append(interleaved(on, off, events, args.batch_size, ("p", "p")))
            on.close()
            off.close()
        result["embedded"] = summary(rounds, len(events))
    if not args.skip_neo4j:
        with neo4j_for_benchmark(args.batch_size) as (settings, _started):
            chained = open_neo4j_store(settings)
            assert isinstance(chained, Neo4jGraphStore)
            plain = Neo4jGraphStore(replace(chained.config, audit_chain=False))
            made = [
                (f"bench-on-{uuid.uuid4().hex[:8]}", f"bench-off-{uuid.uuid4().hex[:8]}")
                for _ in range(args.rounds)
            ]
            projects = tuple(p for pair in made for p in pair)
            try:
                rounds = [interleaved(chained, plain, events, args.batch_size, p) for p in made]
                result["neo4j"] = summary(rounds, len(events))
                began = time.perf_counter()
                report = verify_project(chained, made[0][0])
                result["neo4j"]["verify_seconds"] = round(time.perf_counter() - began, 2)
                result["neo4j"]["verify_ok"] = report.ok
            finally:
                if not args.keep:
                    with chained.driver.session(database=settings.neo4j_database) as session:
                        for label in LABELS:
                            session.run(
                                f"MATCH (n:{label}) WHERE n.project IN $projects "
                                "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
                                projects=list(projects),
                            ).consume()
                plain.close()
                chained.close()
    result["loadavg_after"] = os.getloadavg()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--batch-size", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3, help="Fresh projects per round.")
    parser.add_argument("--skip-neo4j", action="store_true")
    parser.add_argument("--keep", action="store_true", help="Keep the Neo4j bench projects.")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args)
    print(json.dumps(result, indent=2) if args.json else result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
