"""Failures on the record: a real pydantic-ai agent (FunctionModel, no LLM) whose steps fail."""

from __future__ import annotations

import pytest
from pydantic_ai import Agent, ModelRetry
from pydantic_ai.exceptions import UnexpectedModelBehavior
from pydantic_ai.messages import (
    ModelMessage,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from provgraph.attribution import attribute_output
from provgraph.capability import ProvenanceCapability
from provgraph.graph import NodeStatus, NodeType, ProvenanceNode
from provgraph.sdk import ListSink

SECRET = "db-password-hunter2"


def _parts(messages: list[ModelMessage]) -> list[object]:
    return [p for m in messages for p in m.parts]


def _retried(messages: list[ModelMessage]) -> bool:
    """A retry prompt reached the model (a ``RetryPromptPart`` or a retried tool return)."""
    return any(
        isinstance(p, RetryPromptPart)
        or (isinstance(p, ToolReturnPart) and getattr(p, "outcome", None) == "retried")
        for p in _parts(messages)
    )


def _nodes(cap: ProvenanceCapability, node_type: NodeType) -> list[ProvenanceNode]:
    graph = cap.store.graph
    return [n for n in graph.nodes.values() if n.type == node_type]


def _tool_agent(*, retry_first: bool) -> tuple[ProvenanceCapability, Agent[None, str], ListSink]:
    sink = ListSink()
    cap = ProvenanceCapability(agent_name="clerk", source_tools=["read_file"], client=sink)

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returned = [
            p
            for p in _parts(messages)
            if isinstance(p, ToolReturnPart) and getattr(p, "outcome", None) != "retried"
        ]
        if returned:
            return ModelResponse(parts=[TextPart("The value is 42.")])
        key, call_id = ("b", "t2") if _retried(messages) else ("a", "t1")
        return ModelResponse(parts=[ToolCallPart("lookup", {"key": key}, tool_call_id=call_id)])

    agent = Agent(FunctionModel(model), capabilities=[cap])

    @agent.tool_plain
    def lookup(key: str) -> str:
        if key == "a" and retry_first:
            raise ModelRetry("key 'a' is unknown, try 'b'")
        password = SECRET  # a local a traceback would show; it must never be recorded
        if key == "a" and password:
            raise ConnectionError("backend unreachable")
        return "42"

    return cap, agent, sink


async def test_tool_that_raises_fails_the_call_and_the_run() -> None:
    cap, agent, sink = _tool_agent(retry_first=False)
    with pytest.raises(ConnectionError):
        await agent.run("What is the value of a?")

    [call] = _nodes(cap, NodeType.TOOL_CALL)
    assert call.status is NodeStatus.ERROR and call.failed
    assert call.error is not None
    assert call.error.type == "ConnectionError"
    assert call.error.message.startswith("backend unreachable")
    [run] = _nodes(cap, NodeType.AGENT_RUN)
    assert run.failed and run.error is not None and run.error.type == "ConnectionError"
    assert not _nodes(cap, NodeType.TOOL_RESULT)  # nothing was returned
    assert not _nodes(cap, NodeType.FINAL_OUTPUT)
    # the failure events went to the platform client too, without any traceback
    failures = [e for e in sink.events if e.error is not None]
    assert {e.node_id for e in failures} == {call.id, run.id}
    dumped = "".join(e.model_dump_json() for e in sink.events)
    assert SECRET not in dumped and "Traceback" not in dumped and ".py" not in dumped


async def test_model_retry_is_a_failed_call_on_the_attribution_path() -> None:
    cap, agent, _ = _tool_agent(retry_first=True)
    result = await agent.run("What is the value?")
    assert result.output == "The value is 42."

    calls = sorted(_nodes(cap, NodeType.TOOL_CALL), key=lambda n: n.data["tool_call_id"])
    assert [c.failed for c in calls] == [True, False]
    assert calls[0].error is not None and calls[0].error.type.endswith("ToolRetryError")
    assert "try 'b'" in calls[0].error.message
    [run] = _nodes(cap, NodeType.AGENT_RUN)
    assert run.status is None and not run.failed  # the run recovered

    [output] = _nodes(cap, NodeType.FINAL_OUTPUT)
    attribution = attribute_output(cap.store, output.id)
    assert [n.id for n in attribution.failed_steps] == [calls[0].id]
    marked = [str(p) for p in attribution.paths if calls[0] in p.path]
    assert marked and all("[failed: pydantic_ai.exceptions.ToolRetryError]" in m for m in marked)


async def test_model_that_raises_fails_the_request_and_the_run() -> None:
    cap = ProvenanceCapability(agent_name="broken")

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        raise RuntimeError("provider returned HTTP 500")

    agent = Agent(FunctionModel(model), capabilities=[cap])
    with pytest.raises(RuntimeError):
        await agent.run("hello")
    [request] = _nodes(cap, NodeType.MODEL_REQUEST)
    assert request.failed and request.error is not None
    assert (request.error.type, request.error.message) == (
        "RuntimeError",
        "provider returned HTTP 500",
    )
    [run] = _nodes(cap, NodeType.AGENT_RUN)
    assert run.failed


async def test_retries_exhausted_fails_the_run_with_unexpected_model_behavior() -> None:
    cap = ProvenanceCapability(agent_name="stubborn")

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[ToolCallPart("flaky", {}, tool_call_id=f"f{len(messages)}")])

    agent = Agent(FunctionModel(model), capabilities=[cap], retries=1)

    @agent.tool_plain
    def flaky() -> str:
        raise ModelRetry("still not ready")

    with pytest.raises(UnexpectedModelBehavior):
        await agent.run("go")
    calls = _nodes(cap, NodeType.TOOL_CALL)
    assert calls and all(c.failed for c in calls)
    [run] = _nodes(cap, NodeType.AGENT_RUN)
    assert run.error is not None
    assert run.error.type == "pydantic_ai.exceptions.UnexpectedModelBehavior"
    assert "exceeded max retries" in run.error.message.lower()


