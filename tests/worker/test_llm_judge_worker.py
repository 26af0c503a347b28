"""``llm_judge=True`` verification on a real Celery worker, with the judge built from settings.

The worker process gets ``PROVGRAPH_LLM_JUDGE_*`` pointing at the fake
OpenAI-compatible server (:mod:`tests.fixtures.fake_openai`), which answers
the judge's structured-output tool call, after a 429 and a 503 that the
client must retry. The report records the judge's scores, its calls, the
cap, the tokens and the estimated cost; a judge that only fails still yields
a report, with the errors recorded.
"""

from __future__ import annotations

from typing import Any

import pytest

from provgraph.store.port import GraphStore
from provgraph.store.types import JobState
from provgraph.usecases.publishing import TaskQueuePublisher
from provgraph.usecases.verification import request_and_publish
from provgraph.verification.config import VerificationConfig
from services.api.task_client import celery_client
from tests.fixtures.fake_openai import API_KEY, FakeOpenAI, Reply, error, tool_calls
from tests.worker.conftest import OUTPUT_ID, WorkerFactory, wait_for_job

pytestmark = [pytest.mark.redis, pytest.mark.neo4j, pytest.mark.slow]

JUDGED = VerificationConfig(embeddings=False, nli=False, llm_judge=True)
MAX_CALLS = 3


def judge_env(fake: FakeOpenAI, **extra: str) -> dict[str, str]:
    return {
        "PROVGRAPH_LLM_JUDGE_MODEL": "fake-judge",
        "PROVGRAPH_LLM_JUDGE_BASE_URL": fake.base_url,
        "PROVGRAPH_LLM_JUDGE_API_KEY": API_KEY,
        "PROVGRAPH_LLM_JUDGE_MAX_CALLS": str(MAX_CALLS),
        "PROVGRAPH_LLM_JUDGE_INPUT_COST_PER_MTOK": "2.5",
        "PROVGRAPH_LLM_JUDGE_OUTPUT_COST_PER_MTOK": "10",
        **extra,
    }


def supportive(body: dict[str, Any]) -> Reply:
    """The judge's structured answer: pydantic-ai asks for its output tool."""
    (tool,) = [t["function"]["name"] for t in body["tools"]]
    return tool_calls(
        (tool, {"probability_support": 0.91, "rationale": "The excerpt states it."}),
        prompt_tokens=120,
        completion_tokens=15,
    )


def _verify(graph_store: GraphStore, project: str, workers: WorkerFactory) -> dict[str, Any]:
    publisher = TaskQueuePublisher(celery_client(workers.settings))
    job = request_and_publish(graph_store, publisher, project, OUTPUT_ID, JUDGED)
    assert job.extra["queue"] == "heavy"
    done = wait_for_job(
        graph_store, project, job.id, {JobState.DONE, JobState.FAILED}, 240, workers.logs
    )
    assert done.state is JobState.DONE, done.error
    stored = graph_store.get_report(project, OUTPUT_ID)
    assert stored is not None
    report: dict[str, Any] = stored.report
    return report


def _judge_stage(report: dict[str, Any]) -> dict[str, Any]:
    (stage,) = [s for s in report["stages"] if s["name"] == "llm_judge"]
    return dict(stage)


def test_the_worker_judges_with_retries_a_call_cap_and_usage(
    workers: WorkerFactory, graph_store: GraphStore, project: str, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(error(429, retry_after=0), error(503))
    fake_openai.responder = supportive
    workers.start(env=judge_env(fake_openai), queues="heavy")
    report = _verify(graph_store, project, workers)

    stage = _judge_stage(report)
    assert stage["status"] == "ran" and stage["model"] == "fake-judge"
    usage = stage["usage"]
    scores = [c["scores"]["llm_judge"] for c in report["checks"] if "llm_judge" in c["scores"]]
    pairs = len(scores)
    assert pairs > MAX_CALLS  # the fixture output cites more sources than the cap allows
    assert usage["max_calls"] == MAX_CALLS and usage["calls"] == MAX_CALLS
    assert usage["capped_pairs"] == pairs - MAX_CALLS and usage["failed_calls"] == 0
    # the 429 and the 503 were retried by the client: two more HTTP requests than judgments
    assert len(fake_openai.requests) == MAX_CALLS + 2
    assert usage["input_tokens"] == 120 * MAX_CALLS and usage["output_tokens"] == 15 * MAX_CALLS
    assert usage["estimated_cost"] == pytest.approx((120 * 2.5 + 15 * 10) * MAX_CALLS / 1e6)
    judged = [s for s in scores if s["score"] is not None]
    assert len(judged) == MAX_CALLS and {s["score"] for s in judged} == {0.91}
    refused = [s for s in scores if s["score"] is None]
    assert refused and all("MAX_CALLS" in s["raw"]["error"] for s in refused)
    assert "not judged: over the per-report call cap" in stage["reason"]


def test_a_failing_judge_never_loses_the_report(
    workers: WorkerFactory, graph_store: GraphStore, project: str, fake_openai: FakeOpenAI
) -> None:
    fake_openai.responder = lambda body: error(500)
    env = judge_env(fake_openai, PROVGRAPH_LLM_JUDGE_MAX_RETRIES="1")
    workers.start(env=env, queues="heavy")
    report = _verify(graph_store, project, workers)

    stage = _judge_stage(report)
    assert stage["status"] == "skipped" and "judge calls failed" in stage["reason"]
    assert stage["usage"]["failed_calls"] == MAX_CALLS
    assert len(fake_openai.requests) == MAX_CALLS * 2  # each call tried twice (one retry)
    # the other stages still decided every citation
    assert report["checks"] and all(c["verdict"] for c in report["checks"])
    assert report["citations_checked"] == len(report["checks"])
