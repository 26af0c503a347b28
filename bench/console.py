"""Console benchmark: page load and first graph render for a 50-node and a 5,000-node session.

Usage::

    python bench/console.py [--json] [--neo4j-uri bolt://…] [--runs 5]
        [--chromium /usr/bin/chromium]

Starts the API on uvicorn in this process (Neo4j when ``--neo4j-uri`` or
``PROVGRAPH_TEST_NEO4J_URI`` is given, else the embedded store), ingests one
synthetic session of each size over HTTP (``provgraph.examples.synthetic``),
signs in once in headless Chromium (Debian's binary through Playwright) and,
per run, opens ``/ui/#/session/ID`` in a fresh page:

* **page load**: navigation start → the graph drawn (``#graph[data-rendered]``),
  which includes the GraphQL round trips (session, node pages, edges);
* **first render**: the console's own measure, from the data in hand to
  Cytoscape's first layout done (``window.__provgraph.firstRenderMs``).

Sessions above 300 nodes open collapsed by agent (one box per agent); the
target is a first render ≤ 2 s for 5,000 nodes. Median and max of ``--runs``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from provgraph.config import Settings  # noqa: E402
from provgraph.examples.synthetic import synthetic_session  # noqa: E402
from tests.console.conftest import start_api  # noqa: E402

KEY = "bench-console-admin-" + uuid.uuid4().hex


def ingest(base: str, events: list[dict[str, Any]]) -> None:
    for start in range(0, len(events), 1000):
        response = httpx.post(
            f"{base}/v1/events",
            json=events[start : start + 1000],
            headers={"Authorization": f"Bearer {KEY}"},
            timeout=300,
        )
        response.raise_for_status()


def measure(page: Any, base: str, session: str) -> tuple[float, float]:
    page.goto("about:blank")
    started = time.perf_counter()
    page.goto(f"{base}/ui/#/session/{session}")
    page.wait_for_selector("#graph[data-rendered='true']", timeout=120_000)
    load_ms = (time.perf_counter() - started) * 1000
    render_ms = float(page.evaluate("window.__provgraph.firstRenderMs"))
    return load_ms, render_ms


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--neo4j-uri", default=os.environ.get("PROVGRAPH_TEST_NEO4J_URI"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--chromium", default=os.environ.get("PROVGRAPH_CHROMIUM", "/usr/bin/chromium")
    )
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    home = Path(tempfile.mkdtemp(prefix="provgraph-bench-console-"))
    project = f"bench-console-{uuid.uuid4().hex[:6]}"
    settings = Settings(
        home=home,
        auth=True,
        bootstrap_admin_key=KEY,
        project=project,
        keys_db=home / "keys.sqlite3",
        store_path=home / "events.jsonl",
        neo4j_uri=args.neo4j_uri,
        auto_verify=False,
    )
    _, server, base = start_api(settings)
    results: dict[str, Any] = {"store": "neo4j" if args.neo4j_uri else "memory", "runs": args.runs}
    try:
        sessions = {}
        for size in (50, 5000):
            session = f"bench-{size}-{uuid.uuid4().hex[:6]}"
            events = synthetic_session(session, size, agents=4 if size < 100 else 10)
            ingest(base, events)
            sessions[size] = (session, len(events))
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
            context = browser.new_context(viewport={"width": 1440, "height": 900})
            page = context.new_page()
            page.goto(f"{base}/ui/")
            page.fill("#api-key", KEY)
            page.click("form.signin button[type=submit]")
            page.wait_for_selector("#who .role")
            for size, (session, nodes) in sessions.items():
                measure(page, base, session)  # warm-up (caches, JIT)
                loads, renders = zip(
                    *(measure(page, base, session) for _ in range(args.runs)), strict=True
                )
                results[f"nodes_{size}"] = {
                    "nodes": nodes,
                    "page_load_ms_median": round(statistics.median(loads)),
                    "page_load_ms_max": round(max(loads)),
                    "first_render_ms_median": round(statistics.median(renders)),
                    "first_render_ms_max": round(max(renders)),
                }
            browser.close()
    finally:
        server.should_exit = True
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for key, value in results.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