async def test_long_messages_are_bounded() -> None:
    cap = ProvenanceCapability(agent_name="verbose")

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        raise ValueError("x" * 50_000)

    agent = Agent(FunctionModel(model), capabilities=[cap])
    with pytest.raises(ValueError):
        await agent.run("hello")
    [run] = _nodes(cap, NodeType.AGENT_RUN)
    assert run.error is not None
    assert len(run.error.message) == 1_000 and run.error.message.endswith("…")


async def test_a_failing_sub_agent_fails_its_run_and_the_delegating_call() -> None:
    sub_cap = ProvenanceCapability(agent_name="reader", source_tools=["read_file"])

    def reader_model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[ToolCallPart("read_file", {"path": "gone.txt"})])

    reader = Agent(FunctionModel(reader_model), capabilities=[sub_cap])

    @reader.tool_plain
    def read_file(path: str) -> str:
        raise FileNotFoundError(f"{path} does not exist")

    cap = ProvenanceCapability(agent_name="coordinator")

    def coordinator_model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[ToolCallPart("ask_reader", {"question": "q"})])

    coordinator = Agent(FunctionModel(coordinator_model), capabilities=[cap])

    @coordinator.tool_plain
    async def ask_reader(question: str) -> str:
        return (await reader.run(question)).output

    with pytest.raises(FileNotFoundError):
        await coordinator.run("go")
    graph = cap.store.graph
    failed = {(n.type, n.agent_name): n.error for n in graph.nodes.values() if n.failed}
    kinds = {key: error.type if error else None for key, error in failed.items()}
    assert kinds == {
        (NodeType.DATA_READ, "reader"): "FileNotFoundError",  # the keyed read that failed
        (NodeType.AGENT_RUN, "reader"): "FileNotFoundError",
        (NodeType.TOOL_CALL, "coordinator"): "FileNotFoundError",  # it delegated to reader
        (NodeType.AGENT_RUN, "coordinator"): "FileNotFoundError",
    }
    [read] = [n for n in graph.nodes.values() if n.type == NodeType.DATA_READ]
    assert read.citation_key == "d_1" and read.content is None  # the key stays, no content
