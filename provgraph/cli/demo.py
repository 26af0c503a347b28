"""``provgraph demo``: the main job end to end on the embedded default, no server needed.

Ingests a shipped multi-agent session (a coordinator delegating to two
sub-agents that read data; a final output whose citations are well supported,
weak, contradicted, unresolvable, multi-key and adjacent), prints its
attribution, verifies every citation with the stages available on this machine,
prints the report and writes the HTML graph and the report JSON, saying where.
"""

from __future__ import annotations

import json
from importlib.resources import as_file, files
from pathlib import Path

from provgraph.attribution import attribute
from provgraph.cli.common import console
from provgraph.cli.ingest import ingest_file
from provgraph.cli.report_view import print_report
from provgraph.cli.verifying import verify_and_store
from provgraph.config import load_settings
from provgraph.graph import NodeType
from provgraph.store.memory import MemoryGraphStore

DEMO_PROJECT = "demo"
DEMO_SESSION = "demo-session-1"


def run_demo(out: Path, *, fast: bool = False) -> None:
    """Run the demo, writing ``events.jsonl``, ``demo_graph.html`` and the report into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    log_path = out / "events.jsonl"
    log_path.unlink(missing_ok=True)  # each demo run starts from the shipped session
    store = MemoryGraphStore(log_path)
    try:
        with as_file(files("provgraph.examples") / "demo_session.jsonl") as events_path:
            ingested = ingest_file(store, DEMO_PROJECT, events_path)
        console.print(
            f"[bold]Ingested[/] {ingested.accepted} events of session '{DEMO_SESSION}' into the "
            f"embedded store (event log: {log_path})",
            highlight=False,
        )
        graph = store.session_graph(DEMO_PROJECT, DEMO_SESSION)
        outputs = [
            n
            for n in graph.final_output_nodes()
            if n.citation_key is None  # not a sub-agent's
        ]
        output = outputs[0]
        attribution = attribute(store, DEMO_PROJECT, output.id, max_paths=12)
        console.rule("Attribution")
        console.print(attribution.summary(), highlight=False)
        console.rule("Verification")
        console.print(f"Verifying the citations of '{output.label}' …", highlight=False)
        report = verify_and_store(
            store, DEMO_PROJECT, output.id, settings=load_settings(), fast=fast
        )
        print_report(report)

        from provgraph.exports.render import render_graph

        html_path = out / "demo_graph.html"
        html_path.write_text(
            render_graph(
                store.session_graph(DEMO_PROJECT, DEMO_SESSION),
                "html",
                title="provgraph demo: research_coordinator session",
            ),
            encoding="utf-8",
        )
        report_path = out / "verification_report.json"
        report_path.write_text(
            json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n",
            encoding="utf-8",
        )
        sub_agents = sorted(
            {n.agent_name for n in graph.nodes.values() if n.type == NodeType.AGENT_RUN}
            - {output.agent_name}
        )
        console.rule("Written")
        console.print(f"HTML graph:           {html_path.resolve()}", highlight=False)
        console.print(f"Verification report:  {report_path.resolve()}", highlight=False)
        console.print(
            f"Session: {len(graph.nodes)} nodes, {len(graph.edges)} edges, sub-agents "
            f"{', '.join(sub_agents)}",
            highlight=False,
        )
    finally:
        store.close()
