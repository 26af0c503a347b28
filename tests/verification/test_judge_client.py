"""The judge built from settings, run by the engine in-process against the fake OpenAI server."""

from __future__ import annotations

from typing import Any

from provgraph.config import Settings
from provgraph.verification import MappingSourceResolver, StageModels, verify_text
from provgraph.verification.config import VerificationConfig
from provgraph.verification.judge_client import JudgeClient
from tests.fixtures.fake_openai import API_KEY, FakeOpenAI, Reply, error, tool_calls

CONFIG = VerificationConfig(
    embeddings=False, nli=False, llm_judge=True, relative=False, coverage=False
)
TEXT = "The tower is 330 m tall. [REF|d_1] It opened in 1889. [REF|d_2]"
SOURCES = {"d_1": "The tower is 330 m tall.", "d_2": "The tower opened in 1889."}


def _settings(fake: FakeOpenAI, **extra: Any) -> Settings:
    return Settings(
        llm_judge_model="fake-judge",
        llm_judge_base_url=fake.base_url,
        llm_judge_api_key=API_KEY,
        **extra,
    )


def _judge(body: dict[str, Any]) -> Reply:
    (tool,) = [t["function"]["name"] for t in body["tools"]]
    return tool_calls((tool, {"probability_support": 0.8, "rationale": "r"}), prompt_tokens=50)


def test_unset_model_means_no_judge_and_the_stage_says_how_to_set_one() -> None:
    assert JudgeClient.from_settings(Settings()) is None
    report = verify_text(TEXT, MappingSourceResolver(SOURCES), CONFIG, models=StageModels())
    stage = report.stage("llm_judge")
    assert stage is not None and stage.status == "skipped"
    assert "PROVGRAPH_LLM_JUDGE_MODEL" in (stage.reason or "")


def test_cap_and_timeout_are_recorded_per_citation_and_in_usage(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(error(500), Reply(200, {}, delay_s=3))
    fake_openai.responder = _judge
    client = JudgeClient.from_settings(
        _settings(
            fake_openai, llm_judge_max_calls=1, llm_judge_timeout_s=1, llm_judge_max_retries=1
        )
    )
    config = CONFIG.model_copy(update={"llm_concurrency": 1})
    report = verify_text(
        TEXT, MappingSourceResolver(SOURCES), config, models=StageModels(judge_agent=client)
    )
    stage = report.stage("llm_judge")
    assert stage is not None and stage.usage is not None
    # one call allowed: a 500, then a reply slower than the timeout → the call failed
    assert stage.usage.calls == 1 and stage.usage.failed_calls == 1
    assert stage.usage.capped_pairs == 1 and len(fake_openai.requests) == 2
    errors = [c.scores["llm_judge"].raw["error"] for c in report.checks]
    assert any("Timeout" in str(e) for e in errors) and any("MAX_CALLS" in str(e) for e in errors)
    assert stage.status == "skipped" and all(c.verdict for c in report.checks)
