"""Verification throughput through the queue (1, 2, … worker processes) vs the engine directly.

Usage::

    python bench/verify_throughput.py [--json] [--outputs 20] [--stages light|heavy]
        [--workers 1,2,4] [--redis-url redis://…] [--neo4j-uri bolt://…]

Starts its own Redis and Neo4j (``provgraph.ops``) unless told where they are,
and its own ``celery worker`` (``-c N`` for each N of ``--workers``). Every output is the
fixture session's final output in its own project, so every job does the same
work. The direct figure calls ``verify_output`` in this process against the
same Neo4j with models preloaded: the ceiling the queue is compared with
(run before and after the queued runs, pooled: a shared machine's load swings);
"direct + saved" also stores each report (what a job persists besides its state).
Each run is warmed up with one job first (imports, model loads, driver).

``queued_*`` is the workers' drain rate: the queue is filled with the workers'
consumers paused (``cancel_consumer``), then released, and the clock runs until
the last job is ``done`` in the graph (job state and report writes included).
``end_to_end_one_loop_enqueuing`` times the same from the first request while
this one loop sends the requests (3 store round trips and a publish each): there
the producer, not the workers, sets the pace, which is what the earlier 0.53
measured.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack, suppress
from itertools import pairwise
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from provgraph.config import Settings  # noqa: E402
from provgraph.events import Event  # noqa: E402
from provgraph.store.port import GraphStore  # noqa: E402
from provgraph.store.types import Job, JobState  # noqa: E402
from provgraph.verification.config import VerificationConfig  # noqa: E402

FIXTURE = REPO / "tests" / "fixtures" / "multi_agent_session.jsonl"
OUTPUT_ID = "coord.final"


def events(variant: str) -> list[Event]:
    """The fixture session with a distinct marker sentence in every text.

    Without it every output would be the same text, and the per-process
    embedding cache would turn all but the first heavy job into cache hits.
    """
    out = []
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        raw = json.loads(line)
        if raw.get("content"):
            raw["content"] = f"Record {variant}. {raw['content']}"
        out.append(Event.model_validate(raw))
    return out


def make_projects(store: GraphStore, n: int, tag: str) -> list[str]:
    names = [f"bench-{tag}-{uuid.uuid4().hex[:8]}-{i}" for i in range(n)]
    for name in names:
        store.ingest(name, events(name))
    return names


def run_direct(
    store: GraphStore, config: VerificationConfig, n: int, *, save: bool = False
) -> dict[str, float]:
    """``verify_output`` in this process; ``save`` also stores each report (the
    persistent outcome a job has, without the job's state writes or the queue)."""
    from provgraph.verification.engine import verify_output
    from provgraph.verification.report import report_to_stored
    from services.worker.runtime import stage_models

    models = stage_models(config)
    projects = make_projects(store, n + 1, "direct")
    verify_output(store, projects[0], OUTPUT_ID, config, models=models)  # warm-up
    citations = 0
    per_job: list[float] = []
    started = time.perf_counter()
    for project in projects[1:]:
        one = time.perf_counter()
        report = verify_output(store, project, OUTPUT_ID, config, models=models)
        if save:
            store.save_report(project, report_to_stored(report, OUTPUT_ID, None))
        citations += report.citations_checked
        per_job.append(time.perf_counter() - one)
    elapsed = time.perf_counter() - started
    return {
        "seconds": elapsed,
        "citations": citations,
        "reports": n,
        "per_job_median_s": statistics.median(per_job),
    }


def start_worker(
    settings: Settings, concurrency: int, log_dir: Path, tree: Path = REPO
) -> tuple[subprocess.Popen[bytes], str]:
    """A ``celery worker -c concurrency`` running the code of ``tree`` (default: this one)."""
    from services.worker.dispatch import celery_app_for

    name = f"bench{concurrency}-{uuid.uuid4().hex[:6]}@localhost"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROVGRAPH_")}
    env.update(
        {
            "PROVGRAPH_BROKER_URL": settings.broker_url or "",
            "PROVGRAPH_NEO4J_URI": settings.neo4j_uri or "",
            "PROVGRAPH_NEO4J_USER": settings.neo4j_user,
            "PROVGRAPH_NEO4J_PASSWORD": settings.neo4j_password or "",
            "PYTHONPATH": str(tree),
        }
    )
    log = (log_dir / f"{name.split('@')[0]}.log").open("wb")
    popen = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "services.worker.app",
            "worker",
            "-c",
            str(concurrency),
            "--without-gossip",
            "--without-mingle",
            "-Q",
            "light,heavy",
            "-l",
            "WARNING",
            "-n",
            name,
        ],
        cwd=tree,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    app = celery_app_for(settings)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if popen.poll() is not None:
            raise SystemExit(f"worker exited with {popen.returncode}; see {log.name}")
        if any(name in r for r in (app.control.ping(destination=[name], timeout=1.0) or [])):
            return popen, name
        time.sleep(0.5)
    stop_worker(popen)
    raise SystemExit("worker did not answer ping within 120 s")


