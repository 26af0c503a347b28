"""Every entry point runs the verifier config the deployment's settings name."""

from __future__ import annotations

from pathlib import Path

from provgraph.cli.verifying import cli_config
from provgraph.config import Settings
from provgraph.verification.config import VerificationConfig
from provgraph.verification.from_settings import config_from_settings
from services.api.verification import UseCaseDispatcher, default_dispatcher


def _settings(tmp_path: Path, **models: str) -> Settings:
    return Settings(home=tmp_path, **models)  # type: ignore[arg-type]


def test_defaults_without_model_settings(tmp_path: Path) -> None:
    assert config_from_settings(_settings(tmp_path)) == VerificationConfig()


def test_models_named_by_settings_reach_the_config_and_its_hash(tmp_path: Path) -> None:
    settings = _settings(
        tmp_path,
        nli_model="/models/small",
        nli_refine_model="/models/large",
        embedding_model="/models/embed",
    )
    config = config_from_settings(settings)
    assert (config.nli_model, config.nli_refine_model, config.embedding_model) == (
        "/models/small",
        "/models/large",
        "/models/embed",
    )
    assert config.config_hash() != VerificationConfig().config_hash()


def test_cli_fast_mode_keeps_the_models_and_drops_the_model_stages(tmp_path: Path) -> None:
    config = cli_config(_settings(tmp_path, nli_refine_model="/models/large"), fast=True)
    assert (config.nli, config.embeddings, config.nli_refine_model) == (
        False,
        False,
        "/models/large",
    )


def test_the_api_requests_verification_with_the_settings_models(tmp_path: Path) -> None:
    async def no_store() -> None:
        raise AssertionError("not opened by construction")

    settings = _settings(tmp_path, nli_model="/models/small")
    dispatcher = default_dispatcher(settings, no_store)  # type: ignore[arg-type]
    assert isinstance(dispatcher, UseCaseDispatcher)
    assert dispatcher._config.nli_model == "/models/small"
