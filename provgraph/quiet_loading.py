"""Keep model loading quiet: no progress bars or advisories between a user's results.

Hugging Face libraries print a "Loading weights" bar (transformers), download
bars (huggingface_hub) and advisory warnings each time a model is loaded, so a
first ``provgraph demo`` interleaves pages of them with its output. provgraph
never downloads at run time, so those bars carry nothing a user can act on;
real failures still raise :class:`~provgraph.errors.ModelUnavailableError`.
Environment variables a user set explicitly win (``setdefault``).
"""

from __future__ import annotations

import os


def quiet_model_loading() -> None:
    """Turn off Hugging Face progress bars and info/warning chatter (idempotent)."""
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
    try:
        from huggingface_hub.utils.tqdm import disable_progress_bars
    except ImportError:  # pragma: no cover - depends on the install
        pass
    else:
        disable_progress_bars()
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:  # pragma: no cover - depends on the install
        return
    hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]
    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
