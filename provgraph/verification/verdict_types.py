"""The verdict policy's value types: the verdicts, the decision thresholds and the fusion
weights (split from :mod:`.verdicts`, which re-exports them, in session 34 to keep that
module to the policy itself)."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Verdict(StrEnum):
    SUPPORTED = "supported"
    WEAK = "weak"
    UNSUPPORTED = "unsupported"
    CONTRADICTED = "contradicted"
    UNVERIFIABLE = "unverifiable"


class Thresholds(BaseModel):
    """Decision thresholds on the fused scores (defaults chosen on the dev data; docs)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    supported: float = Field(default=0.5, ge=0.0, le=1.0)
    weak: float = Field(default=0.35, ge=0.0, le=1.0)
    contradicted: float = Field(default=0.5, ge=0.0, le=1.0)


class FusionWeights(BaseModel):
    """Weights and ramps of :func:`fuse` (documented in docs/verification.md)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tfidf: float = 1.0
    recall: float = 1.0
    embedding: float = 1.0
    nli: float = 3.0
    llm: float = 3.0
    tfidf_low: float = 0.05
    tfidf_high: float = 0.65
    recall_low: float = 0.4
    recall_high: float = 1.0
    embedding_low: float = 0.2
    embedding_high: float = 0.8
    consistency_weight: float = 0.5
    anchored_contradiction: float = 0.8
    negation_contradiction: float = 0.8
    #: ``learned``: the shipped logistic-regression combiner
    #: (:mod:`provgraph.verification.combiner`) wherever a variant fits the stages
    #: that ran and no LLM judge scored; the weighted mean otherwise.
    method: Literal["learned", "weighted"] = "learned"
