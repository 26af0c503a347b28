"""Verify one stored output in-process and keep the report (the CLI's inline path)."""

from __future__ import annotations

from provgraph.config import Settings
from provgraph.errors import NotFoundError
from provgraph.store.port import GraphStore
from provgraph.verification.config import VerificationConfig
from provgraph.verification.engine import verify_output
from provgraph.verification.from_settings import config_from_settings
from provgraph.verification.report import VerificationReport, report_to_stored


def cli_config(settings: Settings, *, fast: bool) -> VerificationConfig:
    """The config for a CLI run: models from settings; ``fast`` keeps lexical stages only."""
    return config_from_settings(settings, **({"embeddings": False, "nli": False} if fast else {}))


def verify_and_store(
    store: GraphStore,
    project: str,
    output_id: str,
    *,
    settings: Settings,
    fast: bool = False,
    save: bool = True,
) -> VerificationReport:
    """Run the engine on ``output_id`` and, if ``save``, store the report (idempotent)."""
    node = store.get_node(project, output_id)
    if node is None:
        raise NotFoundError(f"node '{output_id}' does not exist in project '{project}'")
    report = verify_output(store, project, output_id, cli_config(settings, fast=fast))
    if save:
        store.save_report(project, report_to_stored(report, output_id, node.session_id))
    return report
