"""``--read-only`` opens a store on a read-only filesystem: the CLI runs with the store
folder bind-mounted read-only (EROFS for every write, root included). The folder is
only read: it is copied to a private temporary folder, removed afterwards, and an
amem-tui process writing the store keeps the open out while it holds the lock."""

from __future__ import annotations

import fcntl
import hashlib
import json
import subprocess
from pathlib import Path

import pytest

from tests.support.cli import cli_env, run
from tests.support.paths import REPO_ROOT
from tests.support.read_only import read_only_command, read_only_mounts

pytestmark = pytest.mark.skipif(read_only_mounts() is not None, reason=str(read_only_mounts()))


def _fingerprint(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module", params=["edge", "qdrant-local"])
def backup(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A demo store on each embedded backend (the folder that gets mounted read-only)."""
    home = tmp_path_factory.mktemp("ro-home")
    mount = tmp_path_factory.mktemp("ro-mount")
    done = run(
        ["demo", "--no-tui", "--store", str(mount / "store")], home, AMEM_BACKEND=request.param
    )
    assert done.returncode == 0, done.stderr
    return mount


def _copies(home: Path) -> list[Path]:
    """The private copies read-only opens left in the temporary folder."""
    return sorted((home / "tmp").glob("amem-read-only-*"))


def read_only(mount: Path, argv: list[str], home: Path) -> subprocess.CompletedProcess[bytes]:
    store = mount / "store"
    given = ["--store", str(store), "--config", str(store / "openclaw.json"), *argv]
    scratch = home / "tmp"
    scratch.mkdir(exist_ok=True)
    return subprocess.run(
        read_only_command(mount, given),
        cwd=REPO_ROOT,
        env=cli_env(home, TMPDIR=str(scratch)),
        capture_output=True,
        timeout=120,
        check=False,
    )


def test_a_read_only_mount_opens_with_read_only(backup: Path, tmp_path: Path) -> None:
    before = _fingerprint(backup)
    listed = read_only(backup, ["--read-only", "--json", "--agent", "dev", "list"], tmp_path)
    assert listed.returncode == 0, listed.stderr
    notes = json.loads(listed.stdout)["notes"]
    assert notes and all(note["agent_id"] in ("dev", "shared") for note in notes)
    found = read_only(backup, ["--read-only", "--json", "search", "deploy freeze"], tmp_path)
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["hits"]
    refused = read_only(backup, ["--read-only", "add", "A note that must not land"], tmp_path)
    assert refused.returncode == 3 and b"read-only" in refused.stderr
    assert _fingerprint(backup) == before
    assert _copies(tmp_path) == []  # the copies were removed


def test_without_read_only_the_mount_is_refused_cleanly(backup: Path, tmp_path: Path) -> None:
    result = read_only(backup, ["list"], tmp_path)
    assert result.returncode == 5, result.stderr
    assert b"Read-only file system" in result.stderr and b"Traceback" not in result.stderr


def test_a_writer_holding_the_lock_keeps_a_read_only_open_out(backup: Path, tmp_path: Path) -> None:
    lock = next(
        p for p in (backup / "store" / "edge.lock", backup / "store" / ".lock") if p.exists()
    )
    with lock.open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a writing process holds it
        result = read_only(backup, ["--read-only", "list"], tmp_path)
    assert result.returncode == 5 and b"in use by another process" in result.stderr
    assert _copies(tmp_path) == []
