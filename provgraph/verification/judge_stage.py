"""The LLM judge stage's bookkeeping: which judge runs, and what each pair and the report record.

A judge call can fail (timeout, 429 after retries, a malformed answer) or be
refused by the per-report cap. The pair then has an ``llm_judge`` score of
``None`` with the reason in ``raw.error``, and the fusion simply has no judge
signal for it; the stage status says how many calls failed. The report is
never lost to the judge.
"""

from __future__ import annotations

from typing import Any

from provgraph.errors import ModelUnavailableError
from provgraph.verification.judge_client import JudgeCapReachedError, JudgeClient, MeteredJudge
from provgraph.verification.llm_judge import EntailmentJudgment
from provgraph.verification.report import Evidence, StageScore, StageStatus

_MAX_ERROR_CHARS = 300
_NO_JUDGE = (
    "no judge configured: set PROVGRAPH_LLM_JUDGE_MODEL (and _BASE_URL, _API_KEY) for workers, "
    "or give StageModels.judge_agent = entailment_agent(model)"
)


def load_judge(given: Any) -> tuple[Any, StageStatus]:
    """The judge of one report (a :class:`JudgeClient` becomes a fresh metered judge)."""
    if given is None:
        return None, StageStatus(name="llm_judge", status="skipped", reason=_NO_JUDGE)
    if isinstance(given, JudgeClient):
        try:
            given = given.metered()
        except ModelUnavailableError as exc:
            return None, StageStatus(name="llm_judge", status="skipped", reason=str(exc))
    model_name = getattr(given, "model_name", None) or getattr(
        getattr(given, "model", None), "model_name", None
    )
    status = StageStatus(
        name="llm_judge",
        status="ran",
        model=str(model_name) if model_name else None,
        usage=given.usage if isinstance(given, MeteredJudge) else None,
    )
    return given, status


def _error_text(exc: Exception) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= _MAX_ERROR_CHARS else text[: _MAX_ERROR_CHARS - 1] + "…"


def record_judgments(outcome: EntailmentJudgment | Exception, evidence: Evidence) -> StageScore:
    """One pair's ``llm_judge`` score: the judgment, or ``None`` with the error."""
    if isinstance(outcome, Exception):
        return StageScore(
            stage="llm_judge", score=None, raw={"error": _error_text(outcome)}, evidence=evidence
        )
    return StageScore(
        stage="llm_judge",
        score=outcome.probability_support,
        raw={"probability_support": outcome.probability_support, "rationale": outcome.rationale},
        evidence=evidence,
    )


def judge_status(
    status: StageStatus, judge: Any, outcomes: list[EntailmentJudgment | Exception]
) -> StageStatus:
    """The stage status after a round of calls: failures counted, usage copied in."""
    errors = [o for o in outcomes if isinstance(o, Exception)]
    capped = [e for e in errors if isinstance(e, JudgeCapReachedError)]
    failed = [e for e in errors if not isinstance(e, JudgeCapReachedError)]
    update: dict[str, Any] = {}
    if isinstance(judge, MeteredJudge):
        update["usage"] = judge.usage.model_copy()
    notes = []
    if failed:
        first = _error_text(failed[0])
        notes.append(f"{len(failed)} of {len(outcomes)} judge calls failed (first: {first})")
    if capped:
        notes.append(f"{len(capped)} citations not judged: over the per-report call cap")
    if notes:
        reason = "; ".join(notes)
        update["reason"] = reason if not status.reason else f"{status.reason}; {reason}"
        if len(errors) == len(outcomes) and status.status == "ran":
            update["status"] = "skipped"
    return status.model_copy(update=update)
