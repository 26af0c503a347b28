"""Installing provgraph prints no setuptools deprecation pages (SPDX licence, licence file)."""

from __future__ import annotations

import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_pyproject_reads_without_setuptools_deprecations() -> None:
    from setuptools.config.pyprojecttoml import read_configuration

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        config = read_configuration(ROOT / "pyproject.toml")
    project = config["project"]
    assert project["license"] == "Apache-2.0"
    assert (ROOT / "LICENSE").is_file()
    messages = [str(w.message) for w in caught if "Deprecat" in type(w.category).__name__]
    assert messages == []
