"""The loaded back-ends of one report and each stage's status: what ``score_pairs`` runs.

Split from :mod:`.scoring` (session 23), which runs the stages: loading decides, once per
report, which stages ran, were skipped (with the reason: a model that could not load) or
were disabled, and that record goes into the report as it is.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from provgraph.errors import ModelUnavailableError
from provgraph.verification.config import StageModels, VerificationConfig
from provgraph.verification.embeddings import EmbeddingEncoder
from provgraph.verification.judge_stage import load_judge
from provgraph.verification.nli import NliScorer
from provgraph.verification.nli_stage import load_nli_stage
from provgraph.verification.report import StageStatus
from provgraph.verification.source_view import tfidf_index
from provgraph.verification.sources import ResolvedSource
from provgraph.verification.tfidf import TfidfSourceIndex

STAGE_ORDER = ("tfidf", "embeddings", "nli", "llm_judge", "consistency", "relative", "coverage")


@dataclass
class Stages:
    """Loaded back-ends of one report and the status of every stage."""

    config: VerificationConfig
    tfidf: bool = False
    encoder: EmbeddingEncoder | None = None
    nli: NliScorer | None = None
    #: the accurate mode's larger model (``nli_refine.py``); None: off
    nli_refine: NliScorer | None = None
    judge: Any = None
    statuses: dict[str, StageStatus] = field(default_factory=dict)

    def index(self, source: ResolvedSource) -> TfidfSourceIndex:
        """The TF-IDF index of a source, built once per content hash in this process."""
        c = self.config
        return tfidf_index(
            source.text,
            max_source_chars=c.source_max_chars,
            chunk_chars=c.tfidf_chunk_chars,
            chunk_stride=c.tfidf_chunk_stride,
            max_chunks=c.tfidf_max_chunks,
        )

    def add_time(self, name: str, seconds: float) -> None:
        status = self.statuses[name]
        self.statuses[name] = status.model_copy(update={"seconds": status.seconds + seconds})

    def ran(self, name: str) -> bool:
        return self.statuses[name].status == "ran"


def load_stages(config: VerificationConfig, models: StageModels | None = None) -> Stages:
    """Load what the config enables; record ran / skipped (with reason) / disabled."""
    models = models or StageModels()
    st = Stages(config)
    flags = {
        "tfidf": config.tfidf,
        "embeddings": config.embeddings,
        "nli": config.nli,
        "llm_judge": config.llm_judge,
        "consistency": config.consistency,
        "relative": config.relative,
        "coverage": config.coverage,
    }
    for name in STAGE_ORDER:
        st.statuses[name] = StageStatus(name=name, status="ran" if flags[name] else "disabled")
    st.tfidf = config.tfidf
    if config.embeddings:
        t0 = time.perf_counter()
        try:
            st.encoder = models.encoder or EmbeddingEncoder(
                config.embedding_model, batch_size=config.embedding_batch_size
            )
            st.statuses["embeddings"] = StageStatus(
                name="embeddings",
                status="ran",
                model=st.encoder.name,
                version=st.encoder.version,
                seconds=time.perf_counter() - t0,
            )
        except ModelUnavailableError as exc:
            st.statuses["embeddings"] = StageStatus(
                name="embeddings", status="skipped", reason=str(exc)
            )
    if config.nli:
        nli = load_nli_stage(config, models)
        st.nli, st.nli_refine, st.statuses["nli"] = nli.scorer, nli.refiner, nli.status
    if config.llm_judge:
        st.judge, st.statuses["llm_judge"] = load_judge(models.judge_agent)
    return st
