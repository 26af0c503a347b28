"""Concurrent ingest into ONE project: what per-session locks buy over one project lock.

Several threads (standing for API replicas or request handlers) each ingest
their own sessions into the same project through one Neo4j store, the audit
chain on (the default). With one lock per project the batches ran one at a
time; with per-session locks (docs/adr/0012) only the chain append and the
commit wait for each other. Prints one JSON line per thread count: events/s
and the ratio to one thread.

    PYTHONPATH=$PWD .venv/bin/python bench/concurrent_ingest.py --threads 1 2 4

Run it with ``PYTHONPATH`` at an older checkout to measure that code side by
side (the script only uses the public store API).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from _neo4j import neo4j_for_benchmark

from provgraph.events import Event
from provgraph.examples.synthetic import synthetic_session
from provgraph.store.neo4j import open_neo4j_store


def _sessions(count: int, nodes: int) -> list[list[Event]]:
    tag = uuid.uuid4().hex[:6]
    return [
        [Event.model_validate(e) for e in synthetic_session(f"{tag}-s{n}", nodes, agents=4)]
        for n in range(count)
    ]


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with neo4j_for_benchmark(args.batch) as (settings, _):
        store = open_neo4j_store(settings.model_copy(update={"audit_chain": not args.no_chain}))
        try:
            store.ingest(f"warm-{uuid.uuid4().hex[:6]}", _sessions(1, args.nodes)[0])
            base = None
            for threads in args.threads:
                project = f"conc-{uuid.uuid4().hex[:8]}"
                sessions = _sessions(args.sessions, args.nodes)
                total = sum(len(s) for s in sessions)
                lanes = [sessions[i::threads] for i in range(threads)]

                def lane(work: list[list[Event]], project: str = project) -> None:
                    for events in work:
                        for start in range(0, len(events), args.request):
                            store.ingest(project, events[start : start + args.request])

                began = time.perf_counter()
                with ThreadPoolExecutor(max_workers=threads) as pool:
                    list(pool.map(lane, lanes))
                seconds = time.perf_counter() - began
                rate = total / seconds
                base = base or rate
                row = {
                    "chain": not args.no_chain,
                    "threads": threads,
                    "events": total,
                    "seconds": round(seconds, 2),
                    "events_per_s": round(rate),
                    "vs_one_thread": round(rate / base, 2),
                }
                rows.append(row)
                print(json.dumps(row), flush=True)
        finally:
            store.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--sessions", type=int, default=16, help="sessions per thread count")
    parser.add_argument("--nodes", type=int, default=400, help="events per session")
    parser.add_argument("--request", type=int, default=50, help="events per ingest call")
    parser.add_argument(
        "--no-chain", action="store_true", help="audit chain off: the session locks alone"
    )
    parser.add_argument("--batch", type=int, default=1000, help="PROVGRAPH_NEO4J_BATCH_SIZE")
    run(parser.parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
