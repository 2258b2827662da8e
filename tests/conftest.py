"""Shared fixtures: engines on an in-memory or folder store, a fixed clock and ids."""

from __future__ import annotations

import inspect
import itertools
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from amem_tui.config import AgentConfig, Settings
from amem_tui.engine.embed import FastEmbedder, HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.edge import EdgeStore
from amem_tui.engine.store.qdrant import QdrantStore

FIXED_NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


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
    ):
        monkeypatch.delenv(var, raising=False)
    # The assembled model folder is shared between tests (it is only a cache).
    monkeypatch.setenv(
        "AMEM_CACHE_DIR", str(Path(__file__).parent.parent / ".pytest_cache" / "amem")
    )


def fixed_clock(start: datetime = FIXED_NOW) -> Callable[[], datetime]:
    """A clock that advances one second per call, from a fixed start."""
    counter = itertools.count()
    return lambda: start + timedelta(seconds=next(counter))


def fixed_ids(prefix: int = 0) -> Callable[[], str]:
    """Deterministic UUIDs."""
    counter = itertools.count(1)
    return lambda: str(uuid.UUID(int=(prefix << 64) + next(counter)))


def demo_like_settings(**extra: object) -> Settings:
    """main and dev in Mode A, sandbox in Mode B."""
    return Settings(
        agents=[
            AgentConfig(agent="dev"),
            AgentConfig(agent="sandbox", collection="amem_notes_sandbox"),
        ],
        **extra,  # type: ignore[arg-type]
    )


def _drives_qdrant_client(request: pytest.FixtureRequest) -> bool:
    """True for a test that builds collections through qdrant-client itself (``.client``).

    Such tests recreate stores written by other tools; they only make sense on the
    qdrant-client backends. Looks at the test and at the module helpers it calls.
    """
    function = request.function
    sources = [inspect.getsource(function)]
    for name in function.__code__.co_names:
        helper = getattr(request.module, name, None)
        if inspect.isfunction(helper) and helper.__module__ == request.module.__name__:
            sources.append(inspect.getsource(helper))
    return any(".client" in source for source in sources)


@pytest.fixture(params=["memory", "path", "edge"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[QdrantStore]:
    """Every embedded backend: qdrant-client in memory and in a folder, and Qdrant Edge."""
    if request.param == "edge":
        if _drives_qdrant_client(request):
            pytest.skip("builds its collections through qdrant-client directly")
        s: QdrantStore = EdgeStore(tmp_path / "edge-store")  # type: ignore[assignment]
    else:
        s = QdrantStore(path=":memory:" if request.param == "memory" else str(tmp_path / "store"))
    yield s
    s.close()


@pytest.fixture
def engine(store: QdrantStore) -> MemoryEngine:
    """An engine with the test embedder, a fixed clock and fixed ids, on every store."""
    return MemoryEngine(
        demo_like_settings(),
        store=store,
        embedder=HashEmbedder(),
        clock=fixed_clock(),
        new_id=fixed_ids(),
    )


@pytest.fixture(scope="session")
def fastembed_embedder() -> FastEmbedder:
    """The real offline fastembed model, loaded once for the whole test session."""
    embedder = FastEmbedder(cache_dir=Path(__file__).parent.parent / ".pytest_cache" / "amem")
    embedder.load()
    return embedder
