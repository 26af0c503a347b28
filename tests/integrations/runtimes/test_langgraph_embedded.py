"""``ProvgraphCallbackHandler`` on the embedded store (no server): failures of the retriever,
the tool and the model, source tools, and a chat model called on its own."""

from __future__ import annotations

import asyncio
import importlib
import sys
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("langgraph")

from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatResult
from langchain_core.tools import tool

from provgraph.graph import NodeStatus, NodeType, ProvenanceNode
from provgraph.integrations import MissingIntegrationError
from provgraph.integrations.langchain import ProvgraphCallbackHandler
from provgraph.provenance_store import ProvenanceStore
from provgraph.sdk import EmbeddedSink
from provgraph.store.memory import MemoryGraphStore

from .langgraph_app import (
    DOCS,
    KeywordRetriever,
    build_graph,
    research_replies,
    scripted_model,
    search_tool,
)


@pytest.fixture
def store() -> Iterator[MemoryGraphStore]:
    memory = MemoryGraphStore()
    yield memory
    memory.close()


def session_of(store: MemoryGraphStore, session_id: str) -> ProvenanceStore:
    return ProvenanceStore(store, project="default", session_id=session_id)


def of_type(session: ProvenanceStore, node_type: NodeType) -> list[ProvenanceNode]:
    return [n for n in session.nodes.values() if n.type == node_type]


def failed(session: ProvenanceStore) -> dict[str, str]:
    """Failed nodes by label, with their error type."""
    return {
        n.label: n.error.type if n.error else ""
        for n in session.nodes.values()
        if n.status is NodeStatus.ERROR
    }


def test_a_failing_retriever_fails_the_tool_the_node_and_the_graph(store: MemoryGraphStore) -> None:
    handler = ProvgraphCallbackHandler(EmbeddedSink(store))
    retriever = KeywordRetriever(documents=DOCS, fail=True)
    app = build_graph(scripted_model(research_replies()), [search_tool(retriever)])
    config = {"callbacks": [handler], "metadata": {"session_id": "lc-down"}}
    with pytest.raises(ConnectionError, match="index unavailable"):
        app.invoke({"messages": [("user", "How tall is the tower?")]}, config=config)
    session = session_of(store, "lc-down")
    assert failed(session) == {
        "Tool: KeywordRetriever": "ConnectionError",
        "Tool: search_docs": "ConnectionError",
        "Agent: tools": "ConnectionError",
        "Agent: research_graph": "ConnectionError",
    }
    assert not of_type(session, NodeType.DATA_READ) and not of_type(session, NodeType.FINAL_OUTPUT)


class TimingOutChatModel(type(scripted_model([]))):  # type: ignore[misc]
    """langchain-core's fake chat model whose provider times out."""

    def _generate(self, *args: Any, **kwargs: Any) -> ChatResult:
        raise TimeoutError("model timed out")


def test_a_failing_model_is_a_failed_request(store: MemoryGraphStore) -> None:
    handler = ProvgraphCallbackHandler(EmbeddedSink(store), session_id="lc-model")
    app = build_graph(TimingOutChatModel(responses=[]), [])
    with pytest.raises(TimeoutError):
        app.invoke({"messages": [("user", "Hi")]}, config={"callbacks": [handler]})
    session = session_of(store, "lc-model")
    (request,) = of_type(session, NodeType.MODEL_REQUEST)
    assert request.status is NodeStatus.ERROR and request.agent_name == "researcher"
    assert not of_type(session, NodeType.MODEL_RESPONSE)


def test_source_tools_are_keyed_reads_and_a_bare_model_call_is_a_run(
    store: MemoryGraphStore,
) -> None:
    handler = ProvgraphCallbackHandler(EmbeddedSink(store), source_tools=["read_file"])

    @tool
    def read_file(path: str) -> str:
        """Read a file."""
        return DOCS[path]

    call = {"name": "read_file", "args": {"path": "tower.txt"}, "id": "call-9"}
    replies = [AIMessage("", tool_calls=[call]), AIMessage("330 metres. [REF|d_1]")]
    app = build_graph(scripted_model(replies), [read_file], name="reader")
    config = {"callbacks": [handler], "configurable": {"thread_id": "lc-src"}}
    app.invoke({"messages": [("user", "How tall?")]}, config=config)
    session = session_of(store, "lc-src")
    (read,) = of_type(session, NodeType.DATA_READ)
    assert read.citation_key == "d_1" and read.content == DOCS["tower.txt"]
    assert read.data["args"] == {"path": "tower.txt"} and read.data["file_path"] == "tower.txt"
    (output,) = of_type(session, NodeType.FINAL_OUTPUT)
    assert output.citation_key == "a_2" and output.agent_name == "reader"
    assert output.id in session.citation_summary()["d_1"]["cited_in"]

    bare = ProvgraphCallbackHandler(EmbeddedSink(store), session_id="lc-bare")
    scripted_model([AIMessage("Hello.")]).invoke("Hi", config={"callbacks": [bare]})
    session = session_of(store, "lc-bare")
    (run,) = of_type(session, NodeType.AGENT_RUN)
    (output,) = of_type(session, NodeType.FINAL_OUTPUT)
    assert run.agent_name == "FakeMessagesListChatModel" and output.content == "Hello."
    assert [n.content for n in of_type(session, NodeType.INPUT)] == ["Hi"]


def test_missing_langchain_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("langchain_core", "langchain_core.callbacks"):
        monkeypatch.setitem(sys.modules, name, None)  # as if langchain-core were not installed
    monkeypatch.delitem(sys.modules, "provgraph.integrations.langchain")
    with pytest.raises(MissingIntegrationError, match=r"langchain-core.*provgraph\[integrations\]"):
        importlib.import_module("provgraph.integrations.langchain")


def test_concurrent_async_graph_runs_keep_their_threads_apart(store: MemoryGraphStore) -> None:
    handler = ProvgraphCallbackHandler(EmbeddedSink(store))

    async def run(thread: str) -> None:
        app = build_graph(
            scripted_model(research_replies()), [search_tool(KeywordRetriever(documents=DOCS))]
        )
        config = {"callbacks": [handler], "configurable": {"thread_id": thread}}
        await app.ainvoke({"messages": [("user", "Tower and Paris?")]}, config=config)

    async def both() -> None:
        await asyncio.gather(run("async-a"), run("async-b"))

    asyncio.run(both())
    for thread in ("async-a", "async-b"):
        session = session_of(store, thread)
        assert sorted(n.citation_key or "" for n in of_type(session, NodeType.DATA_READ)) == [
            "d_1",
            "d_2",
        ]
        (output,) = of_type(session, NodeType.FINAL_OUTPUT)
        assert output.citation_key == "a_3" and output.agent_name == "research_graph"
        assert len(of_type(session, NodeType.AGENT_RUN)) == 3
