"""The offline model's weights are unpacked once into the cache folder and loaded from
there: the same vectors as the packaged model, and a cache that cannot hold the folded
copy still loads the packaged one."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from amem_tui.engine.embed import FastEmbedder, folded_model, prepare_offline_model

pytestmark = pytest.mark.slow

TEXTS = ["Production deploy is frozen until December 20", "Alice prefers short answers"]


def packaged_vectors(folder: Path) -> np.ndarray:
    """The texts embedded by the packaged model through fastembed's own loading."""
    from amem_tui.engine.sleeping_sessions import load_text_model

    model = load_text_model(
        "sentence-transformers/all-MiniLM-L6-v2", specific_model_path=str(folder)
    )
    rows = np.asarray(list(model.embed(TEXTS)), dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_the_folded_model_is_made_once_and_embeds_as_the_packaged_one(tmp_path: Path) -> None:
    embedder = FastEmbedder(cache_dir=tmp_path)
    embedder.load()
    packaged = prepare_offline_model(tmp_path)
    folded = folded_model(packaged)
    assert folded != packaged
    assert (folded / "model.onnx").stat().st_size > 3 * (packaged / "model.onnx").stat().st_size
    assert {p.name for p in folded.iterdir()} == {p.name for p in packaged.iterdir()}
    made = (folded / "model.onnx").stat().st_mtime_ns
    again = FastEmbedder(cache_dir=tmp_path)
    again.load()
    assert (folded / "model.onnx").stat().st_mtime_ns == made  # reused, not made again
    assert np.allclose(again.embed_documents(TEXTS), packaged_vectors(packaged), atol=1e-5)
    assert ort.__version__ in folded.name  # another onnxruntime folds its own copy


def test_a_cache_that_cannot_hold_the_folded_copy_loads_the_packaged_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packaged = prepare_offline_model(tmp_path)

    def full_disk(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(shutil, "copyfile", full_disk)
    assert folded_model(packaged) == packaged
    assert not [p for p in packaged.parent.iterdir() if "folded" in p.name]
    embedder = FastEmbedder(cache_dir=tmp_path)
    embedder.load()
    assert embedder.embed_query(TEXTS[0]).shape == (384,)
