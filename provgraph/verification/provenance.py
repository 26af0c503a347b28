"""What produced a report: the models and the combiner, named with content hashes.

A verdict is only reproducible if one can tell which weights and which fusion
coefficients produced it. Versions alone are not enough (a retrained model in
the same folder keeps its name), so each entry carries the sha256 of the
files themselves: for a model folder, a sha256 over every file's relative
path and sha256; for the learned combiner, the sha256 of ``combiner.json``;
for the weighted mean, the sha256 of its parameters. Hashing a
model folder reads its weights once per process (≈0.1-0.3 s for the shipped
models); results are cached by (path, sizes, modification times), so a
changed file is hashed again.
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from provgraph.verification.report import ModelRef

if TYPE_CHECKING:
    from provgraph.verification.stages import Stages
    from provgraph.verification.verdicts import FusionWeights

_LOCK = threading.Lock()
_CACHE: dict[tuple[str, tuple[tuple[str, int, int], ...]], str] = {}


def _file_sha256(path: Path) -> str:
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def content_sha256(path: str | Path) -> str | None:
    """sha256 of a file, or of a folder's files (relative path + file sha256, sorted).

    None when ``path`` is not a local file or folder (e.g. a model id).
    """
    target = Path(path)
    if target.is_file():
        files = [target]
    elif target.is_dir():
        files = sorted(p for p in target.rglob("*") if p.is_file())
    else:
        return None
    stamp = tuple(
        (
            str(p.relative_to(target)) if p != target else p.name,
            p.stat().st_size,
            p.stat().st_mtime_ns,
        )
        for p in files
    )
    key = (str(target.resolve()), stamp)
    with _LOCK:
        if key in _CACHE:
            return _CACHE[key]
    if target.is_file():
        value = _file_sha256(target)
    else:
        digest = hashlib.sha256()
        for p in files:
            digest.update(f"{p.relative_to(target)}\0{_file_sha256(p)}\n".encode())
        value = digest.hexdigest()
    with _LOCK:
        _CACHE[key] = value
    return value


def model_ref(stage: str, name: str, version: str | None, path: str | Path | None) -> ModelRef:
    """A :class:`ModelRef` for a loaded model (``path``: its local folder, if any)."""
    return ModelRef(
        stage=stage,
        name=name,
        version=version,
        sha256=content_sha256(path) if path else None,
    )


def _nli_ref(stage: str, model: object, name: str | None, version: str | None) -> ModelRef:
    """A loaded NLI model (the runtime's ``NLIModel`` or a wrapper with ``inner``) as a ref.

    ``name``/``version`` default to the model's own ``name`` or folder, and its precision.
    """
    inner = getattr(model, "inner", None)
    source = getattr(model, "source", None) or getattr(inner, "source", None)
    precision = getattr(model, "precision", None)
    return model_ref(
        stage,
        name or str(getattr(model, "name", None) or source or stage),
        version or (f"precision {precision}" if precision else None),
        source,
    )


def weights_ref(weights: FusionWeights) -> ModelRef:
    """The weighted-mean fusion as a :class:`ModelRef`: sha256 of its parameters.

    The parameters (weights, ramps, contradiction floors) are hashed as sorted,
    compact JSON, so two reports name the same fusion exactly when the same
    numbers fused their signals, as ``combiner.json``'s hash does for the learned one.
    """
    canonical = json.dumps(weights.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return ModelRef(
        stage="fusion",
        name="weighted-mean",
        version=None,
        sha256=hashlib.sha256(canonical.encode()).hexdigest(),
    )


def combiner_ref(path: str | Path) -> ModelRef | None:
    """The learned combiner file as a :class:`ModelRef`, or None when it is absent."""
    target = Path(path)
    if not target.is_file():
        return None
    return ModelRef(
        stage="fusion",
        name=f"provgraph/verification/{target.name}",
        version=None,
        sha256=content_sha256(target),
    )


def report_models(stages: Stages) -> list[ModelRef]:
    """The models of the stages that ran, and the fusion: the combiner file or the weights."""
    from provgraph.verification.combiner import SHIPPED_COMBINER

    refs: list[ModelRef] = []
    if stages.encoder is not None and stages.ran("embeddings"):
        enc = stages.encoder
        refs.append(model_ref("embeddings", enc.name, enc.version, getattr(enc, "path", None)))
    if stages.nli is not None and stages.ran("nli"):
        status = stages.statuses["nli"]
        refs.append(_nli_ref("nli", stages.nli.model, status.model or "nli", status.version))
        if stages.nli_refine is not None:
            refs.append(_nli_ref("nli-refine", stages.nli_refine.model, None, None))
    fusion = stages.config.fusion
    ref = combiner_ref(SHIPPED_COMBINER) if fusion.method == "learned" else None
    refs.append(ref if ref is not None else weights_ref(fusion))
    return refs
