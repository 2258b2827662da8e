"""Bulk writes: publish, unpublish, delete or restore every marked note of a pane at
once (plain functions the note browser's actions call).

Each marked note is judged first (the write rule in the engine's words, and whether the
action means anything for it: a shared note is not published again); the user is asked
once, with the count ("Delete 3 notes?") and the notes named; then each note is written
through the engine in turn, as one key on it would write it. A refusal of one never
stops the others, and every note left alone is named with its reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from amem_tui.tui.dialogs.confirm import confirm_then
from amem_tui.tui.messages import BulkDone
from amem_tui.tui.note_writes import ACTIVITY_KINDS, own_activity
from amem_tui.tui.text import one_line
from amem_tui.wording import plural

if TYPE_CHECKING:
    from textual.widget import Widget

    from amem_tui.engine import AgentScope, AgentView, MemoryEngine, MemoryNote
    from amem_tui.engine.for_apps import Activity
    from amem_tui.tui.messages import PaneName

#: The notes named in the question; the rest are counted.
NAMED = 10

#: Per action: the verb of the question, its button, what it says of the notes, and the
#: past tense of the answer.
WORDING: dict[str, tuple[str, str, str]] = {
    "publish": (
        "Publish",
        "They move to the shared scope: every Mode A agent will be able to read them. "
        "Each keeps its owner, and only its owner may change it.",
        "Published",
    ),
    "unpublish": (
        "Unpublish",
        "They leave the shared scope and become private to their owners again.",
        "Unpublished",
    ),
    "delete": (
        "Delete",
        "They are marked is_active=false and disappear from searches. Nothing is "
        "hard-deleted: x shows deleted notes, r restores them.",
        "Soft-deleted",
    ),
    "restore": ("Restore", "They become active again (is_active=true).", "Restored"),
}

#: What makes an action pointless for a note (then it is left alone, and said so).
NEEDLESS: dict[str, tuple[Callable[[MemoryNote], bool], str]] = {
    "publish": (lambda note: note.is_shared, "already shared"),
    "unpublish": (lambda note: not note.is_shared, "not shared: private already"),
    "delete": (lambda note: not note.active, "already deleted"),
    "restore": (lambda note: note.active, "not deleted"),
}

WRITES: dict[str, Callable[[AgentView, str], MemoryNote]] = {
    "publish": lambda view, note_id: view.publish(note_id),
    "unpublish": lambda view, note_id: view.unpublish(note_id),
    "delete": lambda view, note_id: view.delete(note_id),
    "restore": lambda view, note_id: view.restore(note_id),
}


@dataclass
class BulkPlan:
    """What a bulk action would do: the notes it writes and those it leaves, with why."""

    action: str
    writes: list[MemoryNote] = field(default_factory=list)
    left: list[tuple[str, str]] = field(default_factory=list)


def plan_bulk(view: AgentView, action: str, notes: Sequence[MemoryNote]) -> BulkPlan:
    """Judge each note: written, or left alone with the reason (nothing is read)."""
    plan = BulkPlan(action)
    needless, why = NEEDLESS[action]
    for note in notes:
        denial = view.write_refusal(note, action)
        if denial is not None:
            plan.left.append((note.id, str(denial)))
        elif needless(note):
            plan.left.append((note.id, why))
        else:
            plan.writes.append(note)
    return plan


def question(plan: BulkPlan) -> tuple[str, str, str]:
    """The title, the body and the button of the confirmation."""
    verb, meaning, _ = WORDING[plan.action]
    count = len(plan.writes)
    lines = [meaning, ""]
    lines += [f"{n.id}  {one_line(n.content, 28)}" for n in plan.writes[:NAMED]]
    if count > NAMED:
        lines.append(f"… and {count - NAMED} more")
    if plan.left:
        lines += ["", f"Left alone ({len(plan.left)}):"]
        lines += [f"{note_id}: {one_line(why, 120)}" for note_id, why in plan.left[:NAMED]]
    return f"{verb} {plural(count, 'note')}?", "\n".join(lines), f"{verb} {count}"


def summary(action: str, done: Sequence[str], left: Sequence[tuple[str, str]]) -> str:
    """What a bulk action did: "Soft-deleted 3 notes; 1 left alone: <id>: <why>"."""
    said = f"{WORDING[action][2]} {plural(len(done), 'note')}"
    if left:
        named = "; ".join(f"{note_id}: {one_line(why, 100)}" for note_id, why in left[:3])
        more = f" (and {len(left) - 3} more)" if len(left) > 3 else ""
        said += f"; {len(left)} left alone: {named}{more}"
    return said + "."


def ask_then_write(
    owner: Widget,
    engine: MemoryEngine,
    scope: AgentScope,
    action: str,
    pane: PaneName,
    notes: list[MemoryNote],
) -> None:
    """Ask once with the count, then write each note in a worker of ``owner``; or say
    why none can be written."""
    plan = plan_bulk(engine.agent(scope), action, notes)
    if not plan.writes:
        owner.app.notify(
            summary(action, [], plan.left),
            title="Nothing to do",
            severity="warning",
            timeout=8,
            markup=False,
        )
        return
    title, body, label = question(plan)
    confirm_then(owner.app, title, body, label, lambda: _apply(owner, engine, plan, scope, pane))


def _apply(
    owner: Widget, engine: MemoryEngine, plan: BulkPlan, scope: AgentScope, pane: PaneName
) -> None:
    from amem_tui.engine import AmemError

    def run() -> None:
        view = engine.agent(scope)
        write = WRITES[plan.action]
        done: list[str] = []
        left = list(plan.left)
        activities: list[Activity] = []
        for note in plan.writes:
            try:
                written = write(view, note.id)
            except AmemError as exc:  # this one is refused; the others still go
                left.append((note.id, str(exc)))
                continue
            done.append(note.id)
            kind = ACTIVITY_KINDS[plan.action]
            activities.append(own_activity(scope.agent, kind, written))
        message = summary(plan.action, done, left)
        owner.post_message(BulkDone(message, pane, done, left, activities))

    owner.run_worker(run, thread=True, exit_on_error=False, group="write")
