"""The highlighted row is the subject, always: a property over random sessions.

Each example runs the demo in follow mode and plays a drawn sequence of what users
do (cursor moves, Tab to another pane, marking rows with space, publish, unpublish,
delete, searches and clearing them) and of what a second writer does meanwhile
(through the engine, seen by follow mode). After every step the detail shows the
note highlighted in the focused pane, and the step's action (publish, unpublish,
edit, delete, restore, copy, each drawn in turn) names that same note in its dialog
or its answer; while notes are marked, publish, unpublish, delete and restore name
exactly the marked notes instead, and a write changes no other note.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from textual.widgets import DataTable

from amem_tui.engine import AmemError
from amem_tui.engine.engine import MemoryEngine
from amem_tui.tui.app import AmemApp
from amem_tui.tui.dialogs.confirm import ConfirmDialog
from amem_tui.tui.dialogs.note_editor import NoteEditor
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.widgets import follow_bar
from amem_tui.tui.widgets.note_pane import NotePane
from tests.support.tui import demo_engine, started, until

#: Enough to find the old faults within a few examples (each a fresh app); the whole
#: test stays well under a minute on an idle machine.
EXAMPLES = 6
QUERIES = ["deploy freeze", "Priya code reviews", "standup summary", "zzzz qqqq"]
#: The keys of the actions whose target is checked, and how each is answered.
PROBED = {"publish": "p", "unpublish": "u", "edit": "e", "delete": "d", "restore": "r", "copy": "y"}
#: The actions that act on the marked notes while some are marked.
BULK = {"publish", "unpublish", "delete", "restore"}
NOTE_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
MORE = re.compile(r"\(and (\d+) more\)")

moves = st.tuples(st.just("move"), st.sampled_from([-3, -2, -1, 1, 2, 3]))
switches = st.tuples(st.just("switch"), st.sampled_from([1, -1]))
writes = st.tuples(st.sampled_from(["publish", "unpublish", "delete"]), st.just(0))
searches = st.tuples(st.just("search"), st.integers(0, len(QUERIES) - 1))
clears = st.tuples(st.just("clear"), st.just(0))
marks = st.tuples(st.just("mark"), st.sampled_from([1, 2]))
elsewhere = st.tuples(st.just("elsewhere"), st.sampled_from(["add", "delete", "publish", "edit"]))
#: After about half the steps, one action is tried (and cancelled) to see what it names.
probes = st.sampled_from([None] * len(PROBED) + sorted(PROBED))
steps = st.lists(
    st.tuples(
        st.one_of(moves, moves, switches, marks, writes, searches, clears, elsewhere), probes
    ),
    min_size=2,
    max_size=8,
)


def main_of(app: Any) -> MainScreen:
    for screen in app.screen_stack:
        if isinstance(screen, MainScreen):
            return screen
    raise AssertionError("no main screen")


def marked(main: MainScreen) -> set[str]:
    """The notes marked in the pane worked in."""
    return set(main.panes.pane(main.panes.working).marked)


def states(engine: MemoryEngine) -> dict[str, object]:
    """Every note main and dev can see, as stored (to find what a write changed)."""
    out: dict[str, object] = {}
    for agent in ("main", "dev"):
        page = engine.agent(agent).list_notes("visible", limit=500, include_inactive=True)
        out |= {note.id: note.model_dump() for note in page.notes}
    return out


def focused_pane(main: MainScreen) -> NotePane | None:
    """The note pane whose table has the focus."""
    focused = main.focused
    if isinstance(focused, DataTable) and isinstance(focused.parent, NotePane):
        return focused.parent
    return None


async def play(pilot: Any, writer: MemoryEngine, step: tuple[str, Any]) -> None:
    """One thing a user (or another writer) does."""
    app, main = pilot.app, main_of(pilot.app)
    kind, arg = step
    if kind == "move":
        await pilot.press(*(["down"] * arg if arg > 0 else ["up"] * -arg))
    elif kind == "switch":
        for _ in range(8):  # on to the next note pane (history and detail are passed)
            await pilot.press("tab" if arg > 0 else "shift+tab")
            if focused_pane(main) is not None:
                break
    elif kind == "mark":
        await pilot.press(*["space"] * arg)
    elif kind in ("publish", "unpublish", "delete"):
        pane = focused_pane(main)
        allowed = marked(main) or ({pane.current_id} if pane and pane.current_id else set())
        before = states(writer)
        await pilot.press({"publish": "p", "unpublish": "u", "delete": "d"}[kind])
        await pilot.pause()
        if isinstance(app.screen, ConfirmDialog):
            await pilot.press("y")
        await settle_all(pilot)
        after = states(writer)
        changed = {i for i in before if before[i] != after.get(i)}
        assert changed <= allowed, (kind, changed, allowed)  # the marked, or the row
    elif kind == "search":
        await pilot.press("slash", *QUERIES[arg], "enter")
    elif kind == "clear":
        await pilot.press("escape")
    else:
        await change_elsewhere(pilot, writer, arg)


async def change_elsewhere(pilot: Any, writer: MemoryEngine, change: str) -> None:
    """A second writer changes the store; follow mode brings the change in."""
    main = main_of(pilot.app)
    pane = focused_pane(main)
    row = pane.current_id if pane is not None else None
    other = writer.agent("main")
    try:
        if change == "add":
            other.add(f"Written elsewhere while following, number {main.generation}")
        elif row is not None and change == "delete":
            other.delete(row)
        elif row is not None and change == "publish":
            other.publish(row)
        elif row is not None:
            other.update(row, content="Changed elsewhere while the app follows main")
    except AmemError:  # not main's to change, or already so: nothing changed
        return
    bar = main.follow_bar
    for _ in range(2):  # a poll under way may have looked before the write
        await until(pilot, lambda: not bar.in_flight)
        polls = bar.polls
        bar.check_now()
        await until(pilot, lambda p=polls: bar.polls > p and not bar.in_flight)


async def check_subject(pilot: Any, action: str | None) -> None:
    """The detail shows the highlighted row of the focused pane, the note actions' subject
    is that row, and ``action`` (if one) names it when it is tried."""
    app, main = pilot.app, main_of(pilot.app)
    assert app.screen is main, type(app.screen)
    pane = focused_pane(main)
    if pane is None:  # a search without hits leaves the focus in the box
        return
    row = pane.current_id
    detail = main.detail_view
    assert main.selected_id == row, (pane.which, row, main.selected_id)
    if row is not None:
        assert detail.note is not None and detail.note.id == row, (pane.which, row)
    subject = main.subject()
    assert (subject.id if subject is not None else None) == row
    if action is None:
        return
    notices = len(app.notice_log)
    await pilot.press(PROBED[action])
    await pilot.pause()
    selection = marked(main)
    if selection and action in BULK:  # the marked notes, every one, and no other
        screen = app.screen
        if isinstance(screen, ConfirmDialog):
            said = str(screen.body)
        else:
            await until(pilot, lambda: len(app.notice_log) > notices)
            said = " ".join(message for _, message in list(app.notice_log)[notices:])
        # A long list names its first notes and counts the rest: "(and 2 more)".
        named, more = set(NOTE_ID.findall(said)), MORE.search(said)
        counted = len(named) + (int(more.group(1)) if more else 0)
        assert named <= selection and counted == len(selection), (action, said, selection)
        if screen is not main:
            await pilot.press("escape")
        await until(pilot, lambda: app.screen is main)
        return
    if row is None:
        answer = " ".join(message for _, message in list(app.notice_log)[notices:])
        assert "Select a note first" in answer
        return
    screen = app.screen
    if isinstance(screen, ConfirmDialog):
        said = str(screen.body)
    elif isinstance(screen, NoteEditor):
        said = screen.title_text
    else:
        await until(pilot, lambda: len(app.notice_log) > notices)
        said = " ".join(message for _, message in list(app.notice_log)[notices:])
    assert row in said, (action, row, said)
    if screen is not main:
        await pilot.press("escape")
    await until(pilot, lambda: app.screen is main)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(session=steps)
# Four marked notes that are not deleted, then restore: "(and 1 more)" names the fourth.
@example(session=[(("mark", 2), None), (("mark", 2), "restore")])
# A delete whose reload reselects the next row while the deleted row's highlight is
# still on its way: the detail shows the row the cursor is on, not the deleted note.
@example(session=[(("mark", 1), "delete"), (("move", -3), None), (("delete", 0), None)])
async def test_the_highlighted_row_is_the_subject(session: list[Any]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        # Polls come when asked for (check_now): timers that fire all the time would
        # keep the app from ever being idle between keys.
        patch.setattr(follow_bar, "POLL_INTERVAL", 60.0)
        patch.setattr(follow_bar, "MAX_INTERVAL", 60.0)
        engine = demo_engine()
        app = AmemApp(engine, user_config=False, follow=True)
        app.animation_level = "none"
        async with started(app) as pilot:
            for step, action in session:
                await play(pilot, engine, step)
                await settle_all(pilot)
                await check_subject(pilot, action)


async def settle_all(pilot: Any) -> None:
    """Wait for the step's loads (not for the follow bar, which polls for ever)."""
    for _ in range(3):
        await pilot.pause(0.05)
        await until(pilot, lambda: not _busy(pilot.app))


def _busy(app: Any) -> bool:
    from textual.worker import WorkerState

    running = (WorkerState.PENDING, WorkerState.RUNNING)
    return any(w.state in running and w.group not in ("follow", "warm") for w in app.workers)
