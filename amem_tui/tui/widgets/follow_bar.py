"""Follow mode: keep the current agent's panes current while other processes write.

Qdrant has no change feed, so the bar polls: one poll at a time (the next is only
scheduled once the last has finished), sooner after a change, less and less often
while nothing changes. Each poll is a cheap probe (:meth:`MemoryEngine.probe`); only
what changed is read again and merged into the panes, with the cursor left on its
note. New and changed rows are highlighted for a while, and each change is logged in
words (the activity log, ``l``). While the store does not answer, the store banner
shows and polling carries on; once it answers, the panes are reloaded as a whole.

On an embedded store only this process can write, so there the bar follows what
the app's own background work changes (a scheduled consolidation, say).
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from rich.text import Text
from textual import work
from textual.timer import Timer
from textual.widgets import Static
from textual.worker import WorkerState

from amem_tui.engine import AmemError, StoreUnavailable
from amem_tui.tui.messages import ActivityEntry, FollowFailed, FollowUpdate, PaneName
from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.note_pane import PAGE_SIZE

if TYPE_CHECKING:
    from amem_tui.engine import (
        Activity,
        AgentScope,
        ConsolidationRun,
        MemoryEngine,
        MemoryNote,
        Probe,
    )
    from amem_tui.tui.widgets.detail import NoteDetail
    from amem_tui.tui.widgets.header import HeaderBar
    from amem_tui.tui.widgets.history_pane import HistoryPane
    from amem_tui.tui.widgets.note_pane import NotePane
    from amem_tui.tui.widgets.store_banner import StoreBanner


class FollowedScreen(Protocol):
    """What the bar reads and updates on the screen it belongs to (the main screen)."""

    scope: AgentScope | None
    generation: int
    show_deleted: bool
    counts: dict[str, int] | None

    @property
    def selected_id(self) -> str | None: ...
    @property
    def private_pane(self) -> NotePane: ...
    @property
    def shared_pane(self) -> NotePane: ...
    @property
    def history_pane(self) -> HistoryPane: ...
    @property
    def header_bar(self) -> HeaderBar: ...
    @property
    def store_banner(self) -> StoreBanner: ...
    @property
    def detail_view(self) -> NoteDetail: ...

    def load_scope(self, agent: AgentScope | str | None, select: str | None = None) -> None: ...


#: Seconds to the next poll after a change; each quiet poll waits longer, up to the most.
FIRST_INTERVAL = 1.0
BACKOFF = 1.5
MAX_INTERVAL = 15.0
#: Seconds to the first retry once the store stopped answering.
OUTAGE_INTERVAL = 2.0
#: How long a new or changed row stays highlighted.
HIGHLIGHT_SECONDS = 30.0
#: Activity log entries kept.
ACTIVITY_KEPT = 500


@dataclass
class PollRequest:
    """What a poll needs, taken on the UI thread: the panes as shown, and the last probe."""

    scope: AgentScope
    load: int
    since: Probe | None
    shown: dict[PaneName, dict[str, MemoryNote]]
    watch: list[str]
    include_inactive: bool
    runs: list[ConsolidationRun]
    resync: bool


class FollowBar(Static):
    """One line while following (what was last seen, when the next look is), and the
    polling behind it. Hidden, and idle, while not following."""

    DEFAULT_CSS = """
    FollowBar { display: none; height: 1; padding: 0 1; background: $boost; color: $text; }
    """

    def __init__(self, engine: MemoryEngine, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.engine = engine
        #: True while follow mode is on.
        self.following = False
        #: Polls started, and the most that ever ran at once (tests read these).
        self.polls = 0
        self.most_in_flight = 0
        self.in_flight = 0
        #: Seconds to the next poll.
        self.interval = FIRST_INTERVAL
        #: What happened, oldest first.
        self.activity: deque[ActivityEntry] = deque(maxlen=ACTIVITY_KEPT)
        #: Why the store did not answer the last poll (None: it did).
        self.failing: str | None = None
        self._probe: Probe | None = None
        self._resync = False
        self._timer: Timer | None = None
        self._checked = ""

    @property
    def main(self) -> FollowedScreen:
        """The main screen this bar belongs to."""
        screen: Any = self.screen
        return screen  # type: ignore[no-any-return]

    def on_mount(self) -> None:
        """Start following at once when the app was asked to (``--follow``)."""
        if getattr(self.app, "follow_on_start", False):
            self.start()

    # ------------------------------------------------------------- on and off
    def start(self) -> None:
        """Follow the current agent from now on."""
        if self.following:
            return
        self.following = True
        self.display = True
        self.interval = FIRST_INTERVAL
        self._probe = None
        self._show("following: first look…")
        self._schedule(0)

    def stop(self) -> None:
        """Stop following (a poll under way finishes, and its result is dropped)."""
        self.following = False
        self.display = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def toggle(self) -> bool:
        """Turn follow mode on or off; returns True when it is now on."""
        if self.following:
            self.stop()
        else:
            self.start()
        return self.following

    # ----------------------------------------------------------------- polls
    def _schedule(self, delay: float) -> None:
        if self._timer is not None:
            self._timer.stop()
        # A timer of zero seconds never fires (Textual divides by its interval).
        self._timer = self.set_timer(max(delay, 0.05), self._tick)

    def _loading(self) -> bool:
        """True while the main screen loads an agent's panes (a poll would race it)."""
        screen = self.screen  # the worker's node is the screen object itself
        return any(
            worker.node is screen
            and worker.group == "scope"
            and worker.state in (WorkerState.PENDING, WorkerState.RUNNING)
            for worker in self.app.workers
        )

    def _tick(self) -> None:
        self._timer = None
        if not self.following or self.in_flight:
            return  # never a second poll while one is under way
        main = self.main
        scope = main.scope
        if scope is None or self._loading():
            self._schedule(0.25)
            return
        request = self._request(main, scope)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        self.polls += 1
        self.poll(request)

    def _request(self, main: FollowedScreen, scope: AgentScope) -> PollRequest:
        shown: dict[PaneName, dict[str, MemoryNote]] = {"private": main.private_pane.shown_notes()}
        if scope.has_shared_scope:
            shown["shared"] = main.shared_pane.shown_notes()
        # The selected note, and the rows on screen (and a screen around them): a row
        # scrolled into view is looked at by the next poll.
        watch: list[str] = [main.selected_id] if main.selected_id else []
        panes = [main.private_pane, main.shared_pane][: len(shown)]
        for pane in panes:
            watch.extend(i for i in pane.ids_in_view() if i in shown[pane.which] and i not in watch)
        since = (
            self._probe if self._probe is not None and self._probe.agent == scope.agent else None
        )
        return PollRequest(
            scope=scope,
            load=main.generation,
            since=since,
            shown=shown,
            watch=watch,
            include_inactive=main.show_deleted,
            runs=list(main.history_pane.runs.values()),
            resync=self._resync,
        )

    @work(thread=True, exit_on_error=False, group="follow")
    def poll(self, request: PollRequest) -> None:
        """Probe the store and work out what the panes must change (never raises)."""
        try:
            started = time.perf_counter()
            update = self._look(request)
            update.seconds = time.perf_counter() - started
            self.post_message(update)
        except AmemError as exc:
            self.post_message(FollowFailed(str(exc), isinstance(exc, StoreUnavailable)))
        except Exception as exc:  # a bug must not stop the polling silently
            self.post_message(FollowFailed(f"{type(exc).__name__}: {exc}", False))

    def _look(self, request: PollRequest) -> FollowUpdate:
        from amem_tui.engine import changes, new_runs, relisted, run_activity

        engine, scope = self.engine, request.scope
        since = None if request.resync else request.since
        probe = engine.agent(scope).probe(request.watch, since)
        found = changes(scope, request.shown, probe, since, request.include_inactive)
        activities = list(found.activities)
        for which in sorted(found.relist):
            update = found.panes[which]
            shown = {**request.shown.get(which, {}), **{n.id: n for n in update.changed}}
            page = engine.agent(scope).list_notes(
                which,
                limit=max(PAGE_SIZE, len(shown)),
                include_inactive=request.include_inactive,
            )
            more, words = relisted(scope, shown, page.notes, probe)
            update.changed += more.changed
            update.marks.update(more.marks)
            activities += words
        runs = None
        if since is not None and probe.runs != since.runs:
            runs = engine.agent(scope).history()
            activities += [run_activity(run) for run in new_runs(request.runs, runs)]
        totals: dict[PaneName, int] = dict(probe.counts)
        if request.include_inactive and probe.counts_moved(since):
            # Soft-deleted notes are listed too: count them as the listing does.
            for which in totals:
                totals[which] = (
                    engine.agent(scope).list_notes(which, 1, include_inactive=True).total
                )
        elif request.include_inactive:
            totals = {}  # unchanged: each pane keeps its total
        counts = {
            "private": probe.counts.get("private", 0),
            "shared": probe.counts.get("shared", 0),
            "visible": probe.visible,
        }
        return FollowUpdate(
            load=request.load,
            agent=scope.agent,
            probe=probe,
            panes=found.panes,
            totals=totals,
            counts=counts,
            activities=activities,
            runs=runs,
            resync=request.resync,
        )

    # --------------------------------------------------------------- results
    def on_follow_update(self, message: FollowUpdate) -> None:
        """Merge what changed into the panes, log it, and schedule the next poll."""
        message.stop()
        self.in_flight -= 1
        if not self.following:
            return
        main = self.main
        self._checked = self._clock()
        if self.failing is not None or message.resync:
            self.failing = None
            self._resync = False
            main.store_banner.show_problem(None)
        current = main.scope
        if current is None or current.agent != message.agent or main.generation != message.load:
            # The panes were reloaded or switched meanwhile: look again from what they show.
            self._probe = None if current is None or current.agent != message.agent else self._probe
            self._show("following")
            self._schedule(FIRST_INTERVAL)
            return
        before = self._probe
        self._probe = message.probe
        if message.resync:
            main.load_scope(message.agent)
            self._log(message.agent, message.activities)
            self._after(changed=True, took=message.seconds)
            return
        changed = self._apply(main, current, message) or message.probe.counts_moved(before)
        self._after(changed=changed and before is not None, took=message.seconds)

    def _apply(self, main: FollowedScreen, scope: AgentScope, message: FollowUpdate) -> bool:
        touched: set[str] = set()
        for which, update in message.panes.items():
            pane = main.private_pane if which == "private" else main.shared_pane
            total = message.totals.get(which, pane.listing_total)
            if not update and total == pane.listing_total:
                continue
            pane.merge_notes(update.changed, update.removed, total, update.marks)
            touched |= {n.id for n in update.changed} | set(update.removed)
            if update.marks:
                marked = list(update.marks)
                self.set_timer(HIGHLIGHT_SECONDS, lambda p=pane, ids=marked: p.unmark(ids))
        main.counts = message.counts
        main.header_bar.show(scope, message.counts)
        if message.runs is not None:
            main.history_pane.show_runs(message.runs)
        detail = main.detail_view
        selected = detail.note_id
        if selected is not None and selected in touched and detail.note_data is not None:
            panes = (main.private_pane, main.shared_pane)
            if any(selected in pane.table.rows for pane in panes):
                detail.load_note(scope, selected, None)  # show the selected note as it is now
        self._log(scope.agent, message.activities)
        return bool(touched or message.activities or message.runs is not None)

    def on_follow_failed(self, message: FollowFailed) -> None:
        """The store did not answer: show the banner and keep trying, less and less often."""
        message.stop()
        self.in_flight -= 1
        if not self.following:
            return
        main = self.main
        if message.store_unavailable:
            main.store_banner.show_problem(message.message)
        self._resync = True  # once it answers, reload rather than trust what was shown
        first = self.failing is None
        self.failing = message.message
        self.interval = OUTAGE_INTERVAL if first else min(self.interval * BACKOFF, MAX_INTERVAL)
        self._show(f"following: the store does not answer; next try in {self.interval:.0f} s")
        self._schedule(self.interval)

    def _after(self, changed: bool, took: float = 0.0) -> None:
        self.interval = (
            FIRST_INTERVAL if changed else min(max(self.interval, 1.0) * BACKOFF, MAX_INTERVAL)
        )
        # A big store makes a poll slow: polling never takes more than a third of the time.
        self.interval = max(self.interval, 2 * took)
        last = self.activity[-1].activity.text if self.activity else "no change seen yet"
        self._show(
            f"following · checked {self._checked} · next in {self.interval:.0f} s · last: {last}"
        )
        self._schedule(self.interval)

    def check_now(self) -> None:
        """Look at once (unless a poll is under way)."""
        if self.following and not self.in_flight:
            self._schedule(0)

    # -------------------------------------------------------------- the log
    def _clock(self) -> str:
        return datetime.now().strftime("%H:%M:%S")

    def _log(self, agent: str, activities: list[Activity]) -> None:
        if not activities:
            return
        at = self._clock()
        entries = [ActivityEntry(at, agent, activity) for activity in activities]
        self.activity.extend(entries)
        from amem_tui.tui.screens.activity import ActivityScreen

        for screen in self.app.screen_stack:
            if isinstance(screen, ActivityScreen):
                with contextlib.suppress(Exception):
                    screen.add(entries)

    def _show(self, text: str) -> None:
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append("● ", style="bold green" if self.failing is None else "bold red")
        line.append(one_line(text, 400))
        self.update(line)
