"""LLM judge stage: the seed's ``entailment_agent`` (pydantic-ai), wired in (defect 5).

The seed built the agent but never called it from ``verify_citations``. Here
the engine runs it, when configured with an agent, on each citation's best
evidence window (not the whole source: premises are cut to
``max_premise_chars``). pydantic-ai is imported lazily; without it the stage
is skipped with the reason.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, Field

from provgraph.errors import ModelUnavailableError

T = TypeVar("T")

DEFAULT_ENTAILMENT_INSTRUCTIONS = (
    "You judge whether a premise (an excerpt from a cited source) supports a hypothesis "
    "(the author's claim next to the citation). Answer with the structured schema only. "
    "Use probability_support near 1 only when the premise clearly entails the hypothesis; "
    "use low values when support is weak, absent, or the premise contradicts it."
)


class EntailmentJudgment(BaseModel):
    """Structured output of the entailment agent (seed shape)."""

    probability_support: float = Field(
        ge=0.0, le=1.0, description="How likely the premise supports the hypothesis (0-1)."
    )
    rationale: str = Field(default="", description="One short sentence.")


@runtime_checkable
class EntailmentJudge(Protocol):
    """A custom judge (seed API): ``await judge.score(source_excerpt=…, claim=…)``.

    Returns ``(probability, rationale)`` with ``probability`` in ``[0, 1]``
    (values outside are clipped). Give one wherever an agent from
    :func:`entailment_agent` is accepted (``StageModels.judge_agent``,
    ``verify_citations(entailment_judge=…)``); the engine calls ``score``
    instead of ``run``.
    """

    async def score(self, *, source_excerpt: str, claim: str) -> tuple[float, str]: ...


@dataclass
class EntailmentRecord:
    """The judge's verdict on one citation key (seed shape)."""

    citation_key: str
    probability: float
    rationale: str = ""


def entailment_agent(model: Any, *, instructions: str | None = None) -> Any:
    """A pydantic-ai ``Agent`` returning :class:`EntailmentJudgment` (seed API).

    ``model`` is anything pydantic-ai accepts (a model instance or a name).
    """
    try:
        from pydantic_ai import Agent
    except ImportError as exc:
        raise ModelUnavailableError(
            f"pydantic-ai is not installed ({exc}); pip install 'provgraph[pydantic-ai]'"
        ) from exc
    return Agent(
        model,
        output_type=EntailmentJudgment,
        instructions=instructions or DEFAULT_ENTAILMENT_INSTRUCTIONS,
    )


def judge_prompt(premise: str, claim: str) -> str:
    """The user prompt sent to the judge for one pair."""
    return f"Premise (source excerpt):\n{premise}\n\nHypothesis (cited claim):\n{claim}"


async def _judge_one(agent: Any, claim: str, premise: str) -> EntailmentJudgment:
    if isinstance(agent, EntailmentJudge):
        probability, rationale = await agent.score(source_excerpt=premise, claim=claim)
        return EntailmentJudgment(
            probability_support=min(1.0, max(0.0, float(probability))),
            rationale=str(rationale),
        )
    result = await agent.run(judge_prompt(premise, claim))
    output = result.output
    if not isinstance(output, EntailmentJudgment):
        output = EntailmentJudgment.model_validate(output)
    return output


async def judge_pairs_settled(
    agent: Any,
    items: list[tuple[str, str]],
    *,
    max_premise_chars: int = 6_000,
    max_hypothesis_chars: int = 1_200,
    concurrency: int = 4,
) -> list[EntailmentJudgment | Exception]:
    """Judge ``(claim, premise)`` items concurrently (bounded), in input order.

    A pair whose call failed gets its exception in its place, so one failing
    call (a timeout, a 429 after the retries, the per-report cap) costs that
    pair's judgment only, never the report. ``agent`` is a pydantic-ai agent
    (``run``) or an :class:`EntailmentJudge` (``score``).
    """
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(claim: str, premise: str) -> EntailmentJudgment | Exception:
        async with gate:
            try:
                return await _judge_one(
                    agent, claim[:max_hypothesis_chars], premise[:max_premise_chars]
                )
            except Exception as exc:  # recorded per pair by the caller
                return exc

    return list(await asyncio.gather(*(one(c, p) for c, p in items)))


async def judge_pairs_async(
    agent: Any,
    items: list[tuple[str, str]],
    *,
    max_premise_chars: int = 6_000,
    max_hypothesis_chars: int = 1_200,
    concurrency: int = 4,
) -> list[EntailmentJudgment]:
    """:func:`judge_pairs_settled`, raising the first failure (seed behaviour)."""
    settled = await judge_pairs_settled(
        agent,
        items,
        max_premise_chars=max_premise_chars,
        max_hypothesis_chars=max_hypothesis_chars,
        concurrency=concurrency,
    )
    for outcome in settled:
        if isinstance(outcome, Exception):
            raise outcome
    return [o for o in settled if isinstance(o, EntailmentJudgment)]


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine from sync code, also when this thread already runs an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
