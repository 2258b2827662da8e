"""Follow mode: keep the current agent's panes current while other processes write.

Qdrant has no change feed, so the bar polls: one poll at a time (the next is only
scheduled once the last has finished), every ``POLL_INTERVAL`` seconds whether
anything changed or not, so a change shows within about a second even after hours of
quiet. Each poll is a cheap probe (``AgentView.probe``: counts and the rows in view
by id); only what changed is read again, and the answer
(``FollowUpdate``) goes up to the screen, which merges it
into the panes with the cursor left on its note. The bar keeps the timing, its status
line and the activity log (``l``): each change in words, the app's own writes too.
While the store does not answer (a ``FollowFailed`` goes up: the screen shows the store
banner) polling carries on; once it answers, the screen reloads the panes as a whole.

The screen tells the bar what to follow (``FollowBar.target``, set with each load
of an agent, None while one loads), and gives it, once, the function that says what
the panes show (``Watched``), read when a poll starts.

On an embedded store only this process can write, so there the bar follows what
the app's own background work changes (a scheduled consolidation, say).
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.timer import Timer
from textual.widgets import Static

from amem_tui.engine import AmemError, StoreUnavailable
from amem_tui.tui.messages import ActivityEntry, FollowFailed, FollowUpdate, PaneName
from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.pane_rows import PAGE_SIZE

if TYPE_CHECKING:
    from collections.abc import Callable

    from amem_tui.engine import AgentScope, ConsolidationRun, MemoryEngine, MemoryNote
    from amem_tui.engine.for_apps import Activity, Probe
    from amem_tui.tui.messages import Watched


@dataclass(frozen=True)
class FollowTarget:
    """What the bar follows: an agent as the screen loaded it."""

    scope: AgentScope
    #: The screen's load count: an answer for panes loaded since is stale.
    load: int
    #: Soft-deleted notes are listed too.
    include_inactive: bool


#: Seconds between polls, whether anything changed or not: a change shows within about
#: this long even after hours of quiet (a quiet probe is cheap; see docs/follow.md).
POLL_INTERVAL = 1.0
#: Seconds to the first retry once the store stopped answering; each failed retry waits
#: longer, up to the most.
OUTAGE_INTERVAL = 2.0
BACKOFF = 1.5
MAX_INTERVAL = 15.0
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

    def __init__(
        self,
        engine: MemoryEngine,
        watched: Callable[[], Watched],
        *,
        follow: bool = False,
        id: str | None = None,
    ) -> None:
        super().__init__("", id=id, markup=False)
        self.engine = engine
        self.watched = watched
        self.follow_on_mount = follow
        #: What to follow (None: nothing yet, or the screen is loading an agent).
        self.target: FollowTarget | None = None
        #: True while follow mode is on.
        self.following = False
        #: Polls started, and the most that ever ran at once (tests read these).
        self.polls = 0
        self.most_in_flight = 0
        self.in_flight = 0
        #: Seconds to the next poll.
        self.interval = POLL_INTERVAL
        #: What happened, oldest first.
        self.activity: deque[ActivityEntry] = deque(maxlen=ACTIVITY_KEPT)
        #: Why the store did not answer the last poll (None: it did).
        self.failing: str | None = None
        self._probe: Probe | None = None
        self._resync = False
        self._timer: Timer | None = None
        self._checked = ""

    def on_mount(self) -> None:
        """Start following at once when the app was asked to (``--follow``)."""
        if self.follow_on_mount:
            self.start()

    # ------------------------------------------------------------- on and off
    def start(self) -> None:
        """Follow the current agent from now on."""
        if self.following:
            return
        self.following = True
        self.display = True
        self.interval = POLL_INTERVAL
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
        """Turn follow mode on or off, and say which; returns True when it is now on."""
        if self.following:
            self.stop()
        else:
            self.start()
        said = "Following: the panes keep up with changes made elsewhere."
        self.app.notify(said if self.following else "Stopped following.", markup=False, timeout=3)
        return self.following

    # ----------------------------------------------------------------- polls
    def _schedule(self, delay: float) -> None:
        if self._timer is not None:
            self._timer.stop()
        # A timer of zero seconds never fires (Textual divides by its interval).
        self._timer = self.set_timer(max(delay, 0.05), self._tick)

    def _tick(self) -> None:
        self._timer = None
        if not self.following or self.in_flight:
            return  # never a second poll while one is under way
        target = self.target
        if target is None:  # the screen is loading an agent: a poll would race it
            self._schedule(0.25)
            return
        watched = self.watched()
        probe = self._probe
        since = probe if probe is not None and probe.agent == target.scope.agent else None
        request = PollRequest(
            scope=target.scope,
            load=target.load,
            since=since,
            shown=watched.shown,
            watch=watched.watch,
            include_inactive=target.include_inactive,
            runs=watched.runs,
            resync=self._resync,
        )
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        self.polls += 1
        self.poll(request)

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
        from amem_tui.engine.for_apps import changes, name_merges, new_runs, relisted, run_activity

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
        if any(activity.kind == "deleted" for activity in activities):
            # A merge only soft-deletes the notes it drops: the run log tells a merge.
            runs = runs if runs is not None else engine.agent(scope).history()
            activities = name_merges(activities, runs)
            for update in found.panes.values():
                for note_id, kind in list(update.marks.items()):
                    merged = any(a.note_id == note_id and a.kind == "merged" for a in activities)
                    if kind == "deleted" and merged:
                        update.marks[note_id] = "merged"
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
            "get_only": probe.get_only,
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
        """Log what changed and schedule the next poll; the update goes on up to the
        screen (marked ``stale`` when the panes were reloaded or switched meanwhile)."""
        self.in_flight -= 1
        if not self.following:
            message.stop()
            return
        self._checked = self._clock()
        if self.failing is not None or message.resync:
            self.failing = None
            self._resync = False
        target = self.target
        if target is None or target.scope.agent != message.agent or target.load != message.load:
            # Look again from what the panes show now.
            if target is None or target.scope.agent != message.agent:
                self._probe = None
            message.stale = True
            self._show("following")
            self._schedule(POLL_INTERVAL)
            return
        self._probe = message.probe
        self.record(message.agent, message.activities)
        self._after(took=message.seconds)

    def on_follow_failed(self, message: FollowFailed) -> None:
        """The store did not answer: keep trying, less and less often (the screen shows
        the store banner)."""
        self.in_flight -= 1
        if not self.following:
            message.stop()
            return
        self._resync = True  # once it answers, reload rather than trust what was shown
        first = self.failing is None
        self.failing = message.message
        self.interval = OUTAGE_INTERVAL if first else min(self.interval * BACKOFF, MAX_INTERVAL)
        self._show(f"following: the store does not answer; next try in {self.interval:.0f} s")
        self._schedule(self.interval)

    def _after(self, took: float = 0.0) -> None:
        # A big store makes a poll slow: polling never takes more than a third of the time.
        self.interval = max(POLL_INTERVAL, 2 * took)
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

    def record(self, agent: str, activities: list[Activity]) -> None:
        """Add what happened, as ``agent`` saw it, to the activity log (now, this app's
        clock), and to the log's screen if it is open."""
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
