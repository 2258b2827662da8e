"""Shared fixtures: private user folders for every test, a store and an engine on each
embedded backend, stores written the way openclaw-amem and mem0 write theirs, and the
real embedding model.

Helpers live in ``tests.support``; a test imports them from there, never from here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from amem_tui.engine.embed import FastEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.cli import demo_store
from tests.support.engines import BACKENDS, make_engine, open_backend
from tests.support.paths import MODEL_CACHE
from tests.support.real_stores import build_real_store

#: Why a ``qdrant_client_only`` test does not run on Qdrant Edge.
QDRANT_CLIENT_ONLY = "builds its collections through qdrant-client directly"


@pytest.fixture(autouse=True)
def _isolated_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Never touch the real user folders; never read the user's openclaw.json."""
    base = tmp_path_factory.mktemp("userdirs")
    monkeypatch.setenv("AMEM_DATA_DIR", str(base / "data"))
    monkeypatch.setenv("AMEM_CONFIG_DIR", str(base / "config"))
    monkeypatch.setenv("HOME", str(base / "home"))
    for var in (
        "AMEM_COLLECTION",
        "AMEM_AGENT",
        "AMEM_SESSION_KEY",
        "AMEM_URL",
        "QDRANT_URL",
        "QDRANT_API_KEY",
        "AMEM_CONFIG",
        "AMEM_STORE",
        "AMEM_MODEL",
        "AMEM_READ_ONLY",
        "AMEM_BACKEND",
        "AMEM_USER",
        "AMEM_COLLECTION_MODELS",
        "AMEM_OPENCLAW_DIR",
        # How other systems embed: their settings, their folders, their keys.
        "AMEM_EMBED_MODEL",
        "AMEM_EMBED_POOLING",
        "AMEM_EMBED_DTYPE",
        "AMEM_EMBED_DEVICE",
        "AMEM_MODEL_DIR",
        "AMEM_MODEL_CACHE",
        "AMEM_MODEL_FOLDERS",
        "AMEM_REMOTE_EMBEDDINGS",
        "OPENCLAW_STATE_DIR",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "OPENAI_API_VERSION",
        "GOOGLE_API_KEY",
        "GEMINI_API_KEY",
        "GOOGLE_GEMINI_BASE_URL",
    ):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("AMEM_CACHE_DIR", str(MODEL_CACHE))


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[QdrantStore]:
    """Every backend: qdrant-client in memory and in a folder, Qdrant Edge, and the
    ``--url`` path over REST against the stand-in (``server``).

    A test marked ``qdrant_client_only`` builds collections through qdrant-client itself
    (``store.client``), as other tools do; it is skipped on Edge.
    """
    if request.param == "edge" and request.node.get_closest_marker("qdrant_client_only"):
        pytest.skip(QDRANT_CLIENT_ONLY)
    opened = open_backend(request.param, tmp_path)
    yield opened
    opened.close()


@pytest.fixture
def engine(store: QdrantStore) -> MemoryEngine:
    """An engine from ``tests.support.engines.make_engine`` on every backend."""
    return make_engine(store)


@pytest.fixture(params=["memory", "path"])
def real_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[QdrantStore]:
    """A store written as openclaw-amem and mem0 write theirs (local mode stands in for
    the server: same client API, aliases included)."""
    store = QdrantStore(path=":memory:" if request.param == "memory" else str(tmp_path / "s"))
    build_real_store(store.client)
    yield store
    store.close()


@pytest.fixture(scope="session")
def fastembed_embedder() -> FastEmbedder:
    """The real offline fastembed model, loaded once for the whole test session."""
    embedder = FastEmbedder(cache_dir=MODEL_CACHE)
    embedder.load()
    return embedder


@pytest.fixture
def demo(tmp_path: Path) -> list[str]:
    """The demo store (test embedder) and the options that reach it with its agents."""
    return demo_store(tmp_path / "store")
