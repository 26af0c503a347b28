"""The verifier config a deployment runs: the defaults plus the models its settings name.

One function for every entry point (the API's requests, the worker's sweep of
unrequested outputs, the CLI), so ``PROVGRAPH_NLI_MODEL``,
``PROVGRAPH_NLI_REFINE_MODEL`` and ``PROVGRAPH_EMBEDDING_MODEL`` mean the same
wherever a verification starts. The config (and so its hash, which names the
report version) includes the model names, so a deployment that switches models
gets new reports rather than overwriting old ones.
"""

from __future__ import annotations

from provgraph.config import Settings
from provgraph.verification.config import VerificationConfig


def config_from_settings(settings: Settings, **overrides: object) -> VerificationConfig:
    """Defaults, then the models ``settings`` names, then ``overrides``."""
    values: dict[str, object] = {}
    if settings.nli_model:
        values["nli_model"] = settings.nli_model
    if settings.nli_refine_model:
        values["nli_refine_model"] = settings.nli_refine_model
    if settings.embedding_model:
        values["embedding_model"] = settings.embedding_model
    values.update(overrides)
    return VerificationConfig.model_validate(values)
