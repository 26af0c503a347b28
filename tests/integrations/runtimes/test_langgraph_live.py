"""A real two-node LangGraph graph (fake chat model, retriever tool) recorded by
``ProvgraphCallbackHandler`` into the API over Neo4j, then read back through GraphQL."""

from __future__ import annotations

import uuid

import pytest

pytest.importorskip("langgraph")

from provgraph.integrations.langchain import ProvgraphCallbackHandler

from .conftest import Platform, edge_labels, nodes_of
from .langgraph_app import (
    ANSWER,
    DOCS,
    KeywordRetriever,
    build_graph,
    research_replies,
    scripted_model,
    search_tool,
)

pytestmark = pytest.mark.neo4j


def test_graph_nodes_retrieved_documents_and_answer_land_verified(platform: Platform) -> None:
    client = platform.client()
    handler = ProvgraphCallbackHandler(client)
    thread = f"thread-{uuid.uuid4().hex[:8]}"
    app = build_graph(
        scripted_model(research_replies()), [search_tool(KeywordRetriever(documents=DOCS))]
    )
    state = app.invoke(
        {"messages": [("user", "How tall is the tower, and how many people live in Paris?")]},
        config={"callbacks": [handler], "configurable": {"thread_id": thread}},
    )
    shown = state["messages"][2].content  # the tool result the model was given
    assert shown.startswith(f"[REF|d_1]\n{DOCS['tower.txt']}") and "[REF|d_2]\n" in shown
    assert client.flush(timeout=60)
    client.close()

    session = platform.session(thread)  # LangGraph's thread id names the session
    assert session["agentNames"] == ["research_graph", "researcher", "tools"]
    agents = {a["name"]: a for a in session["agents"]}
    assert agents["researcher"]["delegatedBy"] == ["research_graph"]
    assert agents["tools"]["delegatedBy"] == ["research_graph"]
    assert len(agents["researcher"]["runIds"]) == 1  # one run per node, however often it ran
    assert all(n["agentName"] for n in session["nodes"])

    (graph_run,) = [n for n in nodes_of(session, "AGENT_RUN") if n["agentName"] == "research_graph"]
    node_runs = [n for n in nodes_of(session, "AGENT_RUN") if n["agentName"] != "research_graph"]
    assert all(
        edge_labels(session, graph_run["id"], n["id"]) == {"delegates_to"} for n in node_runs
    )
    assert len(nodes_of(session, "MODEL_REQUEST")) == len(nodes_of(session, "MODEL_RESPONSE")) == 2

    (call,) = nodes_of(session, "TOOL_CALL")
    assert call["agentName"] == "tools" and call["data"]["tool_name"] == "search_docs"
    assert (
        call["data"]["args"] == {"query": "tower paris"}
        and call["data"]["tool_call_id"] == "call-1"
    )

    reads = {n["citationKey"]: n for n in nodes_of(session, "DATA_READ")}
    assert sorted(reads) == ["d_1", "d_2"]
    assert (
        reads["d_1"]["content"] == DOCS["tower.txt"]
        and reads["d_1"]["data"]["file_path"] == "tower.txt"
    )
    assert all(edge_labels(session, call["id"], r["id"]) == {"calls"} for r in reads.values())
    (result,) = nodes_of(session, "TOOL_RESULT")
    assert all("returns" in edge_labels(session, r["id"], result["id"]) for r in reads.values())

    (output,) = session["finalOutputs"]
    assert output["agentName"] == "research_graph" and output["content"] == ANSWER
    assert output["citationKey"] == "a_3"

    report = platform.report(output["id"])
    assert report["citationsChecked"] == 2
    verdicts = {tuple(c["keys"]): (c["verdict"], c["sourceNodeId"]) for c in report["citations"]}
    assert verdicts == {
        ("d_1",): ("supported", reads["d_1"]["id"]),
        ("d_2",): ("supported", reads["d_2"]["id"]),
    }, report
