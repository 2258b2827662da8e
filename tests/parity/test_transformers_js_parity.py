"""An openclaw-amem query is embedded here as the real Transformers.js embeds it.

amem-core embeds with ``@huggingface/transformers`` (the version pinned in
tests/parity/js/package-lock.json, run on onnxruntime-node): a ``feature-extraction``
pipeline with amem's pooling and ``normalize: true``, the dtype passed when
``AMEM_EMBED_DTYPE`` is set. The library reads a local model folder only
(``env.localModelPath``, no remote models), laid out from the packaged
all-MiniLM-L6-v2 under a mean-pooled name and a CLS-pooled name, and under each dtype's
file name. amem-tui, pointed at the same folder (``AMEM_MODEL_DIR``), must produce the
same query vectors: cosine within 1e-5 for every text, pooling and dtype.

Skipped without node and the installed packages, except in CI (``CI`` or
``AMEM_REQUIRE_PARITY``), where that is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from qdrant_client import models as qm

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.amem_models import BGE_SMALL, DIM, MINILM, lay_out
from tests.support.engines import make_engine
from tests.support.real_stores import real_settings

pytestmark = pytest.mark.slow  # node loads the library and runs the model per dtype

JS = Path(__file__).parent / "js"
DRIVER = JS / "transformers_embed_driver.mjs"
COLLECTION = "amem_parity"

TEXTS = [
    "is the production deploy frozen?",
    "Alice prefers dark roast coffee, and Bob — tea 🍵 (jasmine).",
    "x",
    # Longer than the model's 512 tokens: both cut the ids at model_max_length.
    " ".join(f"word{i} deploy freeze runbook" for i in range(300)),
]

#: Transformers.js' dtypes and the file name each reads (onnx/model<suffix>.onnx).
DTYPE_FILES = {
    None: "model.onnx",
    "fp32": "model.onnx",
    "q8": "model_quantized.onnx",
    "fp16": "model_fp16.onnx",
    "int8": "model_int8.onnx",
    "uint8": "model_uint8.onnx",
    "q4": "model_q4.onnx",
    "bnb4": "model_bnb4.onnx",
    "q4f16": "model_q4f16.onnx",
}
#: (model, amem's pooling for it, dtype) as embedded by both sides.
CASES = [(BGE_SMALL, "cls", None), (MINILM, "mean", None)] + [
    (BGE_SMALL, "cls", dtype) for dtype in DTYPE_FILES if dtype is not None
]


def _node_or_skip() -> str:
    node = shutil.which("node")
    installed = (JS / "node_modules" / "@huggingface" / "transformers").is_dir()
    if node and installed:
        return node
    why = "node is not installed" if not node else "run `npm ci` in tests/parity/js first"
    if os.environ.get("CI") or os.environ.get("AMEM_REQUIRE_PARITY"):
        pytest.fail(f"the Transformers.js parity tests cannot run in CI: {why}")
    pytest.skip(f"Transformers.js parity tests: {why}")


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The packaged model under both names, its weights under every dtype's file name."""
    root = tmp_path_factory.mktemp("models")
    lay_out(root, BGE_SMALL, weights=sorted(set(DTYPE_FILES.values())))
    lay_out(root, MINILM)
    return root


@pytest.fixture(scope="module")
def theirs(model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """What Transformers.js answers for every case, in the order of ``CASES``."""
    node = _node_or_skip()
    work = tmp_path_factory.mktemp("driver")
    script, answer = work / "script.json", work / "answer.json"
    runs = [
        {"model": model, "pooling": pooling, "dtype": dtype, "texts": TEXTS}
        for model, pooling, dtype in CASES
    ]
    script.write_text(json.dumps({"model_dir": str(model_dir), "runs": runs}))
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(work)}
    done = subprocess.run(
        [node, str(DRIVER), str(script), str(answer)],
        cwd=JS,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-2000:]
    answered: list[dict[str, Any]] = json.loads(answer.read_text())["runs"]
    return answered


def _engine(model: str, dtype: str | None, model_dir: Path) -> MemoryEngine:
    """A collection openclaw-amem made with ``model``, amem-tui pointed at its files."""
    store = QdrantStore(path=":memory:")
    store.client.create_collection(
        COLLECTION,
        vectors_config=qm.VectorParams(size=DIM, distance=qm.Distance.COSINE),
        metadata={"embedding_model": model},
    )
    settings = real_settings(
        collection=COLLECTION, amem_model_dir=model_dir, amem_embed_dtype=dtype
    )
    return make_engine(store, settings=settings)


@pytest.mark.parametrize(
    ("case", "model", "pooling", "dtype"),
    [(i, *case) for i, case in enumerate(CASES)],
    ids=[f"{model.split('/')[-1]}-{dtype or 'default'}" for model, _, dtype in CASES],
)
def test_query_vectors_equal_the_library_s(
    theirs: list[dict[str, Any]],
    model_dir: Path,
    case: int,
    model: str,
    pooling: str,
    dtype: str | None,
) -> None:
    run = theirs[case]
    assert (run["model"], run["dtype"]) == (model, dtype)
    engine = _engine(model, dtype, model_dir)
    embedding = engine.query_embedding()
    assert embedding.verdict == "exact" and embedding.pooling == pooling
    assert embedding.weights == f"onnx/{DTYPE_FILES[dtype]}"
    view = engine.agent("dev")
    for text, vector in zip(TEXTS, run["vectors"], strict=True):
        library = np.asarray(vector, dtype=np.float64)
        ours = view.embed_query(text)
        assert ours is not None and ours.shape == library.shape
        ours = np.asarray(ours, dtype=np.float64)
        cosine = float(ours @ library / (np.linalg.norm(ours) * np.linalg.norm(library)))
        assert cosine == pytest.approx(1.0, abs=1e-5), (text[:40], cosine)
    engine.close()


def test_the_two_poolings_differ(theirs: list[dict[str, Any]]) -> None:
    """The CLS and the mean-pooled runs are different vectors, so the cases above tell
    amem's two poolings apart."""
    cls, mean = (np.asarray(theirs[i]["vectors"][0]) for i in (0, 1))
    assert float(cls @ mean) < 0.99
