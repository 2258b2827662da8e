"""Read-only opens of a store folder that cannot be written: a private copy.

Neither embedded backend can open a store without writing to it: Qdrant Edge maps
its segments read-write, and both take their lock by creating or writing a lock file.
A store on a read-only filesystem (a backup, a snapshot, a mount of another machine's
disk) or in a folder this user may not write is therefore copied, with ``--read-only``
only, to a private temporary folder, and opened there; the store folder itself is
only ever read. The copy is removed when the store is closed (or the process ends).

While it copies, the open holds the store's lock shared, through a descriptor opened
for reading (which needs no write): an amem-tui process writing the store holds it
exclusively, so the open is refused as any second process is, and no writer starts
until the copy is taken. What a writer changes after that is not seen: the open shows
the store as it was when it opened.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path

from amem_tui.engine.errors import StoreLocked, StoreUnavailable
from amem_tui.engine.store.base import NoteStore

#: The lock files of the embedded backends (Qdrant Edge's, qdrant-client local mode's).
LOCK_FILES = ("edge.lock", ".lock")


def writable(folder: Path) -> bool:
    """Whether this process may write the store folder and the lock file in it (False on
    a read-only filesystem, or without write permission)."""
    places = [folder, *(folder / name for name in LOCK_FILES if (folder / name).exists())]
    return all(os.access(place, os.W_OK) for place in places)


@contextlib.contextmanager
def _held_shared(folder: Path) -> Iterator[None]:
    """The store's lock files held shared for the duration (none there: nothing held)."""
    held: list[int] = []
    try:
        for name in LOCK_FILES:
            try:
                fd = os.open(folder / name, os.O_RDONLY)
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise StoreUnavailable(
                    f"cannot read the store at {folder}: {exc.strerror or exc}"
                ) from exc
            held.append(fd)
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError as exc:
                raise StoreLocked(
                    f"the embedded store {folder} is in use by another process; "
                    "stop that process, or point both at a Qdrant server with --url"
                ) from exc
        yield
    finally:
        for fd in held:
            with contextlib.suppress(OSError):
                os.close(fd)  # closing releases the lock


def open_copy(folder: Path, opener: Callable[[Path], NoteStore]) -> NoteStore:
    """Copy ``folder`` to a private temporary folder and open the copy with ``opener``;
    the store answers as ``folder`` (its location) and removes the copy when closed."""
    scratch = Path(tempfile.mkdtemp(prefix="amem-read-only-"))
    copy = scratch / "store"
    try:
        with _held_shared(folder):
            shutil.copytree(folder, copy, ignore=shutil.ignore_patterns(*LOCK_FILES))
        store = opener(copy)
    except OSError as exc:
        shutil.rmtree(scratch, ignore_errors=True)
        raise StoreUnavailable(
            f"cannot copy the read-only store at {folder}: {exc.strerror or exc}"
        ) from exc
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    store.location = str(folder)  # type: ignore[misc]  # both backends keep it as an attribute
    close = store.close

    def close_and_remove() -> None:
        try:
            close()
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    store.close = close_and_remove  # type: ignore[method-assign]
    weakref.finalize(store, shutil.rmtree, scratch, True)  # at exit, if never closed
    return store
