"""The versioned verification report (pydantic; JSON Schema in docs/schema/).

Schema version ``"1"``. It keeps every stage's raw scores apart from the
decision (``checks[].scores`` vs ``verdict``), says what produced it (stages
ran/skipped with reasons, ``models`` with versions and content sha256 of the
weights and of the learned combiner, thresholds, fusion weights,
``config_hash``), and separates "nothing checked" (``citations_checked == 0``,
``support_rate is None``) from "all supported". Evidence offsets index the
cited source's text as resolved (see :mod:`provgraph.verification.sources`).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from provgraph.verification.verdicts import FusionWeights, Thresholds, Verdict

if TYPE_CHECKING:
    from provgraph.store.types import StoredReport

SCHEMA_VERSION: Literal["1"] = "1"
ENGINE_VERSION = "0.4.29"
"""The scoring rules' version, stored in every report: it changes whenever the same inputs,
config, NLI model and combiner can score differently, so an auditor can tell reports made
by different rules apart. What each version changed: docs/engine-changelog.md (0.4.24,
session 36, is the latest)."""

RawValue = float | int | str | bool | None | list[str]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Evidence(_Model):
    """Where in the cited source the claim was matched: ``text == source[start:end]``."""

    source_key: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str


class StageScore(_Model):
    """One stage's raw output for one citation; ``score`` is its headline value."""

    stage: str
    score: float | None
    raw: dict[str, RawValue] = Field(default_factory=dict)
    evidence: Evidence | None = None


class ClaimInfo(_Model):
    """The claim a tag supports and its span in the checked text."""

    text: str
    start: int
    end: int
    mode: str
    #: The text the stages scored when it differs from ``text`` (a pronoun resolved).
    checked_text: str | None = None


class SourceInfo(_Model):
    """What a key resolved to."""

    key: str
    node_id: str
    node_type: str | None
    label: str
    chars: int


class RelativeInfo(_Model):
    """Cited source vs the session's best other source for the same claim."""

    stage: str
    cited_score: float
    best_other_key: str | None
    best_other_score: float | None
    margin: float | None
    better_source_key: str | None


class CitationCheck(_Model):
    """One (tag, key) pair: raw stage scores, fused scores, verdict."""

    tag_index: int
    key: str
    claim: ClaimInfo
    source: SourceInfo
    scores: dict[str, StageScore]
    evidence: Evidence | None
    support_score: float | None
    contradiction_score: float
    verdict: Verdict
    confidence: float
    relative: RelativeInfo | None = None
    kept_in_text: bool


class TagResult(_Model):
    """One tag occurrence as written and as rewritten."""

    tag_index: int
    raw_tag: str
    start: int
    end: int
    keys: list[str]
    unresolvable_keys: list[str]
    verified_tag: str
    claim: ClaimInfo


class CoverageFinding(_Model):
    """An uncited sentence that a session source would support."""

    sentence: str
    start: int
    end: int
    candidate_source_key: str
    support_score: float
    stage: str
    evidence: Evidence | None


class JudgeUsage(_Model):
    """What the LLM judge cost one report: calls made, refused by the cap, failed; tokens.

    ``estimated_cost`` is tokens times the configured prices
    (``PROVGRAPH_LLM_JUDGE_*_COST_PER_MTOK``), ``None`` when no price is set.
    """

    max_calls: int
    calls: int = 0
    failed_calls: int = 0
    capped_pairs: int = 0
    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    estimated_cost: float | None = None


class StageStatus(_Model):
    """Whether a stage ran, and if not, why (``usage``: the LLM judge's calls and tokens)."""

    name: str
    status: Literal["ran", "skipped", "disabled"]
    reason: str | None = None
    model: str | None = None
    version: str | None = None
    seconds: float = 0.0
    usage: JudgeUsage | None = None


class ModelRef(_Model):
    """A model (or the fusion's coefficient file) that produced the report.

    ``sha256`` hashes the files themselves (a folder: every file's relative
    path and sha256), so retrained weights under the same name are told apart.
    """

    stage: str
    name: str
    version: str | None = None
    sha256: str | None = None


class VerificationReport(_Model):
    """The full report for one checked text."""

    schema_version: Literal["1"] = SCHEMA_VERSION
    engine_version: str = ENGINE_VERSION
    text_with_verified_citations: str
    tags: list[TagResult]
    checks: list[CitationCheck]
    unresolvable_keys: list[str]
    totals: dict[str, int]
    citations_checked: int
    support_rate: float | None
    coverage: list[CoverageFinding]
    stages: list[StageStatus]
    thresholds: Thresholds
    fusion: FusionWeights
    config: dict[str, object]
    config_hash: str
    models: list[ModelRef] = Field(default_factory=list)
    seconds: float

    def stage(self, name: str) -> StageStatus | None:
        """The status entry of stage ``name``."""
        return next((s for s in self.stages if s.name == name), None)


def export_json_schema(path: str | Path) -> dict[str, object]:
    """Write the report's JSON Schema (sorted keys, trailing newline) and return it."""
    schema = VerificationReport.model_json_schema()
    schema["$id"] = "https://provgraph.dev/schema/verification-report-v1.json"
    Path(path).write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return schema


def report_to_stored(
    report: VerificationReport, output_id: str, session_id: str | None
) -> StoredReport:
    """Wrap a report for :meth:`GraphStore.save_report` (summary fields copied out)."""
    from provgraph.store.types import StoredReport

    verdicts = tuple(sorted({c.verdict.value for c in report.checks}))
    return StoredReport(
        output_id=output_id,
        session_id=session_id,
        config_hash=report.config_hash,
        report=report.model_dump(mode="json"),
        created_at=datetime.now(UTC),
        verdicts=verdicts,
        support_rate=report.support_rate,
    )
