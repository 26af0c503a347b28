"""Citation verification: existence, support, contradiction and coverage of cited claims.

Seed-compatible API (``pydantic_ai_provenance.verification``): ``verify_citations``,
``CitationVerificationReport``, ``strip_unresolvable_citation_keys``,
``CitationKeyFilterResult``, ``context_before_span``, ``claim_source_tfidf_cosine``,
``compare_claim_to_sources_tfidf``, ``refine_claim_source_similarities``,
``entailment_agent``, ``EntailmentJudge``, ``EntailmentRecord``. The engine:
``verify_text``, ``verify_output``, ``VerificationConfig``, ``VerificationReport``.
See docs/verification.md.
ML libraries are imported lazily, only when a stage that needs them runs.
"""

from provgraph.verification.claims import ClaimMode, context_before_span, extract_claims
from provgraph.verification.config import StageModels, VerificationConfig
from provgraph.verification.engine import verify_output, verify_text
from provgraph.verification.llm_judge import (
    EntailmentJudge,
    EntailmentJudgment,
    EntailmentRecord,
    entailment_agent,
)
from provgraph.verification.report import VerificationReport, report_to_stored
from provgraph.verification.sanitize import (
    CitationKeyFilterResult,
    strip_unresolvable_citation_keys,
)
from provgraph.verification.seed import (
    CitationVerificationReport,
    ClaimSourceSimilarity,
    compare_claim_to_sources_tfidf,
    refine_claim_source_similarities,
    verify_citations,
)
from provgraph.verification.sources import (
    GraphSourceResolver,
    MappingSourceResolver,
    ResolvedSource,
    SourceResolver,
)
from provgraph.verification.tfidf import claim_source_tfidf_cosine
from provgraph.verification.verdicts import FusionWeights, Thresholds, Verdict

__all__ = [
    "CitationKeyFilterResult",
    "CitationVerificationReport",
    "ClaimMode",
    "ClaimSourceSimilarity",
    "EntailmentJudge",
    "EntailmentJudgment",
    "EntailmentRecord",
    "FusionWeights",
    "GraphSourceResolver",
    "MappingSourceResolver",
    "ResolvedSource",
    "SourceResolver",
    "StageModels",
    "Thresholds",
    "Verdict",
    "VerificationConfig",
    "VerificationReport",
    "claim_source_tfidf_cosine",
    "compare_claim_to_sources_tfidf",
    "context_before_span",
    "entailment_agent",
    "extract_claims",
    "refine_claim_source_similarities",
    "report_to_stored",
    "strip_unresolvable_citation_keys",
    "verify_citations",
    "verify_output",
    "verify_text",
]
