"""The nightly pass's run lock: one point in the store itself, taken by a conditional
write, so that two machines on one Qdrant server never run the pass at once.

The lock is a point of the run log (``<collection>__amem_runs``, kind ``lock``), which
openclaw-amem and the mem0 plugin never read. It names its holder (host, pid, what
runs it, since when) and expires: a crashed run blocks the pass for ``LOCK_TTL``
at most, and a live one renews it every ``HEARTBEAT`` seconds.

What it guarantees. Taking the lock is one write with a condition (``put_if``:
"the stored lock has expired, or is mine"), then a read of the lock. A Qdrant server
applies the writes to one point one at a time and checks each one's condition as it
applies it (a conditional update, Qdrant 1.16 and later; Qdrant Edge and
qdrant-client's local mode do the same in-process), so while a lock is live only its
holder's write can land: of two processes racing, exactly one reads its own token
back, and the other reads the winner's. That holds however the requests interleave.
It relies on the machines' clocks agreeing to well within the expiry (NTP): a clock
that runs ahead by more than ``LOCK_TTL`` minus ``HEARTBEAT`` could take a
live lock. A holder stalled for longer than the expiry (a suspended laptop) loses
the lock; it notices at its next renewal and stops before the next agent (its
writes so far are compare-and-set changes, so a second runner meanwhile cannot
corrupt a note; it can only find some merges already made).

A server that ignores the condition (older than 1.16) is found out by a probe on
a point of its own. There the lock is best effort: write, wait ``CONFIRM_PAUSE``,
and read back; it holds as long as every contender's read-then-write takes less than
that pause (a contender whose write came later than that gives up and takes its
token back), and ``RunLock.best_effort`` says so.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from amem_tui.engine.clock import iso
from amem_tui.engine.errors import AmemError, StoreUnavailable
from amem_tui.engine.store.base import NoteStore, StoredPoint
from amem_tui.engine.store.filters import Before, Filter, Match

#: How long a lock lives without a renewal (a crashed run blocks the pass this long).
LOCK_TTL = timedelta(minutes=10)
#: Seconds between two renewals by the holder.
HEARTBEAT = 60.0
#: On a server that ignores conditional writes: the pause between writing the lock
#: and reading it back, in seconds.
CONFIRM_PAUSE = 2.0
#: The exit code of a run refused because another process holds the lock
#: (``EX_TEMPFAIL``: try again later).
BUSY_EXIT_CODE = 75

_NAMESPACE = uuid.UUID("6f1d3c52-8a4e-4b8e-9d1e-5b0f3a7c2e11")
LOCK_ID = str(uuid.uuid5(_NAMESPACE, "nightly-lock"))
PROBE_ID = str(uuid.uuid5(_NAMESPACE, "conditional-write-probe"))
#: An expiry long past: what a released lock holds.
RELEASED = "1970-01-01T00:00:00.000Z"


@dataclass(frozen=True)
class Holder:
    """Who holds (or held) the run lock: its token, host, pid, what runs it, since when
    and until when it lives without a renewal (ISO times, UTC)."""

    token: str
    host: str
    pid: int
    runner: str
    since: str
    expires_at: str

    def describe(self) -> str:
        """``consolidate --all-agents on host db1 (pid 4242) since 2026-11-20T02:30:00.120Z``."""
        return f"{self.runner} on host {self.host} (pid {self.pid}) since {self.since}"

    def payload(self) -> dict[str, Any]:
        """The lock point's payload."""
        return {
            "kind": "lock",
            "token": self.token,
            "host": self.host,
            "pid": self.pid,
            "runner": self.runner,
            "since": self.since,
            "expires_at": self.expires_at,
        }

    @classmethod
    def of(cls, payload: dict[str, Any]) -> Holder:
        """The holder a lock point's payload names."""
        return cls(
            token=str(payload.get("token", "")),
            host=str(payload.get("host", "?")),
            pid=int(payload.get("pid") or 0),
            runner=str(payload.get("runner", "?")),
            since=str(payload.get("since", "")),
            expires_at=str(payload.get("expires_at", RELEASED)),
        )


class PassBusy(AmemError):
    """Another process holds the nightly pass's run lock: nothing was done (exit 75,
    ``EX_TEMPFAIL``). ``host``, ``pid``, ``since`` and ``expires_at`` name the holder."""

    exit_code = BUSY_EXIT_CODE
    FACTS = ("host", "pid", "since", "expires_at")

    def __init__(self, holder: Holder) -> None:
        super().__init__(
            f"the nightly pass is already running: {holder.describe()} holds its run lock "
            f"(it expires at {holder.expires_at} unless renewed); nothing was done"
        )
        self.holder = holder
        self.host = holder.host
        self.pid = holder.pid
        self.since = holder.since
        self.expires_at = holder.expires_at


class LockNotTaken(AmemError):
    """On a server that ignores conditional writes, the lock could not be taken safely
    (the store answered too slowly to rule out a race): nothing was done (exit 75)."""

    exit_code = BUSY_EXIT_CODE

    def __init__(self) -> None:
        super().__init__(
            "the nightly pass's run lock could not be taken safely: this Qdrant server "
            "ignores conditional writes (1.16 and later honour them) and answered too "
            "slowly to rule out another machine taking it too; nothing was done, try again"
        )


class LockLost(AmemError):
    """The holder's lock expired and another process took it: the pass stopped."""

    def __init__(self, holder: Holder | None) -> None:
        who = holder.describe() if holder is not None else "nobody (it expired)"
        super().__init__(
            f"the nightly pass lost its run lock (held now by {who}): it stopped before "
            "the next agent"
        )
        self.holder = holder


