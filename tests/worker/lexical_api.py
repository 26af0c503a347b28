"""The API app the scale-out test runs as uvicorn processes: production app, lexical config.

``uvicorn tests.worker.lexical_api:app`` builds the production app from the
``PROVGRAPH_*`` environment and only swaps the verification config of its
auto-verify requests for a lexical one (TF-IDF and the rule checks, no model
stage), so the jobs go to the light queue and finish in seconds. Injected
through ``create_app(verifier=...)``: production code carries no test switch.
"""

from __future__ import annotations

from provgraph.config import load_settings
from provgraph.verification.config import VerificationConfig
from services.api.app import create_app
from services.api.verification import UseCaseDispatcher

LEXICAL = VerificationConfig(
    embeddings=False, nli=False, llm_judge=False, relative=False, coverage=False, consistency=False
)


def build() -> object:
    settings = load_settings()
    holder: dict[str, object] = {}

    async def store() -> object:
        return await holder["state"].store()  # type: ignore[attr-defined]

    application = create_app(
        settings,
        verifier=UseCaseDispatcher(settings, store, config=LEXICAL),  # type: ignore[arg-type]
    )
    holder["state"] = application.state.provgraph
    return application


app = build()
