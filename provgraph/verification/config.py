"""Configuration of the verification engine, and the models a caller may preload.

:class:`VerificationConfig` is pydantic and frozen; :meth:`config_hash` is a
stable sha256 of its canonical JSON (sorted keys), so the same output verified
with the same config is stored once. Preloaded models (:class:`StageModels`)
are not part of the config: they are how a worker reuses models across jobs.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from provgraph.verification.claims import ClaimMode
from provgraph.verification.models import PACKAGED_MINILM
from provgraph.verification.verdicts import FusionWeights, Thresholds, Verdict

#: How the accurate mode scores a re-read window's entailment (``nli_refine.py``).
RefineEntailment = Literal["agreement", "refiner"]


class VerificationConfig(BaseModel):
    """Every knob of a verification run (stages on/off, models, windows, thresholds)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    claim_mode: ClaimMode = ClaimMode.CONTEXT
    claim_context_chars: int = Field(default=720, ge=1)
    claim_max_sentences: int = Field(default=1, ge=1)
    source_max_chars: int = Field(default=96_000, ge=1)
    include_cited_sources_for_agents: bool = False

    tfidf: bool = True
    tfidf_chunk_chars: int = Field(default=1_200, ge=1)
    tfidf_chunk_stride: int = Field(default=600, ge=1)
    tfidf_max_chunks: int = Field(default=400, ge=1)

    embeddings: bool = True
    embedding_model: str = PACKAGED_MINILM
    embedding_window_chars: int = Field(default=400, ge=50)
    embedding_max_windows: int = Field(default=16, ge=1)
    embedding_batch_size: int = Field(default=32, ge=1)

    nli: bool = True
    nli_model: str | None = None
    nli_window_tokens: int = Field(default=224, ge=16, le=480)
    nli_stride_tokens: int = Field(default=160, ge=8)
    #: windows read per (claim, source) at most — around the best-ranked evidence (see nli.py)
    nli_max_windows: int = Field(default=8, ge=1)
    #: windows read first; the rest only where neither entailment nor contradiction
    #: reached ``nli_decisive`` there (see nli.py)
    nli_first_windows: int = Field(default=1, ge=1)
    nli_decisive: float = Field(default=0.8, ge=0.0, le=1.0)
    #: best-ranked evidence windows the maximum contradiction is taken over
    nli_contradiction_windows: int = Field(default=2, ge=1)
    #: tokens per evidence window of a premise longer than one window
    nli_evidence_tokens: int = Field(default=128, ge=16, le=480)
    nli_batch_size: int = Field(default=16, ge=1)
    #: the focused NLI pass (focus.py): each statement of a two-part claim, the
    #: evidence's own clauses, agreeing values in the source's wording
    nli_focus: bool = True
    #: the polarity reading (polarity.py): a claim with one negation is also read
    #: in its positive form; a contradiction then needs both readings
    nli_polarity: bool = True
    #: the value-free reading (valuefree.py): a contradiction of a claim whose
    #: quantity the source never states is re-read with that value left open, and
    #: only what survives counts
    nli_value_free: bool = True
    #: the accurate mode (nli_refine.py): a larger NLI model (local folder) re-reads
    #: the ``nli_refine_windows`` windows the small model found most entailing, plus
    #: its most contradicting one, and gives the stage's scores; None: off
    nli_refine_model: str | None = None
    nli_refine_windows: int = Field(default=2, ge=1)
    #: how a re-read window's entailment is scored: "agreement" = the geometric
    #: mean of both models' entailment (a window entails only when both read it
    #: so), "refiner" = the larger model's alone (sessions 6–7); contradiction is
    #: the larger model's either way (docs/verification.md, "The accurate mode")
    nli_refine_entailment: RefineEntailment = "agreement"

    llm_judge: bool = False
    llm_max_premise_chars: int = Field(default=6_000, ge=100)
    llm_concurrency: int = Field(default=4, ge=1)

    consistency: bool = True
    relative: bool = True
    relative_margin: float = 0.1
    #: windows per other source embedded for the relative check (best by word overlap)
    relative_max_windows: int = Field(default=4, ge=1)

    coverage: bool = True
    coverage_top_k: int = Field(default=2, ge=1)
    coverage_max_sentences: int = Field(default=200, ge=0)
    coverage_min_words: int = Field(default=5, ge=1)

    thresholds: Thresholds = Thresholds()
    fusion: FusionWeights = FusionWeights()
    drop_verdicts: tuple[Verdict, ...] = (Verdict.UNSUPPORTED, Verdict.CONTRADICTED)
    max_keys_per_tag: int | None = Field(default=None, ge=1)

    def config_hash(self) -> str:
        """sha256 of the canonical JSON of this config (stable across processes)."""
        payload = json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(payload.encode()).hexdigest()


@dataclass
class StageModels:
    """Optional preloaded models; anything left None is loaded per config (or skipped).

    ``judge_agent`` is a pydantic-ai agent from
    :func:`~provgraph.verification.llm_judge.entailment_agent`; the LLM judge
    stage only runs when ``config.llm_judge`` is set and an agent is given.
    """

    encoder: Any = None
    nli_model: Any = None
    #: the accurate mode's larger NLI model (see ``VerificationConfig.nli_refine_model``)
    nli_refiner: Any = None
    judge_agent: Any = None
