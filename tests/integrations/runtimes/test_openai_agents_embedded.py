"""``ProvgraphTracingProcessor`` on the embedded store (no server): agents as tools, failures,
guardrails, and the sessions trace metadata names."""

from __future__ import annotations

import asyncio
import importlib
import sys
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import (
    Agent,
    GuardrailFunctionOutput,
    InputGuardrailTripwireTriggered,
    RunConfig,
    Runner,
    function_tool,
    input_guardrail,
    set_trace_processors,
)
from agents.testing import assistant_message, function_call

from provgraph.attribution import attribute_output
from provgraph.graph import EdgeLabel, NodeStatus, NodeType, ProvenanceNode
from provgraph.integrations import MissingIntegrationError
from provgraph.integrations.openai_agents import ProvgraphTracingProcessor
from provgraph.provenance_store import ProvenanceStore
from provgraph.sdk import EmbeddedSink
from provgraph.store.memory import MemoryGraphStore

from .agents_scripted import ScriptedModel, tool_outputs
from .conftest import LIGHT

DOC = "The Eiffel Tower is 330 metres tall and was completed in 1889."
ANSWER = "The Eiffel Tower is 330 metres tall. [REF|d_1]"


@pytest.fixture
def store() -> Iterator[MemoryGraphStore]:
    memory = MemoryGraphStore()
    yield memory
    memory.close()


@pytest.fixture
def processor(store: MemoryGraphStore) -> Iterator[ProvgraphTracingProcessor]:
    traced = ProvgraphTracingProcessor(EmbeddedSink(store), source_tools=["read_document"])
    set_trace_processors([traced])
    yield traced
    set_trace_processors([])


def session_of(store: MemoryGraphStore, session_id: str) -> ProvenanceStore:
    return ProvenanceStore(store, project="default", session_id=session_id)


def of_type(session: ProvenanceStore, node_type: NodeType) -> list[ProvenanceNode]:
    return [n for n in session.nodes.values() if n.type == node_type]


@input_guardrail
async def on_topic(ctx: Any, agent: Any, prompt: Any) -> GuardrailFunctionOutput:
    return GuardrailFunctionOutput(output_info="ok", tripwire_triggered="weather" in str(prompt))


def coordinator_with_researcher() -> Agent[Any]:
    @function_tool
    def read_document(doc_id: str) -> str:
        """Read a document."""
        return DOC

    @function_tool
    def read_archive(year: str) -> str:
        """Read the archive (offline)."""
        raise ConnectionError("archive offline")

    def researcher_script(items: list[Any]) -> list[Any]:
        if not tool_outputs(items, "r1"):
            return [
                function_call("read_document", {"doc_id": "tower"}, call_id="r1"),
                function_call("read_archive", {"year": "1889"}, call_id="r2"),
            ]
        return [assistant_message(ANSWER)]

    researcher = Agent(
        name="researcher",
        tools=[read_document, read_archive],
        model=ScriptedModel("researcher-model", researcher_script),
    )

    def coordinator_script(items: list[Any]) -> list[Any]:
        if not tool_outputs(items, "c1"):
            return [function_call("ask_researcher", {"input": "tower height?"}, call_id="c1")]
        return [assistant_message(f"Answer: {ANSWER}")]

    return Agent(
        name="coordinator",
        tools=[researcher.as_tool(tool_name="ask_researcher", tool_description="Ask.")],
        input_guardrails=[on_topic],
        model=ScriptedModel("coordinator-model", coordinator_script, style="generation"),
    )


def test_agent_as_tool_is_a_delegation_and_the_answer_verifies(
    store: MemoryGraphStore, processor: ProvgraphTracingProcessor
) -> None:
    config = RunConfig(trace_metadata={"session_id": "embedded-1"})
    result = Runner.run_sync(coordinator_with_researcher(), "How tall is it?", run_config=config)
    assert result.final_output == f"Answer: {ANSWER}"
    session = session_of(store, "embedded-1")
    assert {n.agent_name for n in session.nodes.values()} == {"coordinator", "researcher"}

    (ask,) = [
        n for n in of_type(session, NodeType.TOOL_CALL) if n.data["tool_name"] == "ask_researcher"
    ]
    (sub_run,) = [n for n in of_type(session, NodeType.AGENT_RUN) if n.agent_name == "researcher"]
    assert (ask.id, sub_run.id, EdgeLabel.DELEGATES_TO) in {
        (e.source_id, e.target_id, e.label) for e in session.edges
    }
    (sub_input,) = [n for n in of_type(session, NodeType.INPUT) if n.agent_name == "researcher"]
    assert sub_input.content == '{"input":"tower height?"}'  # the call's arguments

    (read,) = of_type(session, NodeType.DATA_READ)
    assert read.citation_key == "d_1" and read.content == DOC  # configured source tool
    (archive,) = [
        n for n in of_type(session, NodeType.TOOL_CALL) if n.data["tool_name"] == "read_archive"
    ]
    assert archive.status is NodeStatus.ERROR and archive.error is not None
    assert archive.error.type == "ToolCallError" and "Error running tool" in archive.error.message
    (guard,) = [n for n in of_type(session, NodeType.TOOL_CALL) if n.data.get("guardrail")]
    assert guard.label == "Guardrail: on_topic" and guard.status is NodeStatus.OK

    outputs = {n.agent_name: n for n in of_type(session, NodeType.FINAL_OUTPUT)}
    assert (
        outputs["researcher"].citation_key == "a_2" and outputs["coordinator"].citation_key == "a_3"
    )
    final = outputs["coordinator"]
    attribution = attribute_output(session, final.id)
    assert read.id in {s.id for s in attribution.sources}  # the chain leads back to the read
    assert archive.id in {n.id for n in attribution.failed_steps}

    verification = pytest.importorskip("provgraph.verification")
    checked = asyncio.run(verification.verify_citations(final.content or "", session, config=LIGHT))
    assert checked.report.citations_checked == 1 and checked.report.totals["supported"] == 1


