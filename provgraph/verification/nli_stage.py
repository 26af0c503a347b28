"""Loading the NLI stage: the cross-encoder every window goes through, and the
optional larger one that re-reads the best windows (``nli_refine.py``).

A model that cannot be loaded marks the stage ``skipped`` with the reason. When
a refiner is configured but cannot be loaded, the stage is skipped too rather
than run without it: the config asked for the accurate mode, and verdicts of
the small model alone under that config's hash would be a different pipeline
passing for it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from provgraph.errors import ModelUnavailableError
from provgraph.verification.config import StageModels, VerificationConfig
from provgraph.verification.nli import NliModel, NliScorer, load_nli
from provgraph.verification.report import StageStatus

SHIPPED_NAME = "provgraph/nli/model"


@dataclass(frozen=True)
class NliStage:
    """The loaded scorers (None when skipped) and the stage's status."""

    scorer: NliScorer | None
    refiner: NliScorer | None
    status: StageStatus


def _scorer(model: NliModel, config: VerificationConfig) -> NliScorer:
    return NliScorer(
        model,
        window_tokens=config.nli_window_tokens,
        stride_tokens=config.nli_stride_tokens,
        max_windows=config.nli_max_windows,
        batch_size=config.nli_batch_size,
        max_source_chars=config.source_max_chars,
        evidence_tokens=config.nli_evidence_tokens,
        first_windows=config.nli_first_windows,
        decisive=config.nli_decisive,
        contradiction_windows=config.nli_contradiction_windows,
    )


def _name(model: object, configured: str | None) -> str:
    return str(getattr(model, "name", None) or configured or SHIPPED_NAME)


def load_nli_stage(config: VerificationConfig, models: StageModels) -> NliStage:
    """The NLI stage as ``config`` asks, preloaded models first (a worker's).

    Only the config turns the accurate mode on: a refiner preloaded in
    ``models`` without ``config.nli_refine_model`` is ignored, because the
    report's config hash would then name the default pipeline for verdicts the
    refiner made.
    """
    t0 = time.perf_counter()
    refine_wanted = config.nli_refine_model is not None
    try:
        model = models.nli_model or load_nli(config.nli_model)
        refiner_model = (
            (models.nli_refiner or load_nli(config.nli_refine_model)) if refine_wanted else None
        )
    except ModelUnavailableError as exc:
        reason = str(exc)
        if refine_wanted:
            reason = f"{reason} (nli_refine_model {config.nli_refine_model!r} is configured)"
        return NliStage(None, None, StageStatus(name="nli", status="skipped", reason=reason))
    name = _name(model, config.nli_model)
    if refiner_model is not None:
        name = f"{name}, refined by {_name(refiner_model, config.nli_refine_model)}"
    status = StageStatus(
        name="nli",
        status="ran",
        model=name,
        version=(str(getattr(model, "version", "")) or None),
        seconds=time.perf_counter() - t0,
    )
    refiner = _scorer(refiner_model, config) if refiner_model is not None else None
    return NliStage(_scorer(model, config), refiner, status)
