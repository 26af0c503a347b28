"""Times the real predecessor (``pydantic-ai-provenance``) for ``bench/verify_speed.py``.

Runs inside the predecessor's own Python ≥ 3.12 environment and imports only
that package and the standard library. Protocol (one JSON object per line):
the first stdin line is ``{"text": ..., "sources": {key: text}}``; the runner
builds a predecessor ``ProvenanceStore`` holding each source the way the
predecessor's capability records a file read (a ``data_read`` node with a
``tool_result`` successor whose ``result`` is the text, the key registered
with ``register_data_source``), answers ``{"ready": true, "version": ...}``,
then for each ``{"op": "tfidf" | "verify_citations"}`` line runs that
predecessor function once on the text and answers ``{"seconds", "cpu_seconds",
"citations", "scores"}``. ``{"op": "quit"}`` ends it.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import json
import sys
import time
from typing import Any


def build_store(sources: dict[str, str]) -> Any:
    from pydantic_ai_provenance.graph import NodeType, ProvenanceNode
    from pydantic_ai_provenance.store import ProvenanceStore

    store = ProvenanceStore()
    keys: dict[str, str] = {}
    for wanted, text in sources.items():
        read = ProvenanceNode.create(NodeType.DATA_READ, f"read {wanted}", "bench", "run-1")
        result = ProvenanceNode.create(
            NodeType.TOOL_RESULT, f"result {wanted}", "bench", "run-1", result=text
        )
        store.add_node(read)
        store.add_node(result)
        store.add_edge(read.id, result.id, "returns")
        keys[wanted] = store.register_data_source(read.id)
    if keys != {k: k for k in sources}:
        raise SystemExit(f"predecessor assigned keys {keys}; the bench expects d_1..d_n in order")
    return store


def main() -> int:
    from pydantic_ai_provenance import verification as v

    first = json.loads(sys.stdin.readline())
    text: str = first["text"]
    store = build_store(first["sources"])
    version = importlib.metadata.version("pydantic-ai-provenance")
    print(json.dumps({"ready": True, "version": version, "python": sys.version.split()[0]}))
    sys.stdout.flush()
    for line in sys.stdin:
        cmd = json.loads(line)
        if cmd.get("op") == "quit":
            break
        t0, c0 = time.perf_counter(), time.process_time()
        if cmd["op"] == "tfidf":
            records = v.compare_claim_to_sources_tfidf(text, store)
        else:
            records = asyncio.run(v.verify_citations(text, store)).claim_source_similarities
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        scores = [s for r in records for s in r.scores]
        out = {"seconds": seconds, "cpu_seconds": cpu, "citations": len(records)}
        print(json.dumps({**out, "scores": scores}))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
