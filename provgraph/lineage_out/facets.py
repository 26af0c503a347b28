"""provgraph's custom OpenLineage facets (``attrs`` classes of the ``openlineage-python`` client).

Their JSON Schema is published in ``docs/schema/openlineage-facets-v1.json``
(one ``$defs`` entry per facet); each facet's ``_schemaURL`` points at its
entry, as the OpenLineage spec requires of custom facets. Facet keys are
prefixed ``provgraph_`` so they never collide with standard facets. Field
names are camelCase like the spec's own facets.

Imported only after :func:`provgraph.lineage_out.openlineage.require_client`
succeeded (it imports the client at module level).
"""

from __future__ import annotations

from typing import Any

import attr
from openlineage.client.generated.base import DatasetFacet, RunFacet

SCHEMA_URL = "https://provgraph.dev/schema/openlineage-facets-v1.json"
"""Where ``docs/schema/openlineage-facets-v1.json`` is published."""

RUN_FACET_KEY = "provgraph_run"
NODE_FACET_KEY = "provgraph_node"
VERIFICATION_FACET_KEY = "provgraph_verification"

MAX_CLAIM_CHARS = 500
"""Claims are cut here: a facet is metadata, the full report stays in provgraph."""


@attr.define
class ProvgraphRunFacet(RunFacet):
    """Which provgraph session and run this OpenLineage run is, and how many steps failed."""

    project: str
    sessionId: str
    runId: str
    agentName: str
    failedSteps: int = 0

    @staticmethod
    def _get_schema() -> str:
        return f"{SCHEMA_URL}#/$defs/ProvgraphRunFacet"


@attr.define
class ProvgraphNodeDatasetFacet(DatasetFacet):
    """The provenance node a dataset stands for: a data read (source) or a final output."""

    nodeId: str
    nodeType: str
    sessionId: str
    agentName: str
    citationKey: str | None = None
    toolName: str | None = None

    @staticmethod
    def _get_schema() -> str:
        return f"{SCHEMA_URL}#/$defs/ProvgraphNodeDatasetFacet"


@attr.define
class CitationCheckEntry:
    """One checked (citation tag, key) pair of a report."""

    tagIndex: int
    key: str
    verdict: str
    supportScore: float
    contradictionScore: float
    claim: str
    sourceNodeId: str | None = None


@attr.define
class ProvgraphVerificationDatasetFacet(DatasetFacet):
    """The newest stored verification report of an output, summarised per citation."""

    outputId: str
    reportVersion: int
    configHash: str
    citationsChecked: int
    supportRate: float | None
    totals: dict[str, int]
    checks: list[CitationCheckEntry]

    @staticmethod
    def _get_schema() -> str:
        return f"{SCHEMA_URL}#/$defs/ProvgraphVerificationDatasetFacet"


def verification_facet(
    output_id: str, report: dict[str, Any], version: int, producer: str
) -> ProvgraphVerificationDatasetFacet:
    """The facet for one stored report document (``StoredReport.report``)."""
    checks = []
    for check in report.get("checks") or []:
        claim = str((check.get("claim") or {}).get("text") or "")
        source = check.get("source") or {}
        checks.append(
            CitationCheckEntry(
                tagIndex=int(check.get("tag_index") or 0),
                key=str(check.get("key") or ""),
                verdict=str(check.get("verdict") or ""),
                supportScore=float(check.get("support_score") or 0.0),
                contradictionScore=float(check.get("contradiction_score") or 0.0),
                claim=claim
                if len(claim) <= MAX_CLAIM_CHARS
                else claim[: MAX_CLAIM_CHARS - 1] + "…",
                sourceNodeId=source.get("node_id") if isinstance(source, dict) else None,
            )
        )
    rate = report.get("support_rate")
    return ProvgraphVerificationDatasetFacet(
        outputId=output_id,
        reportVersion=version,
        configHash=str(report.get("config_hash") or ""),
        citationsChecked=int(report.get("citations_checked") or 0),
        supportRate=None if rate is None else float(rate),
        totals={str(k): int(v) for k, v in (report.get("totals") or {}).items()},
        checks=checks,
        producer=producer,
    )
