"""CPU of the Neo4j adapter's Python side of ingest, per phase, per 1,000 events.

    python bench/ingest_cpu.py --nodes 20000 --batch-size 1000 [--rounds 5] [--json]

Runs the adapter's own ingest program (``audit_ops.ingest_program``, audit
chain on, as the bench's store runs it) over the :mod:`_workload` events and
answers its statements itself, as a fresh project would (no session to add,
nothing delivered, no key bound, the chain at genesis), so no database is
involved: what is timed is only the Python work between statements, with
``time.process_time`` (CPU of this process), which a loaded machine inflates far
less than wall time. Phases, by the statement the program yields next:

* ``lock``: the session lock's rows;
* ``map_lookup``: ``map_events`` and the lookup's rows;
* ``decide_seal``: the decisions, the write's rows (folded nodes, edges, keys,
  deliveries) and the audit entry (per-event digest, payload packing, seal);
* ``finish``: the result.

Prints the median over ``--rounds`` of each phase's CPU ms per 1,000 events.
The garbage collector's share lands in whichever phase triggers a collection
(the process holds the whole workload, so a full collection is costly):
``--no-gc`` times the same work with the collector off.
Run it with another checkout on ``PYTHONPATH`` to compare trees (the script uses
only the program's public interface).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _workload import build_workload

from provgraph.audit.chain import GENESIS
from provgraph.events import Event
from provgraph.store.neo4j import audit_ops
from provgraph.store.neo4j.operations import Statement

PHASES = ("lock", "map_lookup", "decide_seal", "finish")


def phase_of(statement: Statement) -> str:
    """The phase that ends when the program yields ``statement``."""
    if "AS delivered" in statement.text:
        return "map_lookup"
    if "AS done" in statement.text:
        return "decide_seal"
    return "lock"


def answer(statement: Statement) -> list[dict[str, Any]]:
    """What a fresh project's database would return to each statement of the program."""
    phase = phase_of(statement)
    if phase == "map_lookup":
        return [
            {"delivered": [], "bound": [], "node_keys": [], "head_seq": 0, "head_hash": GENESIS}
        ]
    if phase == "decide_seal":
        return [{"done": 1}]
    return []  # the session lock: no other session holds the batch's nodes


def run_batch(events: list[Event], spent: dict[str, float]) -> None:
    """One batch's program, its CPU added to ``spent`` by phase."""
    program = audit_ops.ingest_program(True, "bench", list(enumerate(events)), "token")
    reply: list[dict[str, Any]] | None = None
    started = time.process_time()
    try:
        while True:
            statement = next(program) if reply is None else program.send(reply)
            spent[phase_of(statement)] += time.process_time() - started
            reply = answer(statement)
            started = time.process_time()
    except StopIteration:
        spent["finish"] += time.process_time() - started


def measure(events: list[Event], batch_size: int) -> dict[str, float]:
    spent = dict.fromkeys(PHASES, 0.0)
    for start in range(0, len(events), batch_size):
        run_batch(events[start : start + batch_size], spent)
    per_thousand = 1000.0 / len(events) * 1000.0
    return {name: seconds * per_thousand for name, seconds in spent.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--batch-size", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--no-gc", action="store_true", help="collector off while timing (its share, by difference)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    events = build_workload(args.nodes).events
    gc.collect()
    measure(events, args.batch_size)  # warm-up
    if args.no_gc:
        gc.disable()
    rounds = [measure(events, args.batch_size) for _ in range(args.rounds)]
    gc.enable()
    medians = {name: round(statistics.median(r[name] for r in rounds), 2) for name in PHASES}
    out = {
        "events": len(events),
        "batch_size": args.batch_size,
        "rounds": args.rounds,
        "cpu_ms_per_1000_events": medians,
        "total": round(sum(medians.values()), 2),
        "gc": not args.no_gc,
        "provgraph": str(Path(audit_ops.__file__).resolve().parents[3]),
    }
    if args.json:
        print(json.dumps(out))
    else:
        for name in PHASES:
            print(f"{name:12s} {medians[name]:8.2f} ms CPU / 1,000 events")
        print(f"{'total':12s} {out['total']:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
