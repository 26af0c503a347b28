"""Neo4j ingestion throughput (bare driver vs. the adapter) and query latency.

    python bench/ingest.py --nodes 100000 --json

Runs against a real Neo4j: ``PROVGRAPH_NEO4J_URI`` (and user/password) if set,
else a throwaway instance started and stopped through ``provgraph.ops``.

* ``raw_rows_per_s``: the final nodes and edges of the workload written with
  the bare driver, ``UNWIND`` batches of ``--batch-size`` rows, one transaction
  each, ``MERGE`` on (project, id) (the ceiling: no dedupe, no LWW, no key checks);
* ``store_rows_per_s``: the same graph through ``Neo4jGraphStore.ingest`` from
  the events (batches of ``--batch-size`` events), same rows counted;
* ``raw_client_cpu_seconds`` / ``store_client_cpu_seconds``: this process's CPU
  (``time.process_time``) in each side: what of the wall time is the client's
  Python (and the driver's packing), the rest being the server and waiting;
* the two are interleaved batch by batch (raw, store, raw, …) so that a busy
  machine's load swings hit both alike;
* ``queries``: p50/p99 ms after a warm-up, on the graph the adapter built:
  attribution of random final outputs (default bounds); lineage downstream of
  random data reads (depth 10, limit 1000); lineage downstream of the *hot*
  corpus document read by ~1,000 sessions (depth 3, limit 1000); the sessions
  page (first 50, filtered by agent ``analyst1`` and ``since`` the last hour of
  the workload's clock, one session a minute); the store call behind the
  console's session query (``session_graph`` of a random session, summarised).

``--heap`` and ``--pagecache`` size the Neo4j the script starts itself (a
configured server keeps its own): 10^6 nodes take about 1.3 GB on disk.

Both graphs live under their own bench project ids and are deleted at the end
(``--keep`` keeps them). ``--project NAME --keep`` loads the queried graph under a
fixed name; ``--project NAME --reuse`` later re-runs only the queries on it (same
``--nodes`` and ``--seed``; nothing is written or deleted), e.g. to compare two
checkouts against one loaded server.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import neo4j
from _neo4j import neo4j_for_benchmark
from _workload import T0, Workload, build_workload

from provgraph.graph import EdgeLabel
from provgraph.mapping import utc_text
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.neo4j import Neo4jGraphStore, open_neo4j_store
from provgraph.store.types import AttributionQuery, LineageDirection, SessionFilter
from services.api.graphql.types.Session import summary_from_graph

RAW_NODES = (
    "UNWIND $rows AS row\nMERGE (n:Node {project: $project, id: row.id})\nSET n += row.props"
)


def raw_edges(label: EdgeLabel) -> str:
    return (
        "UNWIND $rows AS row\n"
        "MERGE (s:Node {project: $project, id: row.s})\n"
        "MERGE (t:Node {project: $project, id: row.t})\n"
        f"MERGE (s)-[:{label.value}]->(t)"
    )


def final_graph(workload: Workload) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, str]]]]:
    """The graph the events describe (embedded store as the oracle), as raw rows."""
    memory = MemoryGraphStore()
    memory.ingest("bench", workload.events)
    graph = memory._project("bench").graph
    nodes = []
    for node in graph.nodes.values():
        props = {
            "type": node.type.value if node.type else None,
            "label": node.label,
            "session_id": node.session_id,
            "run_id": node.run_id,
            "agent_name": node.agent_name,
            "content": node.content,
            "citation_key": node.citation_key,
            "timestamp": utc_text(node.timestamp),
            "data": json.dumps(node.data, sort_keys=True) if node.data else None,
        }
        nodes.append({"id": node.id, "props": {k: v for k, v in props.items() if v is not None}})
    edges: dict[str, list[dict[str, str]]] = {}
    for edge in graph.edges:
        edges.setdefault(edge.label, []).append({"s": edge.source_id, "t": edge.target_id})
    return nodes, edges


def raw_batches(
    nodes: list[dict[str, Any]], edges: dict[str, list[dict[str, str]]], batch: int
) -> list[tuple[str, dict[str, Any]]]:
    """(statement, parameters) of every raw transaction, nodes first."""
    work = [(RAW_NODES, {"rows": nodes[i : i + batch]}) for i in range(0, len(nodes), batch)]
    for label, rows in edges.items():
        work += [
            (raw_edges(EdgeLabel(label)), {"rows": rows[i : i + batch]})
            for i in range(0, len(rows), batch)
        ]
    return work


@dataclass
class Spent:
    """Wall and client CPU seconds (``time.process_time``) of each side."""

    raw_s: float = 0.0
    store_s: float = 0.0
    raw_cpu_s: float = 0.0
    store_cpu_s: float = 0.0


def interleaved_ingest(
    store: Neo4jGraphStore,
    database: str,
    workload: Workload,
    raw_work: list[tuple[str, dict[str, Any]]],
    batch: int,
    raw_project: str,
    store_project: str,
) -> Spent:
    """Alternate raw transactions and adapter batches; seconds spent by each side."""
    event_batches = [workload.events[i : i + batch] for i in range(0, len(workload.events), batch)]
    spent = Spent()
    raw_per_turn = -(-len(raw_work) // max(1, len(event_batches)))
    pending = list(raw_work)

    def raw(work: list[tuple[str, dict[str, Any]]]) -> None:
        started, cpu = time.perf_counter(), time.process_time()
        for text, params in work:
            store.driver.execute_query(text, {"project": raw_project, **params}, database_=database)
        spent.raw_s += time.perf_counter() - started
        spent.raw_cpu_s += time.process_time() - cpu

    for events in event_batches:
        raw(pending[:raw_per_turn])
        del pending[:raw_per_turn]
        started, cpu = time.perf_counter(), time.process_time()
        result = store.ingest(store_project, events)
        spent.store_s += time.perf_counter() - started
        spent.store_cpu_s += time.process_time() - cpu
        assert len(result.accepted) == len(events), "every event must be accepted"
    raw(pending)
    return spent


def latencies(
    call: Callable[[str], object], ids: list[str], count: int, rng: random.Random, warmup: int = 20
) -> dict[str, float]:
    for node_id in rng.sample(ids, min(warmup, len(ids))):
        call(node_id)
    samples = []
    for _ in range(count):
        node_id = rng.choice(ids)
        started = time.perf_counter()
        call(node_id)
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return {
        "p50_ms": round(statistics.median(samples), 2),
        "p99_ms": round(samples[min(len(samples) - 1, int(len(samples) * 0.99))], 2),
        "mean_ms": round(statistics.fmean(samples), 2),
        "n": count,
    }


def delete_projects(driver: neo4j.Driver, database: str, projects: list[str]) -> None:
    with driver.session(database=database) as session:
        for label in ("Node", "Delivery", "CitationKey", "IngestLock", "AuditEntry", "AuditHead"):
            session.run(
                f"MATCH (n:{label}) WHERE n.project IN $projects "
                "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
                projects=projects,
            ).consume()


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    workload = build_workload(args.nodes, seed=args.seed)
    nodes, edges = ([], {}) if args.no_raw or args.reuse else final_graph(workload)
    rows = len(nodes) + sum(len(r) for r in edges.values())
    if not args.no_gc_freeze:
        # The workload (10^5-10^6 events and their raw rows) is the bench's own data,
        # held for the whole run: without this every full collection during the timed
        # ingest walks it (a third of the adapter's client CPU at 10^5), a cost no
        # ingesting process pays. Both sides run in this process, so both gain alike.
        gc.collect()
        gc.freeze()
    load_before = os.getloadavg()
    with neo4j_for_benchmark(args.batch_size, args.heap, args.pagecache) as (
        settings,
        started_here,
    ):
        store = open_neo4j_store(settings)
        assert isinstance(store, Neo4jGraphStore)
        driver, database = store.driver, settings.neo4j_database
        raw_project, store_project = (
            f"bench-{kind}-{uuid.uuid4().hex[:8]}" for kind in ("raw", "store")
        )
        store_project = args.project or store_project
        try:
            if args.reuse:  # queries only, on a graph loaded earlier with --keep
                spent = Spent()
            else:
                warm = f"bench-warm-{uuid.uuid4().hex[:8]}"  # plan every statement once first
                interleaved_ingest(
                    store,
                    database,
                    build_workload(300, seed=1),
                    raw_batches(nodes[:50], {k: v[:20] for k, v in edges.items()}, 50),
                    args.batch_size,
                    warm,
                    warm + "-s",
                )
                delete_projects(driver, database, [warm, warm + "-s"])
                if args.raw_load:  # the graph's shape without the adapter's cost: queries only
                    started = time.perf_counter()
                    for text, params in raw_batches(nodes, edges, args.batch_size):
                        execute = {"project": store_project, **params}
                        driver.execute_query(text, execute, database_=database)
                    spent = Spent(raw_s=time.perf_counter() - started)
                else:
                    spent = interleaved_ingest(
                        store,
                        database,
                        workload,
                        raw_batches(nodes, edges, args.batch_size),
                        args.batch_size,
                        raw_project,
                        store_project,
                    )
            raw_s, store_s = spent.raw_s, spent.store_s
            attribution = latencies(
                lambda i: store.attribution(store_project, AttributionQuery(i)),
                workload.final_outputs,
                args.queries,
                rng,
            )
            lineage = latencies(
                lambda i: store.lineage(
                    store_project, i, direction=LineageDirection.DOWN, depth=10, limit=1000
                ),
                workload.data_reads,
                args.queries,
                rng,
            )
            shared = latencies(
                lambda i: store.lineage(
                    store_project, i, direction=LineageDirection.DOWN, depth=3, limit=1000
                ),
                workload.corpus[:8],
                max(20, args.queries // 10),
                rng,
            )
            hot = latencies(
                lambda i: store.lineage(
                    store_project, i, direction=LineageDirection.DOWN, depth=3, limit=1000
                ),
                [workload.hot],
                max(20, args.queries // 10),
                rng,
                warmup=3,
            )
            since = T0 + timedelta(minutes=max(0, workload.sessions - 60))
            page_filter = SessionFilter(agent_name="analyst1", since=since)
            sessions_page = latencies(
                lambda _: store.list_sessions(store_project, first=50, filter=page_filter),
                ["page"],
                max(20, args.queries // 10),
                rng,
                warmup=3,
            )
            session_ids = [f"s{i:06d}" for i in range(workload.sessions)]
            console = latencies(
                lambda i: summary_from_graph(store.session_graph(store_project, i), i),
                session_ids,
                args.queries,
                rng,
            )
            server = driver.execute_query(
                "CALL dbms.components() YIELD name, versions, edition "
                "RETURN name + ' ' + versions[0] + ' ' + edition AS v",
                database_=database,
            ).records[0]["v"]
        finally:
            if not (args.keep or args.reuse):
                delete_projects(driver, database, [raw_project, store_project])
            store.close()
    raw_rate = rows / raw_s if rows and raw_s else 0.0
    store_rate = rows / store_s if rows and store_s else 0.0
    return {
        "nodes": len(nodes) or len({e.node_id for e in workload.events}),
        "edges": rows - len(nodes),
        "events": len(workload.events),
        "store_events_per_s": round(len(workload.events) / store_s, 1) if store_s else None,
        "loaded_by": "raw writer (queries only)" if args.raw_load else "adapter",
        "project": store_project,
        "reused": args.reuse,
        "sessions": workload.sessions,
        "batch_size": args.batch_size,
        "raw_rows_per_s": round(raw_rate, 1),
        "store_rows_per_s": round(store_rate, 1),
        "ratio": round(store_rate / raw_rate, 3) if raw_rate and store_rate else None,
        "raw_seconds": round(raw_s, 2),
        "store_seconds": round(store_s, 2),
        "raw_client_cpu_seconds": round(spent.raw_cpu_s, 2),
        "store_client_cpu_seconds": round(spent.store_cpu_s, 2),
        "queries": {
            "attribution": attribution,
            "lineage": lineage,
            "lineage_shared_source_depth3": shared,
            "lineage_hot_source_depth3": hot,
            "sessions_page_agent_since": sessions_page,
            "console_session_query": console,
        },
        "hot_source_readers": sum(1 for e in workload.events if workload.hot in e.parent_ids),
        "environment": {
            "neo4j": server,
            "neo4j_started_here": started_here,
            "driver": f"neo4j {neo4j.__version__}",
            "python": platform.python_version(),
            "cpu_count": os.cpu_count(),
            "gc_frozen": not args.no_gc_freeze,
            "loadavg_before": [round(x, 2) for x in load_before],
            "loadavg_after": [round(x, 2) for x in os.getloadavg()],
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=10_000, help="graph size (10^6 is opt-in)")
    parser.add_argument("--batch-size", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=300, help="timed queries per kind")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the bench projects")
    parser.add_argument(
        "--no-raw",
        action="store_true",
        help="adapter only, no raw writer (no ratio): the queries at a size too slow to load twice",
    )
    parser.add_argument(
        "--raw-load",
        action="store_true",
        help="load the queried graph with the raw writer only (no ratio): queries at 10^6",
    )
    parser.add_argument("--project", help="the queried graph's project id (default: random)")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="only query --project, loaded earlier with --keep (same --nodes and --seed)",
    )
    parser.add_argument("--heap", default="1g", help="JVM heap of a Neo4j started here")
    parser.add_argument("--pagecache", default="512m", help="page cache of a Neo4j started here")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--no-gc-freeze",
        action="store_true",
        help="leave the workload in the collector's generations (the A/B of gc.freeze)",
    )
    args = parser.parse_args(argv)
    if args.reuse and not args.project:
        parser.error("--reuse needs --project (the project an earlier --keep run loaded)")
    report = run(args)
    if args.json:
        print(json.dumps(report))
    else:
        q = report["queries"]
        print(f"{report['nodes']} nodes, {report['edges']} edges, {report['events']} events")
        print(
            f"raw {report['raw_rows_per_s']} rows/s, store {report['store_rows_per_s']} rows/s,"
            f" ratio {report['ratio']}"
        )
        for name, figures in q.items():
            print(f"{name}: p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
