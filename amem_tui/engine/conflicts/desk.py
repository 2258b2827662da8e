"""The contradiction desk of one agent: its flagged pairs, and a person's decisions.

What ``engine.agent(name).conflicts`` gives: the pairs and dangling flags the agent can
read (``pairs``), one pair to show, and the decisions (``settle``), each
refused before anything is written when its input is bad (``ConflictNoteMissing``
for a note that is gone or unreadable, ``NotAConflictPair`` for notes that are
not a flagged pair) or when the agent may not modify a note (``PermissionDenied``,
the write rule named). A dry run checks the same and returns the planned change.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, get_args

import amem_tui.engine.scope as rules
from amem_tui.engine.clock import Timekeeper
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.conflicts.pairs import (
    SETTLE_ACTION,
    ConflictList,
    ConflictPair,
    DanglingFlag,
    find,
    judge_partners,
    lookup,
    make_pair,
    named_partners,
)
from amem_tui.engine.conflicts.settle import Settlement, plan_flag, plan_pair
from amem_tui.engine.errors import (
    AmemError,
    ConflictNoteMissing,
    InvalidInput,
    NotAConflictPair,
    NotFound,
)
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.reading import read_note
from amem_tui.engine.run_records import ConsolidationRun
from amem_tui.engine.scope import AgentScope

if TYPE_CHECKING:
    from amem_tui.engine.consolidation import Consolidator

#: What a decision on a pair keeps: note A, note B, or both.
PairKeep = Literal["A", "B", "both"]
KEEPS: tuple[str, ...] = get_args(PairKeep)


class ConflictDesk:
    """One agent's flagged pairs and dangling flags, and its decisions on them."""

    def __init__(
        self,
        scope: AgentScope,
        service: CollectionService,
        *,
        time: Timekeeper,
        lock: threading.RLock,
        consolidator: Callable[[], Consolidator],
        check_writable: Callable[[], object],
    ) -> None:
        self.scope = scope
        self.service = service
        self._time = time
        self._lock = lock
        self._consolidator = consolidator
        self._check_writable = check_writable

    # -------------------------------------------------------------- reading
    def list(self) -> ConflictList:
        """Every pair and dangling flag the agent can read, newest first."""
        pairs, dangling = find(self.service, self.scope)
        return ConflictList(
            agent=self.scope.agent,
            collections=[self.service.name],
            pairs=pairs,
            dangling=dangling,
        )

    def _read(self, note_id: str) -> MemoryNote:
        try:
            return read_note(self.service, self.scope, note_id)
        except NotFound:
            raise ConflictNoteMissing(note_id, self.scope.agent) from None

    def _pair_notes(self, a: str, b: str) -> tuple[MemoryNote, MemoryNote]:
        if a == b:
            raise NotAConflictPair(f"note {a} cannot contradict itself: name two notes", a, b)
        first, second = self._read(a), self._read(b)
        for note, other in ((first, second), (second, first)):
            if not note.active:
                raise NotAConflictPair(
                    f"note {note.id} is retired (soft-deleted): its conflict with {other.id} "
                    f"is settled already; the flag left on {other.id} is cleared on its own "
                    "(a dangling flag)",
                    a,
                    b,
                )
        if b not in named_partners(first) and a not in named_partners(second):
            raise NotAConflictPair(
                f"notes {a} and {b} are not flagged as contradicting each other "
                "(neither names the other in conflicts_with)",
                a,
                b,
            )
        return first, second

    def pair(self, a: str, b: str) -> ConflictPair:
        """The flagged pair of ``a`` and ``b`` (both readable and active, one naming the
        other), ``a`` as given first; refused otherwise (see the module)."""
        return self._as_given(*self._pair_notes(a, b))

    def _as_given(self, first: MemoryNote, second: MemoryNote) -> ConflictPair:
        pair = make_pair(first, second, self.service.name, self.scope)
        if pair.a.id != first.id:
            pair = pair.model_copy(update={"a": pair.b, "b": pair.a})
        return pair

    def refusal(self, a: str, b: str) -> AmemError | None:
        """Why the agent may not decide on the pair (None: it may), so an app can say it
        before trying: bad input, a read-only store, or the write rule."""
        try:
            self._check(a, b, dry_run=False)
        except AmemError as exc:
            return exc
        return None

    def _check(self, a: str, b: str, *, dry_run: bool) -> tuple[MemoryNote, MemoryNote]:
        first, second = self._pair_notes(a, b)
        if not dry_run:
            self._check_writable()
        for note in (first, second):
            rules.require_write(self.scope.agent, note, SETTLE_ACTION)
        return first, second

    # ------------------------------------------------------------- deciding
    def resolve(
        self, a: str, b: str, keep: PairKeep, *, reason: str = "", dry_run: bool = False
    ) -> Settlement:
        """Decide the flagged pair ``a``, ``b``: keep ``A`` (``b`` is retired, a soft
        delete as openclaw-amem retires a note), ``B`` (``a`` is retired) or ``both`` (not
        a contradiction: both flags cleared, so the sweep does not raise the pair again).

        The kept notes' flags on the other are cleared. The write rule applies to both
        notes, whatever is kept. The decision is recorded as a run (undo it with
        ``undo(settlement.run.id)``); ``dry_run`` returns it planned, writing nothing.
        """
        if keep not in KEEPS:
            raise InvalidInput(f"keep must be 'A', 'B' or 'both', not {keep!r}")
        with self._lock:
            first, second = self._check(a, b, dry_run=dry_run)
            run = plan_pair(self.service, self.scope, self._time, first, second, keep, reason)
            return self._settle(run, dry_run, pair=self._as_given(first, second))

    def clear(self, note_id: str, *, reason: str = "", dry_run: bool = False) -> Settlement:
        """Clear the dangling flag of ``note_id``: the partners the agent cannot find
        (retired, missing, or not readable by it) are named no more; a flag that names
        no partner is set false. Refused when the note has no dangling flag."""
        with self._lock:
            note = self._read(note_id)
            if not note.active:
                raise NotAConflictPair(
                    f"note {note_id} is retired (soft-deleted): its flags are not listed "
                    "or decided",
                    note_id,
                )
            known = lookup(self.service, named_partners(note))
            present, flag = judge_partners(self.service, self.scope, note, known)
            if flag is None:
                raise NotAConflictPair(
                    f"note {note_id} has no dangling conflict flag (every partner it names "
                    "is there to decide against): decide its pairs instead",
                    note_id,
                )
            if not dry_run:
                self._check_writable()
            rules.require_write(self.scope.agent, note, SETTLE_ACTION)
            kept = {p.id for p in present}
            gone = [p for p in named_partners(note) if p not in kept]
            run = plan_flag(self.service, self.scope, self._time, note, gone, reason)
            return self._settle(run, dry_run, flag=flag)

    def _settle(
        self,
        run: ConsolidationRun,
        dry_run: bool,
        *,
        pair: ConflictPair | None = None,
        flag: DanglingFlag | None = None,
    ) -> Settlement:
        decision = run.settles
        assert decision is not None  # planned by plan_pair or plan_flag
        if not dry_run:
            run = self._consolidator().carry_out(self.scope, run)
        return Settlement(decision=decision, run=run, dry_run=dry_run, pair=pair, flag=flag)