def stop_worker(popen: subprocess.Popen[bytes]) -> None:
    if popen.poll() is None:
        popen.send_signal(signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            popen.wait(timeout=30)
    with suppress(ProcessLookupError):
        os.killpg(popen.pid, signal.SIGKILL)
    popen.wait(timeout=30)


def wait_all(
    store: GraphStore, jobs: list[tuple[str, str]], timeout: float = 1800
) -> tuple[int, list[Job]]:
    """Wait until every (project, job id) is finished; returns citations checked and the jobs.

    Polls only the last job still unfinished (every 20 ms) and checks the others
    once it is done: polling every job every 0.1 s put tens of reads per second
    on the same two cores as the worker and its store, and added up to 0.1 s.
    """
    deadline = time.monotonic() + timeout
    pending = list(jobs)
    citations = 0
    finished: list[Job] = []
    while pending:
        project, job_id = pending[-1]
        while True:
            if time.monotonic() > deadline:
                raise SystemExit(f"{len(pending)} jobs not finished in {timeout:.0f}s")
            job = store.get_job(project, job_id)
            if job is not None and job.state in (JobState.DONE, JobState.FAILED):
                break
            time.sleep(0.02)
        still = []
        for project, job_id in pending:
            job = store.get_job(project, job_id)
            if job is None or job.state not in (JobState.DONE, JobState.FAILED):
                still.append((project, job_id))
            elif job.state is JobState.FAILED:
                raise SystemExit(f"job {job_id} failed: {job.error}")
            else:
                citations += int(job.extra.get("citations_checked", 0))
                finished.append(job)
        pending = still
    return citations, finished


def job_timing(jobs: list[Job]) -> dict[str, float]:
    """Per-job figures from the jobs' own ``started_at`` / ``finished_at`` in the graph.

    ``start_interval`` is the median time between two consecutive job starts:
    with one worker process it is everything a job costs the worker (the
    message, the job's state writes, the run, the report, the ack), and it is
    less sensitive to the neighbours' load than a drain rate over the whole run.
    ``run`` is ``started_at`` → ``finished_at`` as each version records it.
    """
    from datetime import datetime

    def at(job: Job, key: str) -> float:
        return datetime.fromisoformat(str(job.extra[key])).timestamp()

    starts = sorted(at(j, "started_at") for j in jobs)
    gaps = [b - a for a, b in pairwise(starts)]
    runs = [at(j, "finished_at") - at(j, "started_at") for j in jobs]
    return {
        "start_interval_median_s": round(statistics.median(gaps), 4) if gaps else 0.0,
        "run_median_s": round(statistics.median(runs), 4) if runs else 0.0,
    }


def run_queued(
    store: GraphStore,
    settings: Settings,
    config: VerificationConfig,
    n: int,
    concurrency: int,
    log_dir: Path,
) -> dict[str, float]:
    from services.worker.dispatch import celery_app_for, enqueue_verification

    popen, name = start_worker(settings, concurrency, log_dir)
    try:
        warm = make_projects(store, concurrency, f"warm{concurrency}")
        wait_all(
            store,
            [
                (
                    p,
                    enqueue_verification(
                        p, OUTPUT_ID, settings=settings, config=config, store=store
                    ).id,
                )
                for p in warm
            ],
        )
        projects = make_projects(store, n, f"q{concurrency}")
        # end to end: the clock runs from the first request, which one loop here sends
        started = time.perf_counter()
        jobs = enqueue_all(store, settings, config, projects)
        enqueue_s = time.perf_counter() - started
        citations, _ = wait_all(store, jobs)
        elapsed = time.perf_counter() - started
        # drain: the queue filled first (consumers paused), then the workers let go
        app = celery_app_for(settings)
        queues = ("light", "heavy")
        for queue in queues:
            app.control.cancel_consumer(queue, destination=[name], reply=True, timeout=10)
        primed = enqueue_all(store, settings, config, make_projects(store, n, f"d{concurrency}"))
        drain_started = time.perf_counter()
        for queue in queues:
            app.control.add_consumer(queue, destination=[name], reply=True, timeout=10)
        drain_citations, drained = wait_all(store, primed)
        drain_s = time.perf_counter() - drain_started
    finally:
        stop_worker(popen)
    return {
        "seconds": drain_s,
        "citations": drain_citations,
        "reports": n,
        "end_to_end_seconds": elapsed,
        "end_to_end_citations": citations,
        "enqueue_seconds": enqueue_s,
        **job_timing(drained),
    }


def enqueue_all(
    store: GraphStore, settings: Settings, config: VerificationConfig, projects: list[str]
) -> list[tuple[str, str]]:
    from services.worker.dispatch import enqueue_verification

    return [
        (p, enqueue_verification(p, OUTPUT_ID, settings=settings, config=config, store=store).id)
        for p in projects
    ]


def rates(run: dict[str, float]) -> tuple[float, float]:
    return run["citations"] / run["seconds"], run["reports"] / run["seconds"] * 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--outputs", type=int, default=20, help="outputs verified per run")
    parser.add_argument(
        "--stages",
        choices=("light", "heavy"),
        default="light",
        help="light: TF-IDF + consistency; heavy: + embeddings and NLI",
    )
    parser.add_argument(
        "--workers",
        type=lambda text: [int(x) for x in text.split(",")],
        default=[1, 2],
        help="worker process counts to measure, comma-separated (e.g. 1,2,4)",
    )
    parser.add_argument("--redis-url", default=os.environ.get("PROVGRAPH_TEST_REDIS_URL"))
    parser.add_argument("--neo4j-uri", default=os.environ.get("PROVGRAPH_TEST_NEO4J_URI"))
    args = parser.parse_args()
    config = (
        VerificationConfig(embeddings=False, nli=False)
        if args.stages == "light"
        else VerificationConfig()
    )
    # The temporary folder must outlive the ExitStack: the stop callbacks find the
    # servers through the pid files inside it.
    with tempfile.TemporaryDirectory(prefix="pg-bench-") as tmp, ExitStack() as stack:
        root = Path(tmp)
        redis_url, neo4j_uri = args.redis_url, args.neo4j_uri
        from provgraph.ops import _process

        if not redis_url:
            from provgraph.ops.redis_server import start_redis, stop_redis

            redis_url = start_redis(root / "redis", _process.free_port(), persistent=False).url
            stack.callback(stop_redis, root / "redis", 10.0)
        if not neo4j_uri:
            from provgraph.ops.neo4j_server import start_neo4j, stop_neo4j

            neo4j_uri = start_neo4j(
                root / "neo4j",
                _process.free_port(),
                auth=False,
                heap="512m",
                pagecache="256m",
                timeout=300,
            ).uri
            stack.callback(stop_neo4j, root / "neo4j", 30.0)
        settings = Settings(
            broker_url=redis_url,
            neo4j_uri=neo4j_uri,
            neo4j_password=os.environ.get("PROVGRAPH_TEST_NEO4J_PASSWORD") or None,
        )
        from provgraph.store.neo4j import open_neo4j_store

        store = open_neo4j_store(settings)
        stack.callback(store.close)
        direct = run_direct(store, config, args.outputs)
        saved = run_direct(store, config, args.outputs, save=True)
        queued = {
            str(c): run_queued(store, settings, config, args.outputs, c, root) for c in args.workers
        }
    d_cps, d_rpm = rates(direct)
    end_to_end = {
        k: {
            "citations_per_s": round(v["end_to_end_citations"] / v["end_to_end_seconds"], 2),
            "enqueue_jobs_per_s": round(v["reports"] / v["enqueue_seconds"], 2),
        }
        for k, v in queued.items()
    }
    s_cps, s_rpm = rates(saved)
    q = {k: rates(v) for k, v in queued.items()}
    result: dict[str, Any] = {
        "direct_citations_per_s": round(d_cps, 2),
        "direct_reports_per_min": round(d_rpm, 1),
        "queued_citations_per_s": {k: round(v[0], 2) for k, v in q.items()},
        "queued_reports_per_min": {k: round(v[1], 1) for k, v in q.items()},
        "direct_saved_citations_per_s": round(s_cps, 2),
        "direct_saved_reports_per_min": round(s_rpm, 1),
        "ratio_one_worker": round(q["1"][0] / d_cps, 3) if d_cps and "1" in q else None,
        "ratio_one_worker_vs_saved": round(q["1"][0] / s_cps, 3) if s_cps and "1" in q else None,
        "scaling_vs_one_worker": {k: round(v[0] / q["1"][0], 3) for k, v in q.items()}
        if "1" in q
        else None,
        "per_job_s": {
            "direct_median": round(direct["per_job_median_s"], 4),
            "direct_saved_median": round(saved["per_job_median_s"], 4),
            "queued_start_interval_median": {
                k: v["start_interval_median_s"] for k, v in queued.items()
            },
            "queued_run_median": {k: v["run_median_s"] for k, v in queued.items()},
        },
        "ratio_one_worker_per_job": round(
            direct["per_job_median_s"] / queued["1"]["start_interval_median_s"], 3
        )
        if "1" in queued and queued["1"]["start_interval_median_s"]
        else None,
        "ratio_one_worker_per_job_vs_saved": round(
            saved["per_job_median_s"] / queued["1"]["start_interval_median_s"], 3
        )
        if "1" in queued and queued["1"]["start_interval_median_s"]
        else None,
        "loadavg": [round(x, 2) for x in os.getloadavg()],
        "end_to_end_one_loop_enqueuing": end_to_end,
        "outputs": args.outputs,
        "stages": args.stages,
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
    }
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        print(f"direct: {d_cps:.2f} citations/s, {d_rpm:.1f} reports/min")
        print(f"direct + report saved: {s_cps:.2f} citations/s, {s_rpm:.1f} reports/min")
        for k, (cps, rpm) in q.items():
            print(f"queue, {k} worker process(es): {cps:.2f} citations/s, {rpm:.1f} reports/min")
        print(f"ratio (1 worker / direct): {result['ratio_one_worker']}")


if __name__ == "__main__":
    main()
