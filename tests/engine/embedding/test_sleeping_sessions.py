"""The real model's ONNX sessions let idle threads sleep, and still embed as before."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from amem_tui.engine.embed import DEFAULT_MODEL, FastEmbedder, prepare_offline_model
from amem_tui.engine.sleeping_sessions import load_text_model
from tests.support.paths import MODEL_CACHE, REPO_ROOT

pytestmark = pytest.mark.slow

SPIN_ENTRIES = ("session.intra_op.allow_spinning", "session.inter_op.allow_spinning")


def test_the_offline_model_loads_with_spinning_off_and_embeds_like_fastembed_embedder(
    fastembed_embedder: FastEmbedder,
) -> None:
    folder = prepare_offline_model(MODEL_CACHE)
    model = load_text_model(DEFAULT_MODEL, specific_model_path=str(folder))
    options = model.model.get_session_options()  # type: ignore[attr-defined]
    assert [options.get_session_config_entry(entry) for entry in SPIN_ENTRIES] == ["0", "0"]

    text = "Production deploy is frozen until December 20"
    vector = np.asarray(next(iter(model.embed([text]))), dtype=np.float32)
    vector /= np.linalg.norm(vector)
    assert np.allclose(vector, fastembed_embedder.embed_query(text), atol=1e-5)


def test_a_model_fastembed_does_not_know_is_refused() -> None:
    with pytest.raises(ValueError, match="does not know"):
        load_text_model("nobody/no-such-model")


#: A fresh process: another test's threads (a watcher, a warm-up) would count too.
IDLE_PROBE = """
import sys, time
from pathlib import Path
from amem_tui.engine.embed import FastEmbedder
embedder = FastEmbedder(cache_dir=Path(sys.argv[1]))
embedder.load()
spent = []
for attempt in range(3):
    embedder.embed_documents([f"what changed in the deploy freeze {attempt}"])
    before = time.process_time()
    time.sleep(0.3)
    spent.append(time.process_time() - before)
print(max(spent))
"""


def test_fast_embedder_leaves_no_thread_busy_after_a_query(
    fastembed_embedder: FastEmbedder,  # the model folder assembled once for the session
) -> None:
    # A spinning onnxruntime pool burns about 40 ms of CPU after each run.
    done = subprocess.run(
        [sys.executable, "-c", IDLE_PROBE, str(MODEL_CACHE)],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO_ROOT,
    )
    assert float(done.stdout) < 0.015
