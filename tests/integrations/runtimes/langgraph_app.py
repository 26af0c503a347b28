"""A two-node LangGraph app (a model node and a tool node with a retriever tool), built only from
the real langchain-core and langgraph classes; the chat model is langchain-core's own fake."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.prompts import PromptTemplate
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import BaseTool, create_retriever_tool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from provgraph.integrations.langchain import CITATION_METADATA_KEY

DOCS = {
    "tower.txt": "The Eiffel Tower is 330 metres tall and was completed in 1889.",
    "paris.txt": "Paris has about 2.1 million inhabitants within its city limits.",
}
ANSWER = (
    "The Eiffel Tower is 330 metres tall. [REF|d_1] "
    "Paris has about 2.1 million inhabitants. [REF|d_2]"
)
SHOW_KEYS = PromptTemplate.from_template(f"[REF|{{{CITATION_METADATA_KEY}}}]\n{{page_content}}")
"""The document prompt that shows each retrieved document's key to the model."""


class KeywordRetriever(BaseRetriever):
    """Documents sharing a word with the query (fresh copies: the handler stamps metadata)."""

    documents: dict[str, str]
    fail: bool = False

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        if self.fail:
            raise ConnectionError("index unavailable")
        words = set(query.lower().split())
        return [
            Document(page_content=text, metadata={"source": source})
            for source, text in self.documents.items()
            if words & set(text.lower().replace(".", "").split())
        ]


def search_tool(retriever: BaseRetriever) -> BaseTool:
    return create_retriever_tool(
        retriever, "search_docs", "Search the city documents.", document_prompt=SHOW_KEYS
    )


def scripted_model(replies: Sequence[BaseMessage]) -> FakeMessagesListChatModel:
    return FakeMessagesListChatModel(responses=list(replies))


def research_replies(query: str = "tower paris") -> list[BaseMessage]:
    """Ask for the search tool, then answer citing what it returned."""
    call = {"name": "search_docs", "args": {"query": query}, "id": "call-1"}
    return [AIMessage("", tool_calls=[call]), AIMessage(ANSWER)]


def build_graph(model: Any, tools: Sequence[BaseTool], name: str = "research_graph") -> Any:
    """``researcher`` (the model) ⇄ ``tools`` (a ToolNode), looping until the model answers."""

    def researcher(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [model.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("researcher", researcher)
    graph.add_node("tools", ToolNode(list(tools), handle_tool_errors=False))
    graph.add_edge(START, "researcher")
    graph.add_conditional_edges("researcher", tools_condition)
    graph.add_edge("tools", "researcher")
    return graph.compile(name=name)
