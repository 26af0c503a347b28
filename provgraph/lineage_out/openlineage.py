"""A session as OpenLineage ``RunEvent`` objects of the ``openlineage-python`` client.

Names (documented in docs/integrations.md, "OpenLineage"):

* job: namespace ``provgraph://<project>``, name ``<agent_name>``;
* source dataset (a data read): namespace ``provgraph://<project>/sources``,
  name = what was read (:func:`~provgraph.lineage_out.runs.source_identity`);
* output dataset (a final output): namespace ``provgraph://<project>/outputs``,
  name ``<session>/<citation key or node id>``.

Facets: the spec's ``parent`` (delegations, with the root run),
``errorMessage`` (a failed run), ``processing_engine`` and ``jobType``; and
provgraph's ``provgraph_run``, ``provgraph_node`` and
``provgraph_verification`` (:mod:`provgraph.lineage_out.facets`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from provgraph import __version__
from provgraph.errors import ConfigurationError
from provgraph.graph import ProvenanceGraph
from provgraph.lineage_out.runs import DatasetRef, RunPlan, plan_runs

if TYPE_CHECKING:
    from openlineage.client.event_v2 import RunEvent

PRODUCER = f"https://provgraph.dev/provgraph/{__version__}"
"""The ``producer`` URI of every event and facet provgraph emits."""

ReportLookup = Callable[[str], tuple[dict[str, Any], int] | None]
"""Output node id -> (stored report document, version), or None when not verified."""


def require_client() -> None:
    """Import the OpenLineage client or say which extra installs it."""
    try:
        import openlineage.client.event_v2  # noqa: F401
    except ImportError as exc:
        raise ConfigurationError(
            f"the OpenLineage client is not installed ({exc}); pip install 'provgraph[openlineage]'"
        ) from None


def job_namespace(project: str) -> str:
    return f"provgraph://{project}"


def session_run_events(
    graph: ProvenanceGraph,
    project: str,
    session_id: str,
    *,
    reports: ReportLookup | None = None,
) -> list[RunEvent]:
    """START then COMPLETE/FAIL events of every run, parents first (a RUNNING run: START only).

    ``reports`` supplies the newest stored report of an output for the
    ``provgraph_verification`` facet; without it outputs carry no verdicts.
    """
    require_client()
    events: list[RunEvent] = []
    plans = plan_runs(graph, project, session_id)
    by_id = {plan.run_id: plan for plan in plans}
    for plan in plans:
        events.append(_event(plan, by_id, project, session_id, "START", reports))
        if plan.state != "RUNNING":
            events.append(_event(plan, by_id, project, session_id, plan.state, reports))
    return events


def events_to_json_lines(events: Sequence[Any]) -> str:
    """JSON Lines of events, serialised by the client's own ``Serde`` (what transports send)."""
    from openlineage.client.serde import Serde

    return "".join(Serde.to_json(event) + "\n" for event in events)


def _event(
    plan: RunPlan,
    plans: dict[str, RunPlan],
    project: str,
    session_id: str,
    state: str,
    reports: ReportLookup | None,
) -> RunEvent:
    from openlineage.client.event_v2 import (
        InputDataset,
        Job,
        OutputDataset,
        Run,
        RunEvent,
        RunState,
    )
    from openlineage.client.facet_v2 import (
        error_message_run,
        job_type_job,
        parent_run,
        processing_engine_run,
    )

    from provgraph.lineage_out.facets import RUN_FACET_KEY, ProvgraphRunFacet

    namespace = job_namespace(project)
    run_facets: dict[str, Any] = {
        "processing_engine": processing_engine_run.ProcessingEngineRunFacet(
            version=__version__, name="provgraph", producer=PRODUCER
        ),
        RUN_FACET_KEY: ProvgraphRunFacet(
            project=project,
            sessionId=session_id,
            runId=plan.run_id,
            agentName=plan.agent_name,
            failedSteps=plan.failed_steps,
            producer=PRODUCER,
        ),
    }
    if plan.parent is not None:
        parent = plans[plan.parent]
        root = plans[plan.root] if plan.root is not None else parent
        run_facets["parent"] = parent_run.ParentRunFacet(
            run=parent_run.Run(runId=parent.uuid),
            job=parent_run.Job(namespace=namespace, name=parent.agent_name),
            root=parent_run.Root(
                run=parent_run.RootRun(runId=root.uuid),
                job=parent_run.RootJob(namespace=namespace, name=root.agent_name),
            ),
            producer=PRODUCER,
        )
    error = plan.error
    if state == "FAIL" and error is not None:
        run_facets["errorMessage"] = error_message_run.ErrorMessageRunFacet(
            message=f"{error.type}: {error.message}" if error.message else error.type,
            programmingLanguage="unknown",
            producer=PRODUCER,
        )
    job_facets: dict[str, Any] = {
        "jobType": job_type_job.JobTypeJobFacet(
            processingType="BATCH", integration="PROVGRAPH", jobType="AGENT", producer=PRODUCER
        )
    }
    done = state != "START"
    return RunEvent(
        eventType=RunState[state],
        eventTime=(plan.ended if done else plan.started).isoformat(),
        run=Run(runId=plan.uuid, facets=run_facets),
        job=Job(namespace=namespace, name=plan.agent_name, facets=job_facets),
        inputs=[
            _dataset(InputDataset, ref, project, session_id, reports if done else None)
            for ref in _unique(plan.inputs)
            if done or ref.kind == "source"  # a sub-agent's answer is not there at START
        ],
        outputs=[
            _dataset(OutputDataset, ref, project, session_id, reports)
            for ref in _unique(plan.outputs)
        ]
        if done
        else [],
        producer=PRODUCER,
    )


def _dataset(
    cls: Any, ref: DatasetRef, project: str, session_id: str, reports: ReportLookup | None
) -> Any:
    """An ``InputDataset``/``OutputDataset`` for ``ref`` (sources and outputs: see module doc)."""
    kind = "sources" if ref.kind == "source" else "outputs"
    return cls(
        namespace=f"provgraph://{project}/{kind}",
        name=ref.name,
        facets=_dataset_facets(ref, session_id, reports),
    )


def _unique(refs: list[DatasetRef]) -> list[DatasetRef]:
    """One dataset per (kind, name): reading the same document twice is one input."""
    seen: dict[tuple[str, str], DatasetRef] = {}
    for ref in refs:
        seen.setdefault((ref.kind, ref.name), ref)
    return list(seen.values())


def _dataset_facets(
    ref: DatasetRef, session_id: str, reports: ReportLookup | None
) -> dict[str, Any]:
    from provgraph.lineage_out.facets import (
        NODE_FACET_KEY,
        VERIFICATION_FACET_KEY,
        ProvgraphNodeDatasetFacet,
        verification_facet,
    )

    node = ref.node
    tool = node.data.get("tool_name")
    facets: dict[str, Any] = {
        NODE_FACET_KEY: ProvgraphNodeDatasetFacet(
            nodeId=node.id,
            nodeType=node.type.value if node.type is not None else "placeholder",
            sessionId=node.session_id or session_id,
            agentName=node.agent_name,
            citationKey=node.citation_key,
            toolName=tool if isinstance(tool, str) else None,
            producer=PRODUCER,
        )
    }
    if ref.kind == "output" and reports is not None:
        found = reports(node.id)
        if found is not None:
            document, version = found
            facets[VERIFICATION_FACET_KEY] = verification_facet(
                node.id, document, version, PRODUCER
            )
    return facets
