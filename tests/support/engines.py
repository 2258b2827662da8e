"""The one way tests build a ``MemoryEngine``, and the stores it runs on.

``make_engine(store)`` gives the demo-like agents (main and dev in Mode A, sandbox in
Mode B), the deterministic test embedder, a fixed clock and fixed note ids; every
argument can be replaced. ``open_backend`` opens each embedded backend by name.
"""

from __future__ import annotations

import functools
import itertools
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from amem_tui.config import AgentConfig, Settings
from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.qdrant_standin import QdrantStandIn

if TYPE_CHECKING:
    from amem_tui.engine.embed import Embedder
    from amem_tui.engine.store.base import NoteStore

FIXED_NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)

#: The backends every ``store``/``engine`` test runs on: qdrant-client in memory and in
#: a folder, Qdrant Edge, and ``server``: qdrant-client's remote mode (``--url``) over
#: REST, against the stand-in of ``tests.support.qdrant_standin``.
BACKENDS = ("memory", "path", "edge", "server")

Clock = Callable[[], datetime]
IdFactory = Callable[[], str]


def fixed_clock(start: datetime = FIXED_NOW) -> Clock:
    """A clock that advances one second per call, from a fixed start."""
    counter = itertools.count()
    return lambda: start + timedelta(seconds=next(counter))


class MovableClock:
    """A clock that stands still until a test moves it (``set``, ``advance``): for what
    happens at a time of day, such as the nightly pass, without waiting for it."""

    def __init__(self, start: datetime = FIXED_NOW) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def set(self, moment: datetime) -> None:
        """Show ``moment`` from now on."""
        self.now = moment

    def advance(self, **delta: float) -> None:
        """Move on by ``timedelta(**delta)``."""
        self.now += timedelta(**delta)


def fixed_ids(prefix: int = 0) -> IdFactory:
    """Deterministic UUIDs; a different ``prefix`` gives a series that never meets this one."""
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


def make_engine(
    store: NoteStore,
    *,
    settings: Settings | None = None,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
    new_id: IdFactory | None = None,
) -> MemoryEngine:
    """An engine on ``store`` for a test.

    Defaults: ``demo_like_settings``, the test embedder (``HashEmbedder``),
    ``fixed_clock`` and ``fixed_ids``.
    """
    return MemoryEngine(
        settings if settings is not None else demo_like_settings(),
        store=store,
        embedder=embedder if embedder is not None else HashEmbedder(),
        clock=clock if clock is not None else fixed_clock(),
        new_id=new_id if new_id is not None else fixed_ids(),
    )


def stored_vectors(engine: MemoryEngine, collection: str) -> dict[str, np.ndarray]:
    """Every stored vector of a collection by note id, read as an export reads them."""
    return {
        record["id"]: np.asarray(record["vector"], dtype=np.float32)
        for record in engine.export_lines(collection, vectors=True)
        if "vector" in record
    }


def backend_of(request: pytest.FixtureRequest) -> str | None:
    """The backend a ``store``/``engine`` test runs on (one of ``BACKENDS``)."""
    callspec = getattr(request.node, "callspec", None)
    return callspec.params.get("store") if callspec is not None else None


def open_backend(kind: str, folder: Path) -> QdrantStore:
    """A fresh store of one of ``BACKENDS``; ``folder`` holds a folder store.

    ``server`` starts a REST stand-in of its own on a free loopback port; closing the
    store stops it.

    Typed as ``QdrantStore`` because the tests that drive qdrant-client itself
    (``.client``) run on the qdrant-client backends only (marker ``qdrant_client_only``).
    """
    from amem_tui.engine.store.edge import EdgeStore

    if kind == "edge":
        return EdgeStore(folder / "edge-store")  # type: ignore[return-value]
    if kind == "memory":
        return QdrantStore(path=":memory:")
    if kind == "path":
        return QdrantStore(path=str(folder / "store"))
    if kind == "server":
        return StandInServerStore(QdrantStandIn().start())
    raise ValueError(f"unknown backend {kind!r}; expected one of {BACKENDS}")


class StandInServerStore(QdrantStore):
    """The ``--url`` backend (qdrant-client over REST) on a stand-in it owns and stops."""

    def __init__(self, standin: QdrantStandIn) -> None:
        self.standin = standin
        super().__init__(url=standin.url)

    def close(self) -> None:
        """Close the client, then stop the stand-in and drop its store."""
        super().close()
        self.standin.close()


def second_client(store: QdrantStore) -> QdrantStore:
    """Another client of the same store, as a second process would open it.

    On the ``server`` backend a new connection to the same stand-in; an embedded
    store admits one process only, so there it is the same store object.
    """
    if isinstance(store, StandInServerStore):
        return QdrantStore(url=store.standin.url)
    return store


def wrap_view_calls(
    engine: MemoryEngine, method: str, wrapper: Callable[..., Any]
) -> Callable[[], None]:
    """Route ``method`` of every view ``engine.agent()`` makes from now on through
    ``wrapper(view, original, *args, **kwargs)`` (to watch or hold what an app asks of
    an agent's view); returns what puts the engine back as it was."""
    make = engine.agent

    def agent(*args: Any, **kwargs: Any) -> Any:
        view = make(*args, **kwargs)
        setattr(view, method, functools.partial(wrapper, view, getattr(view, method)))
        return view

    engine.agent = agent  # type: ignore[method-assign]

    def undo() -> None:
        engine.agent = make  # type: ignore[method-assign]

    return undo


def store_with_saved_index(folder: Path) -> None:
    """An Edge store in ``folder`` with notes of every kind of reach (main's, dev's,
    shared, readers-only, soft-deleted, sandbox's in Mode B), searched once and closed,
    so the note index is saved beside them."""
    from amem_tui.engine.store.edge import EdgeStore

    engine = make_engine(EdgeStore(folder), settings=demo_like_settings(), new_id=fixed_ids(1))
    try:
        main, dev, sandbox = (engine.agent(a) for a in ("main", "dev", "sandbox"))
        main.add("deploy freeze starts Friday at noon for the billing review")
        main.add("staging cache token rotated, keep it out of the logs", shared=True)
        dev.add("deploy freeze exception for the auth hotfix")
        dev.add("billing review notes, readers main only", readers=["main"])
        dev.add("staging cache warmed before the deploy", shared=True)
        sandbox.add("deploy freeze in the sandbox: nobody else sees this")
        gone = main.add("billing review draft, deleted")
        main.delete(gone.id)
        # The first search builds the saved index; closing saves it.
        for agent in (main, dev, sandbox):
            agent.search("deploy", mode="keyword")
    finally:
        engine.close()
