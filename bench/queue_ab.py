"""Per-job cost of the queue path, this tree against another, interleaved (one worker each).

Usage::

    git archive <commit> | tar -x -C /tmp/base      # the tree to compare with
    python bench/queue_ab.py --baseline /tmp/base [--rounds 8] [--batch 6] [--json]

On a machine shared with other work the load swings by 2x within minutes, so
two whole runs of ``bench/verify_throughput.py`` one after the other compare
the neighbours more than the code. Here both workers run at once (one
``celery worker -c 1`` per tree, against the same Neo4j and Redis) but only one
consumes at a time: each round fills the queue with ``--batch`` jobs, lets one
tree's worker drain it, then the other's (the order alternates), and runs the
same number of outputs directly in this process (``verify_output``, with and
without saving the report). The figure per job is the median interval between
consecutive job starts (``started_at`` in the graph): with one worker process
it is everything a job costs (the message, the job's state writes, the run,
the report, the ack). Uses the test services (``PROVGRAPH_TEST_*``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from verify_throughput import (  # noqa: E402
    OUTPUT_ID,
    enqueue_all,
    make_projects,
    start_worker,
    stop_worker,
    wait_all,
)

from provgraph.config import Settings  # noqa: E402
from provgraph.store.port import GraphStore  # noqa: E402
from provgraph.store.types import Job  # noqa: E402
from provgraph.verification.config import VerificationConfig  # noqa: E402

QUEUES = ("light", "heavy")


def start_intervals(jobs: list[Job]) -> list[float]:
    """Seconds between consecutive job starts (one worker process: the per-job cost)."""
    from datetime import datetime

    starts = sorted(datetime.fromisoformat(str(j.extra["started_at"])).timestamp() for j in jobs)
    return [b - a for a, b in pairwise(starts)]


def direct_times(
    store: GraphStore, config: VerificationConfig, n: int
) -> tuple[list[float], list[float]]:
    """Per output: ``verify_output`` alone, and ``verify_output`` + ``save_report``."""
    from provgraph.verification.engine import verify_output
    from provgraph.verification.report import report_to_stored

    bare: list[float] = []
    saved: list[float] = []
    for project in make_projects(store, n, "abd"):
        started = time.perf_counter()
        report = verify_output(store, project, OUTPUT_ID, config)
        bare.append(time.perf_counter() - started)
        store.save_report(project, report_to_stored(report, OUTPUT_ID, None))
        saved.append(time.perf_counter() - started)
    return bare, saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the tree to compare with")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--batch", type=int, default=6, help="jobs per tree per round")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    settings = Settings(
        broker_url=os.environ["PROVGRAPH_TEST_REDIS_URL"],
        neo4j_uri=os.environ["PROVGRAPH_TEST_NEO4J_URI"],
        neo4j_password=os.environ.get("PROVGRAPH_TEST_NEO4J_PASSWORD") or None,
    )
    config = VerificationConfig(embeddings=False, nli=False)
    from provgraph.store.neo4j import open_neo4j_store
    from services.worker.dispatch import celery_app_for

    store = open_neo4j_store(settings)
    app = celery_app_for(settings)
    trees = {"baseline": args.baseline.resolve(), "this": REPO}
    intervals: dict[str, list[float]] = {name: [] for name in trees}
    bare: list[float] = []
    saved: list[float] = []
    loads: list[float] = []
    with tempfile.TemporaryDirectory(prefix="pg-ab-") as tmp:
        workers = {name: start_worker(settings, 1, Path(tmp), tree) for name, tree in trees.items()}
        try:

            def consume(name: str, on: bool) -> None:
                method = app.control.add_consumer if on else app.control.cancel_consumer
                for queue in QUEUES:
                    method(queue, destination=[workers[name][1]], reply=True, timeout=10)

            for name in trees:
                consume(name, False)
            for name in trees:  # warm-up: imports, driver, first job
                consume(name, True)
                wait_all(store, enqueue_all(store, settings, config, make_projects(store, 2, "w")))
                consume(name, False)
            for round_no in range(args.rounds):
                order = list(trees) if round_no % 2 == 0 else list(reversed(trees))
                for name in order:
                    jobs = enqueue_all(
                        store, settings, config, make_projects(store, args.batch, "ab")
                    )
                    consume(name, True)
                    _, done = wait_all(store, jobs)
                    consume(name, False)
                    intervals[name].extend(start_intervals(done))
                one_bare, one_saved = direct_times(store, config, args.batch)
                bare.extend(one_bare)
                saved.extend(one_saved)
                loads.append(os.getloadavg()[0])
        finally:
            for popen, _ in workers.values():
                stop_worker(popen)
            store.close()
    med = {name: statistics.median(values) for name, values in intervals.items()}
    direct, direct_saved = statistics.median(bare), statistics.median(saved)
    result: dict[str, Any] = {
        "per_job_s": {
            "queue_baseline": round(med["baseline"], 4),
            "queue_this": round(med["this"], 4),
            "direct": round(direct, 4),
            "direct_saved": round(direct_saved, 4),
        },
        "ratio_one_worker_vs_direct": {
            name: round(direct / value, 3) for name, value in med.items()
        },
        "ratio_one_worker_vs_direct_saved": {
            name: round(direct_saved / value, 3) for name, value in med.items()
        },
        "this_vs_baseline_speedup": round(med["baseline"] / med["this"], 3),
        "jobs_per_tree": args.rounds * args.batch,
        "rounds": args.rounds,
        "batch": args.batch,
        "loadavg_1min": {"min": min(loads), "max": max(loads)},
    }
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
