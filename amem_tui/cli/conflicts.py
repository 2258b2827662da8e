"""``conflicts``: the notes openclaw-amem flagged as contradicting each other, as pairs,
and a person's decision on each (``resolve A B --keep A|B|both``, ``clear ID``),
recorded as a run that ``undo`` takes back."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import model_serializer

from amem_tui.cli.command import Command, Context, UsageError
from amem_tui.cli.options import flag, option
from amem_tui.cli.output import decision_words, shorten
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import ConflictList
    from amem_tui.engine.for_apps import ConflictPair, ConflictSide, NoteChange, Settlement
else:  # models dumped as themselves: see output.emit
    ConflictList = ConflictPair = Settlement = Any

#: What a decision keeps (the engine's ``PairKeep``).
Keep = Literal["A", "B", "both"]
#: The widest note text a pair's line shows.
TEXT_WIDTH = 100


@dataclass(frozen=True)
class ConflictsOptions:
    """``conflicts``: list the pairs; ``resolve A B --keep ...`` or ``clear ID`` decide."""

    action: Literal["resolve", "clear"] | None = option(
        help="resolve a pair, or clear a dangling flag (none: list the pairs)",
        metavar="resolve|clear",
        required=False,
    )
    a: str | None = option(
        help="resolve: note A; clear: the flagged note", metavar="A", required=False
    )
    b: str | None = option(help="resolve: note B", metavar="B", required=False)
    all_agents: bool = flag("--all-agents", help="list every pair in the store")
    keep: Keep | None = option("--keep", help="resolve: keep A, B or both")
    reason: str | None = option("--reason", metavar="TEXT", help="why, recorded with it")
    dry_run: bool = flag("--dry-run", help="show the change, write nothing")

    def __post_init__(self) -> None:
        deciding = {
            "--keep": self.keep is not None,
            "--reason": self.reason is not None,
            "--dry-run": self.dry_run,
        }
        if self.action is None:
            given = [name for name, set_ in deciding.items() if set_]
            if given:
                raise UsageError(f"conflicts: {', '.join(given)} go with resolve or clear")
            return
        if self.all_agents:
            raise UsageError(
                f"conflicts {self.action}: --all-agents only lists; a decision acts as one "
                "agent (--agent)"
            )
        if self.action == "resolve":
            if self.a is None or self.b is None:
                raise UsageError("conflicts resolve: name both notes of the pair: resolve A B")
            if self.keep is None:
                raise UsageError("conflicts resolve: say what to keep: --keep A, B or both")
            return
        if self.a is None or self.b is not None:
            raise UsageError("conflicts clear: name the one note whose flag to clear: clear ID")
        if self.keep is not None:
            raise UsageError("conflicts clear: --keep goes with resolve")


@dataclass(frozen=True)
class Decided:
    """A decision made (or planned), as the engine answers it: what it keeps and
    retires, each note's change, and its run."""

    done: Settlement

    @model_serializer
    def _json(self) -> dict[str, Any]:
        done, decision = self.done, self.done.decision
        clear = decision.keep == "flag"
        answer: dict[str, Any] = {"action": "clear" if clear else "resolve"}
        answer |= {"dry_run": done.dry_run} | ({} if clear else {"keep": decision.keep})
        answer |= {"a": decision.a} | ({"b": decision.b} if decision.b else {})
        return answer | {
            "retired": done.retired,
            "changes": done.changes,
            "run": done.run.to_json(),
        }


def _side_line(label: str, side: ConflictSide) -> str:
    where = f"{side.owner or '-'}, {side.scope}"
    date = side.timestamp[:10] if side.timestamp else "undated"
    line = f"  {label} {side.id}  ({where}, {date})  {shorten(side.content, TEXT_WIDTH)}"
    return line + (f"\n      may not settle: {side.refusal}" if side.refusal else "")


def _pair_lines(pair: ConflictPair) -> Iterator[str]:
    from amem_tui.engine.for_apps import plain_diff

    scanned = f"scanned {pair.scanned_at}" if pair.scanned_at else "never scanned"
    one_sided = ", flagged on one side only" if pair.one_sided else ""
    yield f"{pair.reason or '(no reason given)'}  [{pair.collection}, {scanned}{one_sided}]"
    yield _side_line("A", pair.a)
    yield _side_line("B", pair.b)
    yield f"  diff B -> A: {shorten(plain_diff(pair.diff()), 2 * TEXT_WIDTH)}"


def list_text(found: ConflictList) -> Iterator[str]:
    """Each pair (its reason, both notes, the word diff), then the dangling flags."""
    who = f"agent {found.agent}" if found.agent else "the whole store"
    yield f"{plural(len(found.pairs), 'flagged pair')} ({who}), newer note as A"
    for pair in found.pairs:
        yield from _pair_lines(pair)
    if found.pairs:
        yield "settle one: amem-tui conflicts resolve A B --keep A|B|both [--dry-run]"
    if found.dangling:
        yield f"{plural(len(found.dangling), 'dangling flag')} (its partner is gone)"
        for flag_ in found.dangling:
            yield f"  {flag_.note.id}  {flag_.why}"
            yield f"      {shorten(flag_.note.content, TEXT_WIDTH)}"
        yield "clear one: amem-tui conflicts clear ID [--dry-run]"


def _change_line(change: NoteChange) -> str:
    if change.role == "dropped":
        return f"  retire {change.note} (is_active false)"
    set_ = ", ".join(f"{key}={value!r}" for key, value in change.set.items())
    gone = f"; remove {', '.join(change.unset)}" if change.unset else ""
    return f"  clear the flag on {change.note}: {set_ or 'nothing to set'}{gone}"


def decided_text(result: ConflictList | Decided) -> Iterator[str]:
    """A listing, or a decision: what it keeps, each note's change, how to undo it."""
    if not isinstance(result, Decided):
        yield from list_text(result)
        return
    done = result.done
    head = decision_words(done.decision.keep, done.decision.a, done.decision.b)
    yield head + (" (dry run, nothing written)" if done.dry_run else f" (run {done.run.id})")
    yield from (_change_line(change) for change in done.changes)
    if not done.dry_run:
        yield f"take it back: amem-tui --agent {done.run.agent} undo {done.run.id}"


@Command("conflicts", decided_text, ConflictsOptions, reads=True)
def conflicts(ctx: Context, options: ConflictsOptions) -> ConflictList | Decided:
    """Flagged contradictions as pairs; settle one: resolve A B --keep A|B|both."""
    if options.action is None:
        if options.all_agents:
            return ctx.engine.conflicts()
        return ctx.reader().conflicts.list()
    # A dry run writes nothing, so a read-only store still shows it.
    desk = (ctx.reader() if options.dry_run else ctx.writer()).conflicts
    reason = options.reason or ""
    assert options.a is not None  # see ConflictsOptions
    if options.action == "resolve":
        assert options.b is not None and options.keep is not None
        done = desk.resolve(
            options.a, options.b, options.keep, reason=reason, dry_run=options.dry_run
        )
    else:
        done = desk.clear(options.a, reason=reason, dry_run=options.dry_run)
    return Decided(done)
