"""Verification results out as OTel ``gen_ai.evaluation.result`` events.

Teams already watching traces in Phoenix, Langfuse, Logfire or Jaeger see each
citation verdict there: one event per checked (claim, source) pair and one
for the whole report, with ``gen_ai.evaluation.name``, ``.score.value``,
``.score.label`` and ``.explanation``. Events are attached to the evaluated
span when the caller has it (the GenAI convention parents them to it),
otherwise to a new ``evaluate citations`` span. Only the OpenTelemetry API is
needed (the SDK and exporter are the application's choice); it is imported
lazily so provgraph does not depend on it.
"""

from __future__ import annotations

from typing import Any

EVENT_NAME = "gen_ai.evaluation.result"
EVALUATION_NAME = "provgraph.citation_support"


def evaluation_attributes(report: Any) -> list[dict[str, Any]]:
    """Attribute sets for one report (pure): the overall result first, then each check.

    Accepts a ``VerificationReport`` or the seed ``CitationVerificationReport``
    (its ``.report``); reads fields by name so report versions can add fields.
    """
    inner = getattr(report, "report", report)
    rate = getattr(inner, "support_rate", None)
    checked = int(getattr(inner, "citations_checked", 0) or 0)
    totals = dict(getattr(inner, "totals", {}) or {})
    out: list[dict[str, Any]] = [
        {
            "gen_ai.evaluation.name": EVALUATION_NAME,
            "gen_ai.evaluation.score.value": float(rate) if rate is not None else 0.0,
            "gen_ai.evaluation.score.label": (
                "nothing_checked"
                if checked == 0
                else "grounded"
                if totals.get("supported") == checked
                else "partially_grounded"
            ),
            "gen_ai.evaluation.explanation": f"{checked} citation(s) checked: "
            + ", ".join(f"{k}={v}" for k, v in sorted(totals.items()) if v),
        }
    ]
    for check in getattr(inner, "checks", []) or []:
        verdict = getattr(check, "verdict", "")
        claim = getattr(getattr(check, "claim", None), "text", "")
        out.append(
            {
                "gen_ai.evaluation.name": f"{EVALUATION_NAME}.{getattr(check, 'key', '')}",
                "gen_ai.evaluation.score.value": float(getattr(check, "support_score", 0.0) or 0.0),
                "gen_ai.evaluation.score.label": str(getattr(verdict, "value", verdict)),
                "gen_ai.evaluation.explanation": f"claim {claim[:300]!r} vs source "
                f"{getattr(check, 'key', '')}",
                "provgraph.citation.tag_index": int(getattr(check, "tag_index", 0) or 0),
            }
        )
    return out


def emit_evaluation_events(report: Any, *, span: Any = None, tracer: Any = None) -> int:
    """Add the report's evaluation events to ``span`` (or a new span); returns how many."""
    attributes = evaluation_attributes(report)
    if span is not None:
        for attrs in attributes:
            span.add_event(EVENT_NAME, attributes=attrs)
        return len(attributes)
    from opentelemetry import trace

    tracer = tracer or trace.get_tracer("provgraph")
    with tracer.start_as_current_span("evaluate citations") as new_span:
        for attrs in attributes:
            new_span.add_event(EVENT_NAME, attributes=attrs)
    return len(attributes)
