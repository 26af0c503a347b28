"""The LLM judge built from settings: an OpenAI-compatible chat API, metered per report.

Workers (and the embedded runner) verify with ``llm_judge=True`` only when
``PROVGRAPH_LLM_JUDGE_MODEL`` names a model; ``PROVGRAPH_LLM_JUDGE_BASE_URL``
and ``PROVGRAPH_LLM_JUDGE_API_KEY`` say where (any OpenAI-compatible server).

* Timeouts and retries are the ``openai`` client's: each request times out
  after ``llm_judge_timeout_s``; 408/409/429/5xx answers and connection errors
  are retried ``llm_judge_max_retries`` times with exponential backoff and
  jitter, honouring ``Retry-After``.
* A report makes at most ``llm_judge_max_calls`` judge calls; pairs beyond the
  cap are not judged (their score says so) and the report records how many.
* Calls, failures, requests, tokens and the estimated cost (when prices are
  set) go into the report's ``llm_judge`` stage (:class:`JudgeUsage`).

The HTTP client is created per report (:meth:`JudgeClient.metered`): the
engine runs the judge under ``asyncio.run``, and an async connection pool must
not outlive the event loop it was opened on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from provgraph.config import Settings
from provgraph.errors import ModelUnavailableError, ProvgraphError
from provgraph.verification.llm_judge import EntailmentJudgment, entailment_agent, judge_prompt
from provgraph.verification.report import JudgeUsage


class JudgeCapReachedError(ProvgraphError):
    """The report already made its ``PROVGRAPH_LLM_JUDGE_MAX_CALLS`` judge calls."""


@dataclass(frozen=True)
class JudgeClient:
    """Where and how to call the judge; immutable and cheap (shared by a process's jobs)."""

    model: str
    base_url: str | None
    api_key: str | None
    timeout_s: float
    max_retries: int
    max_calls: int
    input_cost_per_mtok: float | None = None
    output_cost_per_mtok: float | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> JudgeClient | None:
        """The configured judge, or ``None`` when ``PROVGRAPH_LLM_JUDGE_MODEL`` is unset."""
        if not settings.llm_judge_model:
            return None
        return cls(
            model=settings.llm_judge_model,
            base_url=settings.llm_judge_base_url,
            api_key=settings.llm_judge_api_key,
            timeout_s=settings.llm_judge_timeout_s,
            max_retries=settings.llm_judge_max_retries,
            max_calls=settings.llm_judge_max_calls,
            input_cost_per_mtok=settings.llm_judge_input_cost_per_mtok,
            output_cost_per_mtok=settings.llm_judge_output_cost_per_mtok,
        )

    def metered(self) -> MeteredJudge:
        """A judge for one report: a fresh HTTP client and a fresh call budget."""
        try:
            from openai import AsyncOpenAI
            from pydantic_ai.models.openai import OpenAIChatModel
            from pydantic_ai.providers.openai import OpenAIProvider
        except ImportError as exc:
            raise ModelUnavailableError(
                f"the LLM judge needs the openai client ({exc}); pip install 'provgraph[judge]'"
            ) from exc
        client = AsyncOpenAI(
            base_url=self.base_url,
            api_key=self.api_key or "unset",
            timeout=self.timeout_s,
            max_retries=self.max_retries,
        )
        model = OpenAIChatModel(self.model, provider=OpenAIProvider(openai_client=client))
        return MeteredJudge(entailment_agent(model), self)


class MeteredJudge:
    """An :class:`~provgraph.verification.llm_judge.EntailmentJudge` that counts and caps calls."""

    def __init__(self, agent: Any, client: JudgeClient) -> None:
        self.agent = agent
        self.client = client
        self.model_name = client.model
        self.usage = JudgeUsage(max_calls=client.max_calls)

    async def score(self, *, source_excerpt: str, claim: str) -> tuple[float, str]:
        usage = self.usage
        if usage.calls >= usage.max_calls:
            usage.capped_pairs += 1
            raise JudgeCapReachedError(
                f"not judged: this report reached PROVGRAPH_LLM_JUDGE_MAX_CALLS={usage.max_calls}"
            )
        usage.calls += 1
        try:
            result = await self.agent.run(judge_prompt(source_excerpt, claim))
        except Exception:
            usage.failed_calls += 1
            raise
        spent = result.usage
        usage.requests += int(spent.requests or 0)
        usage.input_tokens += int(spent.input_tokens or 0)
        usage.output_tokens += int(spent.output_tokens or 0)
        usage.estimated_cost = self._cost()
        output = result.output
        if not isinstance(output, EntailmentJudgment):
            output = EntailmentJudgment.model_validate(output)
        return output.probability_support, output.rationale

    def _cost(self) -> float | None:
        c, u = self.client, self.usage
        if c.input_cost_per_mtok is None and c.output_cost_per_mtok is None:
            return None
        return (
            u.input_tokens * (c.input_cost_per_mtok or 0.0)
            + u.output_tokens * (c.output_cost_per_mtok or 0.0)
        ) / 1_000_000
