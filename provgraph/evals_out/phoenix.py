"""A stored session and its citation verdicts into Arize Phoenix.

``push_to_phoenix`` sends the session's spans (:mod:`provgraph.evals_out.spans`)
to ``<endpoint>/v1/traces`` with the OTel OTLP/HTTP exporter, under the
Phoenix project named by the ``openinference.project.name`` resource
attribute; waits until Phoenix has stored the final-output spans (it ingests
asynchronously) and then logs, through Phoenix's own client
(``arize-phoenix-client``), for each final output with a stored report:

* one ``provgraph.citation`` annotation per checked citation, on the output's
  span — ``identifier`` ``"<tag index>:<key>"`` (two tags citing one key stay
  two annotations), ``label`` the verdict, ``score`` the support score,
  ``explanation`` naming claim and source, ``metadata`` with key, tag index,
  contradiction score, report version and config hash;
* one ``provgraph.citation_support`` annotation for the whole report
  (support rate; ``grounded``/``partially_grounded``/``nothing_checked``).

Label, score and explanation come from
:func:`provgraph.otel_out.evaluation_attributes`, the same values the
``gen_ai.evaluation.result`` events carry. The annotator kind is ``LLM``
when the LLM judge scored the citation (``CODE`` otherwise: TF-IDF,
embeddings, NLI and the rule checks are code). Re-pushing updates the same
annotations (Phoenix keys them by name, span and identifier).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from provgraph.errors import ConfigurationError, NotFoundError, ProvgraphError
from provgraph.evals_out.emit import build_sdk_spans, export_spans
from provgraph.evals_out.spans import plan_spans, span_hex, span_id_for, trace_id_for
from provgraph.graph import NodeType
from provgraph.otel_out import evaluation_attributes
from provgraph.store.port import GraphStore

CITATION_ANNOTATION = "provgraph.citation"
REPORT_ANNOTATION = "provgraph.citation_support"
DEFAULT_PROJECT = "provgraph"


@dataclass(frozen=True)
class PhoenixPush:
    """What was sent: spans, annotations, the Phoenix project and the outputs' span ids."""

    spans: int
    annotations: int
    project: str
    output_spans: dict[str, str]


def _client(endpoint: str, api_key: str | None) -> Any:
    try:
        from phoenix.client import Client
    except ImportError as exc:
        raise ConfigurationError(
            f"the Phoenix client is not installed ({exc}); pip install 'provgraph[phoenix]'"
        ) from None
    return Client(base_url=endpoint, api_key=api_key)


def _exporter(endpoint: str, api_key: str | None, timeout: float) -> Any:
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    except ImportError as exc:
        raise ConfigurationError(
            f"the OTLP exporter is not installed ({exc}); pip install 'provgraph[phoenix]'"
        ) from None
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else None
    return OTLPSpanExporter(
        endpoint=f"{endpoint.rstrip('/')}/v1/traces", headers=headers, timeout=timeout
    )


def citation_annotations(
    report_document: dict[str, Any], span_id: str, version: int
) -> list[dict[str, Any]]:
    """Phoenix ``SpanAnnotationData`` for one stored report (pure)."""
    from provgraph.verification.report import VerificationReport

    report = VerificationReport.model_validate(report_document)
    overall, *per_check = evaluation_attributes(report)
    judge = report.stage("llm_judge")
    out: list[dict[str, Any]] = [
        {
            "name": REPORT_ANNOTATION,
            "span_id": span_id,
            "annotator_kind": "LLM" if judge is not None and judge.status == "ran" else "CODE",
            "result": {
                "label": overall["gen_ai.evaluation.score.label"],
                "score": overall["gen_ai.evaluation.score.value"],
                "explanation": overall["gen_ai.evaluation.explanation"],
            },
            "metadata": {"report_version": version, "config_hash": report.config_hash},
        }
    ]
    for check, attrs in zip(report.checks, per_check, strict=True):
        out.append(
            {
                "name": CITATION_ANNOTATION,
                "span_id": span_id,
                "identifier": f"{check.tag_index}:{check.key}",
                "annotator_kind": "LLM" if "llm_judge" in check.scores else "CODE",
                "result": {
                    "label": attrs["gen_ai.evaluation.score.label"],
                    "score": attrs["gen_ai.evaluation.score.value"],
                    "explanation": attrs["gen_ai.evaluation.explanation"],
                },
                "metadata": {
                    "key": check.key,
                    "tag_index": check.tag_index,
                    "contradiction_score": check.contradiction_score,
                    "source_node_id": check.source.node_id,
                    "report_version": version,
                    "config_hash": report.config_hash,
                },
            }
        )
    return out


def push_to_phoenix(
    store: GraphStore,
    project: str,
    session_id: str,
    endpoint: str,
    *,
    phoenix_project: str = DEFAULT_PROJECT,
    api_key: str | None = None,
    timeout: float = 10.0,
    wait_seconds: float = 30.0,
) -> PhoenixPush:
    """Send the session's spans, then its stored verdicts as annotations; see the module doc."""
    graph = store.session_graph(project, session_id)
    if not graph.nodes:
        raise NotFoundError(f"session '{session_id}' has no nodes in project '{project}'")
    client = _client(endpoint, api_key)
    specs = plan_spans(graph, project, session_id)
    spans = build_sdk_spans(
        specs,
        trace_id_for(project, session_id),
        {"service.name": "provgraph", "openinference.project.name": phoenix_project},
    )
    export_spans(spans, _exporter(endpoint, api_key, timeout))
    outputs = {
        node.id: span_hex(span_id_for(project, session_id, node.id))
        for node in graph.nodes.values()
        if node.type is NodeType.FINAL_OUTPUT
    }
    annotations: list[dict[str, Any]] = []
    for output_id, span_id in outputs.items():
        stored = store.get_report(project, output_id)
        if stored is not None:
            annotations += citation_annotations(stored.report, span_id, stored.version)
    if annotations:
        _wait_for_spans(client, phoenix_project, sorted(outputs.values()), wait_seconds)
        try:
            client.spans.log_span_annotations(span_annotations=annotations, sync=True)
        except Exception as exc:  # httpx errors of the client
            raise ProvgraphError(f"Phoenix refused the annotations at {endpoint}: {exc}") from exc
    return PhoenixPush(len(spans), len(annotations), phoenix_project, outputs)


def _wait_for_spans(client: Any, phoenix_project: str, span_ids: list[str], seconds: float) -> None:
    """Phoenix stores OTLP spans asynchronously; annotations need the spans to exist."""
    deadline = time.monotonic() + seconds
    last: Exception | None = None
    while True:
        try:
            found = client.spans.get_spans(
                project_identifier=phoenix_project, span_ids=span_ids, limit=len(span_ids)
            )
        except Exception as exc:  # 404 until the project exists
            found, last = [], exc
        else:
            last = None
        if {s["context"]["span_id"] for s in found} >= set(span_ids):
            return
        if time.monotonic() > deadline:
            raise ProvgraphError(
                f"Phoenix did not store the session's output spans within {seconds:.0f}s"
                + (f" ({last})" if last else "")
            )
        time.sleep(0.25)
