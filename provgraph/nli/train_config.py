"""The NLI training config (``train_config.toml``): where it is and how it is read.

Its own module so the evaluator can read the training seed without importing
the trainer (which imports the evaluator).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

DEFAULT_CONFIG = Path(__file__).with_name("train_config.toml")


def load_config(path: str | Path) -> dict[str, Any]:
    """Read the TOML config; paths get ``~`` expanded."""
    with open(path, "rb") as fh:
        cfg = tomllib.load(fh)
    for key, value in cfg["paths"].items():
        if value:
            cfg["paths"][key] = os.path.expanduser(value)
    return cfg
