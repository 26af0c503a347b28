"""Loading the models prints nothing: no "Loading weights" bars between a user's results."""

from __future__ import annotations

import pytest

from provgraph.errors import ModelUnavailableError


def test_loading_the_nli_model_writes_no_progress_bars(capfd: pytest.CaptureFixture[str]) -> None:
    from provgraph.nli.runtime import load_nli_model

    try:
        load_nli_model()
    except ModelUnavailableError as exc:  # pragma: no cover - depends on the install
        pytest.skip(f"no NLI model here: {exc}")
    captured = capfd.readouterr()
    assert "Loading weights" not in captured.err + captured.out
    assert "it/s]" not in captured.err + captured.out


def test_quiet_loading_turns_the_bars_off_and_keeps_a_users_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from transformers.utils import logging as hf_logging

    from provgraph.quiet_loading import quiet_model_loading

    monkeypatch.setenv("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    monkeypatch.delenv("TRANSFORMERS_NO_ADVISORY_WARNINGS", raising=False)
    hf_logging.enable_progress_bar()  # type: ignore[no-untyped-call]
    quiet_model_loading()
    assert not hf_logging.is_progress_bar_enabled()  # type: ignore[no-untyped-call]
    assert hf_logging.get_verbosity() == hf_logging.ERROR  # type: ignore[no-untyped-call]
    import os

    assert os.environ["TRANSFORMERS_NO_ADVISORY_WARNINGS"] == "1"
