"""The inspector's entry point: ``run`` opens the store behind the first frame."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import subprocess
    from collections.abc import Callable

    from amem_tui.config import Settings
    from amem_tui.engine import MemoryEngine


def run(
    open_settings: Callable[[], Settings],
    follow: bool = False,
    agent_hint: str | None = None,
    store_hint: str = "",
) -> int:
    """Run the inspector on the store the settings name; the exit code is returned.

    The settings are read and the store opened after the first frame, in a worker
    (``agent_hint`` and ``store_hint`` label the empty layout meanwhile). What stops
    them (a configuration error, a store held by another process or unreachable) is
    raised here once the app has closed, for the caller to report. ``follow`` starts
    in follow mode.
    """

    from amem_tui.tui.app import AmemApp  # read at the call: a test may put a subclass there

    readers: list[subprocess.Popen[bytes] | None] = []

    def open_engine() -> MemoryEngine:
        from amem_tui.engine import MemoryEngine, SavedIndexSearch
        from amem_tui.engine.for_apps import start_prefetch

        settings = open_settings()
        # The store's pages and the model read into the page cache by a child process,
        # once the first frame is up (started before it, the reading child slowed the
        # first frame), for the store the settings name.
        embedded = None if settings.url else settings.embedded_path
        readers.append(start_prefetch(embedded if embedded and embedded.is_dir() else None))
        app.answer_early(SavedIndexSearch.open(settings, agent_hint))
        engine = MemoryEngine(settings)
        if not settings.url:
            # An embedded store loads here, behind the opening screen and its early
            # answers, rather than under the main screen's first search. (A server's
            # collection costs a request, and an unreachable one would be waited for
            # twice.)
            with contextlib.suppress(Exception):  # the main screen says what went wrong
                engine.open_collection_of(agent_hint)
        return engine

    app = AmemApp(opener=open_engine, store_label=store_hint, agent_hint=agent_hint, follow=follow)
    try:
        app.run()
    finally:
        if app.engine_open:
            app.engine.close()
        if readers:
            from amem_tui.engine.for_apps import stop_prefetch

            stop_prefetch(readers[0])
    if app.start_error is not None:
        raise app.start_error
    return int(app.return_code or 0)
