"""The LangChain handler's bookkeeping: an outermost run, the agent runs in it, runs in flight.

Plain records with no LangChain import, so :mod:`provgraph.integrations.langchain`
keeps only the callback mapping.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from provgraph.integrations._shared import RunFields, StepChain
from provgraph.sdk.recorder import RecordedNode, SessionRecorder

__all__ = ["AgentRun", "GraphRun", "RunInFlight"]


@dataclass
class GraphRun:
    """One outermost run: its recorder and the chain every node of it continues."""

    recorder: SessionRecorder
    chain: StepChain
    nodes: dict[str, AgentRun] = field(default_factory=dict)
    last_response: str | None = None


@dataclass
class AgentRun:
    graph: GraphRun
    node: RecordedNode
    agent_name: str
    run_id: str

    def fields(self) -> RunFields:
        return {"run_id": self.run_id, "agent_name": self.agent_name}


@dataclass
class RunInFlight:
    """A LangChain run in flight: whose it is and what it reported."""

    agent: AgentRun
    name: str
    is_root: bool = False
    is_agent: bool = False
    node: RecordedNode | None = None
    reads: list[str] = field(default_factory=list)
    query: str | None = None
