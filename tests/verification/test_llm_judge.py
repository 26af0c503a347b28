"""The LLM judge stage (seed ``entailment_agent``), wired into the engine (defect 5)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pydantic_ai")

from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel

from provgraph.verification import (
    MappingSourceResolver,
    StageModels,
    VerificationConfig,
    entailment_agent,
    verify_citations,
    verify_text,
)
from provgraph.verification.llm_judge import EntailmentJudgment

CONFIG = VerificationConfig(
    embeddings=False, nli=False, llm_judge=True, relative=False, coverage=False
)


def judge_by_keyword(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """Support iff the premise mentions 1603; records the prompt it saw."""
    prompt = str(messages[-1].parts[-1].content)  # type: ignore[union-attr]
    prob = 0.95 if "1603" in prompt.split("Hypothesis")[0] else 0.05
    tool = info.output_tools[0].name
    args = json.dumps({"probability_support": prob, "rationale": "keyword"})
    return ModelResponse(parts=[ToolCallPart(tool, args)])


def test_entailment_agent_with_test_model() -> None:
    agent = entailment_agent(TestModel())
    result = agent.run_sync("Premise: x\n\nHypothesis: y")
    assert isinstance(result.output, EntailmentJudgment)
    assert 0.0 <= result.output.probability_support <= 1.0


def test_judge_is_wired_into_the_engine() -> None:
    agent = entailment_agent(FunctionModel(judge_by_keyword))
    sources = {"d_1": "Leiden was granted city rights in 1603.", "d_2": "Cats sleep a lot."}
    text = "Leiden got city rights in 1603. [REF|d_1] Leiden got city rights in 1603. [REF|d_2]"
    report = verify_text(
        text, MappingSourceResolver(sources), CONFIG, models=StageModels(judge_agent=agent)
    )
    assert report.stage("llm_judge").status == "ran"  # type: ignore[union-attr]
    by_key = {c.key: c for c in report.checks}
    assert by_key["d_1"].scores["llm_judge"].score == pytest.approx(0.95)
    assert by_key["d_2"].scores["llm_judge"].score == pytest.approx(0.05)
    assert by_key["d_1"].scores["llm_judge"].raw["rationale"] == "keyword"
    assert by_key["d_1"].support_score > by_key["d_2"].support_score  # type: ignore[operator]


def test_judge_without_agent_is_skipped_with_reason() -> None:
    report = verify_text("A. [REF|d_1]", MappingSourceResolver({"d_1": "A."}), CONFIG)
    status = report.stage("llm_judge")
    assert status is not None and status.status == "skipped" and "agent" in (status.reason or "")


async def test_judge_runs_from_async_seed_api() -> None:
    agent = entailment_agent(FunctionModel(judge_by_keyword))
    result = await verify_citations(
        "Rights in 1603. [REF|d_1]",
        {"d_1": "Granted in 1603."},
        config=CONFIG,
        models=StageModels(judge_agent=agent),
    )
    assert result.report is not None
    assert result.report.checks[0].scores["llm_judge"].score == pytest.approx(0.95)


class KeywordJudge:
    """A seed-style judge: support iff the excerpt says 1603 (scores out of range on purpose)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    async def score(self, *, source_excerpt: str, claim: str) -> tuple[float, str]:
        self.calls.append((source_excerpt, claim))
        return (1.7, "mentions 1603") if "1603" in source_excerpt else (-0.3, "no date")


async def test_custom_entailment_judge_is_exported_and_wired() -> None:
    """``EntailmentJudge``/``EntailmentRecord`` are exported (issue 16) and Step 3 really runs."""
    from provgraph.verification import EntailmentJudge, EntailmentRecord

    judge = KeywordJudge()
    assert isinstance(judge, EntailmentJudge)
    text = "Leiden got city rights in 1603. [REF|d_1] Cats sleep. [REF|d_2]"
    sources = {"d_1": "Leiden was granted city rights in 1603.", "d_2": "Cats sleep a lot."}
    result = await verify_citations(text, sources, entailment_judge=judge)
    assert result.entailment_records == [
        EntailmentRecord("d_1", 1.0, "mentions 1603"),  # clipped to [0, 1]
        EntailmentRecord("d_2", 0.0, "no date"),
    ]
    assert [claim for _, claim in judge.calls] == ["Leiden got city rights in 1603.", "Cats sleep."]
    assert result.text_with_verified_citations == text  # no config: the seed's TF-IDF rewrite


async def test_no_judge_no_entailment_records() -> None:
    result = await verify_citations("Rights in 1603. [REF|d_1]", {"d_1": "Granted in 1603."})
    assert result.entailment_records == []
