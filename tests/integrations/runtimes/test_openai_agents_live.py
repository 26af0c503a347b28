"""The real OpenAI Agents SDK runner (scripted model, real agents, tools and a handoff) traced by
``ProvgraphTracingProcessor`` into the API over Neo4j, then read back through GraphQL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import Agent, RunConfig, Runner, function_tool, set_trace_processors
from agents.testing import assistant_message, function_call

from provgraph.integrations.openai_agents import ProvgraphTracingProcessor

from .agents_scripted import ScriptedModel, tool_outputs
from .conftest import Platform, edge_labels, nodes_of

pytestmark = pytest.mark.neo4j

DOCS = {"tower": "The Eiffel Tower is 330 metres tall and was completed in 1889."}
ANSWER = "The Eiffel Tower is 330 metres tall. [REF|d_1]"


@pytest.fixture
def processor(platform: Platform) -> Iterator[ProvgraphTracingProcessor]:
    client = platform.client()
    traced = ProvgraphTracingProcessor(client)
    set_trace_processors([traced])  # replaces the SDK's exporter to OpenAI for this test
    yield traced
    set_trace_processors([])
    client.close()


def research_team(processor: ProvgraphTracingProcessor) -> Agent[Any]:
    """Triage hands off to a researcher who looks a document up, reads it and cites it."""

    @function_tool
    def search_index(query: str) -> str:
        """Find the id of the document that answers ``query``."""
        return "tower"

    @function_tool
    @processor.source_tool
    def read_document(doc_id: str) -> str:
        """Read a document by id."""
        return DOCS[doc_id]

    def researcher_script(items: list[Any]) -> list[Any]:
        if not tool_outputs(items, "s1"):
            return [function_call("search_index", {"query": "tower height"}, call_id="s1")]
        read = tool_outputs(items, "r1")
        if not read:
            return [function_call("read_document", {"doc_id": "tower"}, call_id="r1")]
        assert read[0] == f"[REF|d_1]\n{DOCS['tower']}", read  # the key was shown to the model
        return [assistant_message(ANSWER)]

    researcher = Agent(
        name="researcher",
        instructions="Answer from the documents, citing them.",
        tools=[search_index, read_document],
        model=ScriptedModel("researcher-model", researcher_script),
    )
    return Agent(
        name="triage",
        instructions="Hand research questions to the researcher.",
        handoffs=[researcher],
        model=ScriptedModel(
            "triage-model",
            lambda items: [function_call("transfer_to_researcher", {}, call_id="h1")],
            style="generation",
        ),
    )


def test_handoff_tool_call_and_cited_read_land_verified(
    platform: Platform, processor: ProvgraphTracingProcessor
) -> None:
    session_id = f"oai-{uuid.uuid4().hex[:8]}"
    result = Runner.run_sync(
        research_team(processor),
        "How tall is the Eiffel Tower?",
        run_config=RunConfig(workflow_name="research", group_id=session_id),
    )
    assert result.final_output == ANSWER and result.last_agent.name == "researcher"
    processor.force_flush()

    session = platform.session(session_id)
    assert session["agentNames"] == ["researcher", "triage"]
    agents = {a["name"]: a for a in session["agents"]}
    assert (
        agents["researcher"]["delegatedBy"] == ["triage"] and agents["triage"]["delegatedBy"] == []
    )
    assert all(n["agentName"] for n in session["nodes"])  # an agent name on every node

    (handoff,) = [n for n in nodes_of(session, "TOOL_CALL") if n["data"]["tool_name"] == "handoff"]
    (researcher_run,) = [
        n for n in nodes_of(session, "AGENT_RUN") if n["agentName"] == "researcher"
    ]
    assert handoff["agentName"] == "triage" and handoff["label"] == "Handoff to researcher"
    assert edge_labels(session, handoff["id"], researcher_run["id"]) == {"delegates_to"}

    (search,) = [
        n for n in nodes_of(session, "TOOL_CALL") if n["data"]["tool_name"] == "search_index"
    ]
    assert search["agentName"] == "researcher" and search["data"]["args"] == {
        "query": "tower height"
    }
    results = {n["content"] for n in nodes_of(session, "TOOL_RESULT")}
    assert "tower" in results

    (read,) = nodes_of(session, "DATA_READ")
    assert read["citationKey"] == "d_1" and read["content"] == DOCS["tower"]
    assert read["agentName"] == "researcher" and read["data"]["args"] == {"doc_id": "tower"}

    (output,) = session["finalOutputs"]
    assert output["agentName"] == "researcher" and output["content"] == ANSWER
    assert output["citationKey"] == "a_2"
    assert "cited_in" in edge_labels(session, read["id"], output["id"])

    report = platform.report(output["id"])
    assert report["citationsChecked"] == 1
    (check,) = report["citations"]
    assert check["keys"] == ["d_1"] and check["sourceNodeId"] == read["id"]
    assert check["verdict"] == "supported", report