def test_a_tripped_guardrail_and_a_failing_model_are_failures(
    store: MemoryGraphStore, processor: ProvgraphTracingProcessor
) -> None:
    with pytest.raises(InputGuardrailTripwireTriggered):
        Runner.run_sync(
            coordinator_with_researcher(),
            "What is the weather?",
            run_config=RunConfig(trace_metadata={"session_id": "tripped"}),
        )
    session = session_of(store, "tripped")
    (guard,) = [n for n in of_type(session, NodeType.TOOL_CALL) if n.data.get("guardrail")]
    assert guard.status is NodeStatus.ERROR and guard.error is not None
    assert guard.error.type == "GuardrailTripwireTriggered"

    def broken(items: list[Any]) -> list[Any]:
        raise TimeoutError("upstream model timed out")

    with pytest.raises(TimeoutError):
        Runner.run_sync(
            Agent(name="solo", model=ScriptedModel("broken-model", broken)),
            "Hello",
            run_config=RunConfig(group_id="model-down"),
        )
    session = session_of(store, "model-down")
    (request,) = of_type(session, NodeType.MODEL_REQUEST)
    assert request.status is NodeStatus.ERROR and request.error is not None
    assert request.error.type == "ModelCallError"
    assert "upstream model timed out" in request.error.message
    assert not of_type(session, NodeType.MODEL_RESPONSE) and not of_type(
        session, NodeType.FINAL_OUTPUT
    )


def test_missing_sdk_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "agents", None)  # as if openai-agents were not installed
    monkeypatch.setitem(sys.modules, "agents.tracing", None)
    monkeypatch.delitem(sys.modules, "provgraph.integrations.openai_agents")
    with pytest.raises(MissingIntegrationError, match=r"openai-agents.*provgraph\[integrations\]"):
        importlib.import_module("provgraph.integrations.openai_agents")


def test_concurrent_runs_keep_their_sessions_and_handoffs_apart(
    store: MemoryGraphStore, processor: ProvgraphTracingProcessor
) -> None:
    def team(doc: str) -> Agent[Any]:
        @function_tool
        def read_document(doc_id: str) -> str:
            """Read a document."""
            return doc

        def reader(items: list[Any]) -> list[Any]:
            if not tool_outputs(items, "r1"):
                return [function_call("read_document", {"doc_id": doc}, call_id="r1")]
            return [assistant_message(f"{doc} [REF|d_1]")]

        worker = Agent(name="worker", tools=[read_document], model=ScriptedModel("w", reader))
        handoff = [function_call("transfer_to_worker", {}, call_id="h1")]
        return Agent(name="lead", handoffs=[worker], model=ScriptedModel("l", lambda i: handoff))

    async def both() -> None:
        await asyncio.gather(
            *(
                Runner.run(team(doc), "Go", run_config=RunConfig(group_id=f"par-{doc}"))
                for doc in ("alpha", "beta")
            )
        )

    asyncio.run(both())
    for doc in ("alpha", "beta"):
        session = session_of(store, f"par-{doc}")
        (read,) = of_type(session, NodeType.DATA_READ)
        assert read.citation_key == "d_1" and read.content == doc  # one counter per session
        (handoff,) = [n for n in of_type(session, NodeType.TOOL_CALL)]
        (worker,) = [n for n in of_type(session, NodeType.AGENT_RUN) if n.agent_name == "worker"]
        assert (handoff.id, worker.id) in {(e.source_id, e.target_id) for e in session.edges}
        (output,) = of_type(session, NodeType.FINAL_OUTPUT)
        assert output.content == f"{doc} [REF|d_1]"
