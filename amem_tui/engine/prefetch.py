"""Reading ahead, at an app's start, the files it will read once its first frame is up.

After the first frame an app imports the engine's libraries, loads the store's shard,
imports the embedding model's libraries and loads the model, then searches the note
index. On a cold start (after a reboot, or the page cache dropped) each of those reads
its files a page or a module at a time, one after the other: at a million notes the
first answer came seconds after the first frame, most of them waiting for the disk
(the model's libraries alone import hundreds of modules).

``start`` hands that reading to one child process, begun once the first frame is
up and the settings name the store, at the lowest priority (``nice`` 19, so its CPU and
its disk requests come after the app's): ``find`` and ``cat`` read, in the order the
app needs them, the engine's compiled modules and shared objects, the store's notes'
files a load reads (``store.shard_files.find_command``), the model's libraries and
folder, the run logs and the saved note indexes. Whatever is already in the page cache
costs only its copy; nothing waits for the child, and the app ends it when it quits.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import subprocess
import sysconfig
from collections.abc import Iterable
from pathlib import Path

from amem_tui.engine.bookkeeping import VERSIONS_SUFFIX, is_own_bookkeeping
from amem_tui.engine.store.edge_layout import META_FILE, SHARDS_DIR
from amem_tui.engine.store.journal import SAVED_INDEX_DIR, SIDECAR_DIR
from amem_tui.engine.store.shard_files import find_command, is_compact
from amem_tui.paths import cache_dir

#: Imported with the engine, after the first frame (numpy, pydantic, Qdrant Edge).
ENGINE_PACKAGES = (
    "numpy",
    "pydantic",
    "pydantic_core",
    "annotated_types",
    "typing_inspection",
    "qdrant_edge",
)
#: Imported with the embedding model (fastembed and what it imports).
MODEL_PACKAGES = (
    "onnxruntime",
    "tokenizers",
    "fastembed",
    "huggingface_hub",
    "requests",
    "urllib3",
    "httpx",
    "httpcore",
    "h2",
    "h11",
    "hpack",
    "hyperframe",
    "anyio",
    "sniffio",
    "loguru",
    "yaml",
    "filelock",
    "tqdm",
    "PIL",
    "click",
    "charset_normalizer",
    "idna",
    "certifi",
    "py_rust_stemmers",
    "mmh3",
)


def _package_dirs(names: Iterable[str]) -> list[str]:
    roots = dict.fromkeys(sysconfig.get_path(key) for key in ("platlib", "purelib"))
    found = []
    for name in names:
        for root in roots:
            folder = Path(root, name)
            if folder.is_dir():
                found.append(str(folder))
                break
    return found


def _modules(folders: list[str]) -> str:
    """A command reading the compiled modules and shared objects under ``folders``."""
    if not folders:
        return ""
    quoted = " ".join(shlex.quote(f) for f in folders)
    return (
        f"find {quoted} \\( -name '*.so' -o -name '*.pyc' \\) -type f -exec cat {{}} + 2>/dev/null"
    )


def _store_commands(store: Path) -> tuple[list[str], list[str], list[str]]:
    """Commands reading what loading each collection's shard reads: the collections of
    notes first, then the run logs (the history pane's, not a search's); and the saved
    note indexes (read last: at a million notes they are the largest files, of which a
    search reads a part). The versions are left out: they are read only when a note's are shown or
    written, and an import of a million notes leaves a million of them."""
    notes: list[str] = []
    logs: list[str] = []
    indexes: list[str] = []
    for meta_path in sorted(store.glob(f"{SHARDS_DIR}/*/{META_FILE}")):
        folder = meta_path.parent
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            meta = {}
        name = str(meta.get("name", folder.name))
        if name.endswith(VERSIONS_SUFFIX):
            continue
        command = find_command(folder / "shard", is_compact(meta))
        if command is not None and (folder / "shard" / "segments").is_dir():
            read = " ".join(shlex.quote(a) for a in command) + " -exec cat {} +"
            (logs if is_own_bookkeeping(name) else notes).append(read)
        index = folder / SIDECAR_DIR / SAVED_INDEX_DIR
        if index.is_dir():
            indexes.append(f"cat {shlex.quote(str(index))}/* 2>/dev/null")
    return notes, logs, indexes


def commands(store: Path | None, model: bool = True) -> list[str]:
    """The shell commands ``start`` runs, in order (for a look, or a test)."""
    notes, logs, indexes = _store_commands(store) if store is not None else ([], [], [])
    # This package's own modules too (the main screen's and the engine's).
    own = str(Path(__file__).resolve().parents[1])
    parts = [_modules([own, *_package_dirs(ENGINE_PACKAGES)]), *notes]
    if model:
        parts.append(_modules(_package_dirs(MODEL_PACKAGES)))
        models = cache_dir() / "models"
        if models.is_dir():
            parts.append(f"find {shlex.quote(str(models))} -type f -exec cat {{}} + 2>/dev/null")
    parts += logs + indexes
    return [part for part in parts if part]


def start(store: Path | None, model: bool = True) -> subprocess.Popen[bytes] | None:
    """Start reading ahead what an app reads after its first frame (the store's files
    when ``store`` is an embedded folder, the model's with ``model``); returns the
    reading child (None where none could start). Never waited for."""
    sh, nice = shutil.which("sh"), shutil.which("nice")
    if sh is None or shutil.which("find") is None or shutil.which("cat") is None:
        return None
    script = " ; ".join(commands(store, model))
    if not script:
        return None
    command = [sh, "-c", script]
    if nice is not None:
        command = [nice, "-n", "19", *command]
    try:
        return subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            env={**os.environ, "LC_ALL": "C"},
        )
    except OSError:
        return None


def stop(child: subprocess.Popen[bytes] | None) -> None:
    """End a reading child that still runs (the app quits)."""
    if child is not None and child.poll() is None:
        try:
            os.killpg(child.pid, 15)
        except OSError:
            child.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=5)