def this_process(runner: str, clock: Callable[[], datetime], ttl: timedelta) -> Holder:
    """A fresh holder for this process: a new token, this host and pid, now."""
    now = clock()
    return Holder(
        token=str(uuid.uuid4()),
        host=socket.gethostname() or "?",
        pid=os.getpid(),
        runner=runner,
        since=iso(now),
        expires_at=iso(now + ttl),
    )


def honours_conditions(store: NoteStore, collection: str) -> bool:
    """Whether the store applies ``put_if``'s condition (a write that must not land
    is tried on a probe point of its own; racing probes cannot disturb each other)."""
    store.upsert(collection, [StoredPoint(PROBE_ID, {"kind": "probe", "value": "kept"}, [1.0])])
    refused = Filter(must=(Match("value", "never"),))
    try:
        store.put_if(
            collection, StoredPoint(PROBE_ID, {"kind": "probe", "value": "lost"}, [1.0]), refused
        )
    except StoreUnavailable:  # a server that refuses the condition outright
        return False
    found = store.retrieve(collection, [PROBE_ID])
    return bool(found) and found[0].payload.get("value") == "kept"


class RunLock:
    """The run lock in ``collection`` (a run log), for one process."""

    def __init__(
        self,
        store: NoteStore,
        collection: str,
        clock: Callable[[], datetime],
        runner: str,
        *,
        ttl: timedelta = LOCK_TTL,
        heartbeat: float = HEARTBEAT,
    ) -> None:
        self.store = store
        self.collection = collection
        self.clock = clock
        self.runner = runner
        self.ttl = ttl
        self.heartbeat = heartbeat
        #: This process's holder while it holds the lock.
        self.mine: Holder | None = None
        #: True on a server that ignores conditional writes (see the module's notes).
        self.best_effort = False
        #: Set when a renewal found the lock taken over.
        self.lost = threading.Event()
        self.taken_by: Holder | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ---------------------------------------------------------------- reading
    def _read(self) -> Holder | None:
        found = self.store.retrieve(self.collection, [LOCK_ID])
        return Holder.of(found[0].payload) if found else None

    def holder(self) -> Holder | None:
        """Who holds the lock now (None: nobody, or an expired holder)."""
        held = self._read()
        if held is None or held.expires_at <= iso(self.clock()):
            return None
        return held

    # ---------------------------------------------------------------- writing
    def _write(self, holder: Holder, expect: Filter) -> None:
        point = StoredPoint(LOCK_ID, holder.payload(), [1.0])
        if self.best_effort:
            self.store.upsert(self.collection, [point])
        else:
            self.store.put_if(self.collection, point, expect)

    def acquire(self) -> Holder:
        """Take the lock, or raise ``PassBusy`` naming who holds it."""
        if not self.store.embedded:
            self.best_effort = not honours_conditions(self.store, self.collection)
        started = time.monotonic()  # from the read that found the lock free
        held = self.holder()
        if held is not None:
            raise PassBusy(held)
        mine = this_process(self.runner, self.clock, self.ttl)
        now = iso(self.clock())
        # Free, expired or released: the condition holds for one writer at a time.
        self._write(mine, Filter(should=(Before("expires_at", now), Match("token", mine.token))))
        if self.best_effort:
            if time.monotonic() - started > CONFIRM_PAUSE / 2:
                self._give_back(mine)  # too slow to trust: someone may have written since
                held = self.holder()
                raise PassBusy(held) if held is not None else LockNotTaken()
            time.sleep(CONFIRM_PAUSE)
        after = self._read()
        if after is None or after.token != mine.token:
            raise PassBusy(after or mine)
        self.mine = mine
        self.lost.clear()
        return mine

    def _give_back(self, mine: Holder) -> None:
        after = self._read()
        if after is not None and after.token == mine.token:
            released = Holder(**{**after.__dict__, "expires_at": RELEASED})
            self._write(released, Filter(must=(Match("token", mine.token),)))

    def renew(self) -> bool:
        """Push the expiry on; False (and ``lost`` set) when another took the lock."""
        mine = self.mine
        if mine is None:
            return False
        renewed = Holder(**{**mine.__dict__, "expires_at": iso(self.clock() + self.ttl)})
        current = self._read()
        if current is None or current.token != mine.token:
            self.taken_by = current
            self.lost.set()
            return False
        self._write(renewed, Filter(must=(Match("token", mine.token),)))
        after = self._read()
        if after is None or after.token != mine.token:
            self.taken_by = after
            self.lost.set()
            return False
        self.mine = renewed
        return True

    def release(self) -> None:
        """Give the lock back (only if it is still this process's)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        mine, self.mine = self.mine, None
        if mine is not None:
            self._give_back(mine)

    def check(self) -> None:
        """Raise ``LockLost`` if a renewal found the lock taken over."""
        if self.lost.is_set():
            raise LockLost(self.taken_by)

    # ------------------------------------------------------------- holding it
    def _beat(self) -> None:
        while not self._stop.wait(self.heartbeat):
            try:
                if not self.renew():
                    return
            except AmemError:  # the store away for a moment: try again at the next beat
                continue

    @contextmanager
    def held(self) -> Iterator[Holder]:
        """Hold the lock (renewed in a daemon thread) for the ``with`` block."""
        mine = self.acquire()
        self._stop.clear()
        self._thread = threading.Thread(target=self._beat, name="amem-run-lock", daemon=True)
        self._thread.start()
        try:
            yield mine
        finally:
            self.release()
