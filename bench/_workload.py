"""Synthetic provenance shaped like real multi-agent sessions, for the Neo4j benchmark.

Each session: a coordinator run with a user input and a tool loop (model
request → response → tool call → data read with a ``d_N`` key → tool result),
one or two delegations to sub-agents that run their own loops and answer with
an ``a_N``-keyed response, a final model response and a final output citing
the keys. Data reads come from a shared corpus: a read in a session has the
corpus document (a data-read node shared by many sessions) as its parent, so
popular documents are upstream of many outputs. One *hot* document
(``Workload.hot``) is read by about 1,000 sessions (every session when there
are fewer), for the shared-source lineage figure. Deterministic for a seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from provgraph.events import Event

T0 = datetime(2026, 4, 1, 8, 0, tzinfo=UTC)
CORPUS_SESSION = "corpus"
SESSION_NODES = 45
"""About how many distinct nodes one session has."""


@dataclass
class Workload:
    events: list[Event] = field(default_factory=list)
    final_outputs: list[str] = field(default_factory=list)
    data_reads: list[str] = field(default_factory=list)
    corpus: list[str] = field(default_factory=list)
    sessions: int = 0
    hot: str = ""
    """The corpus document about 1,000 sessions read."""
    hot_share: float = 1.0


class _Session:
    def __init__(self, workload: Workload, index: int, rng: random.Random) -> None:
        self.w, self.rng, self.sid = workload, rng, f"s{index:06d}"
        self.clock = T0 + timedelta(minutes=index)
        self.seq = 0
        self.keys = 0

    def emit(
        self, node_type: str, node: str, run: str, agent: str, parents: list[str], **extra: Any
    ) -> str:
        self.seq += 1
        self.clock += timedelta(milliseconds=self.rng.randint(5, 900))
        node_id = f"{self.sid}.{node}"
        self.w.events.append(
            Event.model_validate(
                {
                    "id": f"{node_id}#{self.seq}",
                    "type": node_type,
                    "timestamp": self.clock,
                    "session_id": self.sid,
                    "node_id": node_id,
                    "run_id": f"{self.sid}.{run}",
                    "agent_name": agent,
                    "parent_ids": parents,
                    **extra,
                }
            )
        )
        return node_id

    def key(self, prefix: str) -> str:
        self.keys += 1
        return f"{prefix}_{self.keys}"

    def loop(self, run: str, agent: str, start: str, turns: int) -> tuple[str, list[str]]:
        """A tool loop; returns the last response and the keys of the data it read."""
        last = start
        keys: list[str] = []
        for turn in range(turns):
            req = self.emit(
                "model_request",
                f"{run}.req{turn}",
                run,
                agent,
                [last],
                data={"model": "gpt-4.1-mini"},
            )
            resp = self.emit(
                "model_response",
                f"{run}.resp{turn}",
                run,
                agent,
                [req],
                content=f"Turn {turn}: I will read more.",
            )
            call = self.emit(
                "tool_call", f"{run}.call{turn}", run, agent, [resp], data={"tool": "read_file"}
            )
            if turn == 0 and agent == "coordinator" and self.rng.random() < self.w.hot_share:
                doc = self.w.hot
            else:
                doc = self.rng.choice(
                    self.w.corpus[: max(8, len(self.w.corpus) // 4)]
                    if self.rng.random() < 0.6
                    else self.w.corpus
                )
            key = self.key("d")
            read = self.emit(
                "data_read",
                f"{run}.read{turn}",
                run,
                agent,
                [call, doc],
                citation_key=key,
                content=f"Excerpt {turn} of {doc}: facts.",
            )
            self.w.data_reads.append(read)
            result = self.emit("tool_result", f"{run}.result{turn}", run, agent, [read])
            last, keys = result, [*keys, key]
        return last, keys

    def build(self) -> None:
        coord, agent = "coord", "coordinator"
        run = self.emit("agent_run", "coord.run", coord, agent, [], label="Agent: coordinator")
        start = self.emit("input", "coord.input", coord, agent, [run], content="Question?")
        last, keys = self.loop(coord, agent, start, self.rng.randint(1, 3))
        results = []
        for sub in range(self.rng.randint(1, 2)):
            name, sub_run = f"analyst{sub}", f"sub{sub}"
            call = self.emit(
                "tool_call", f"coord.delegate{sub}", coord, agent, [last], data={"tool": "delegate"}
            )
            child = self.emit("agent_run", f"{sub_run}.run", sub_run, name, [call])
            task = self.emit("input", f"{sub_run}.input", sub_run, name, [child], content="Task")
            sub_last, sub_keys = self.loop(sub_run, name, task, self.rng.randint(2, 4))
            req = self.emit("model_request", f"{sub_run}.final_req", sub_run, name, [sub_last])
            cites = "".join(f" [REF|{k}]" for k in sub_keys)
            answer = self.emit(
                "model_response",
                f"{sub_run}.answer",
                sub_run,
                name,
                [req],
                citation_key=self.key("a"),
                content=f"Findings{cites}.",
            )
            self.emit(
                "agent_run", f"{sub_run}.run", sub_run, name, [], data={"status": "completed"}
            )
            results.append(self.emit("tool_result", f"coord.result{sub}", coord, agent, [answer]))
            keys.append(f"a_{self.keys}")
        req = self.emit("model_request", "coord.final_req", coord, agent, [last, *results])
        text = "Answer" + "".join(f" [REF|{k}]" for k in keys) + "."
        resp = self.emit("model_response", "coord.final_resp", coord, agent, [req], content=text)
        self.w.final_outputs.append(
            self.emit("final_output", "coord.final", coord, agent, [resp], content=text)
        )
        self.emit("agent_run", "coord.run", coord, agent, [], data={"status": "completed"})


def build_workload(nodes: int, seed: int = 7) -> Workload:
    """Sessions until about ``nodes`` distinct nodes exist (corpus included)."""
    rng = random.Random(seed)
    workload = Workload()
    corpus_size = max(20, nodes // 200)
    workload.hot_share = min(1.0, 1000 / max(1.0, nodes / SESSION_NODES))
    for index in range(corpus_size):
        node_id = f"doc-{index:05d}"
        workload.corpus.append(node_id)
        workload.events.append(
            Event.model_validate(
                {
                    "id": f"{node_id}#0",
                    "type": "data_read",
                    "timestamp": T0,
                    "session_id": CORPUS_SESSION,
                    "node_id": node_id,
                    "label": f"Document {index}",
                    "content": f"Document {index} of the shared corpus.",
                }
            )
        )
    workload.hot = workload.corpus[-1]
    distinct = corpus_size
    while distinct < nodes:
        start = len(workload.events)
        _Session(workload, workload.sessions, rng).build()
        distinct += len({e.node_id for e in workload.events[start:]})
        workload.sessions += 1
    return workload
