"""A folder on a read-only filesystem, for real: the CLI runs in a private mount
namespace (``unshare -m``) where the folder is bind-mounted read-only, so every write
under it fails with EROFS, for root too (root ignores permission bits, not a
read-only mount). Nothing outside that one process sees the mount."""

from __future__ import annotations

import functools
import shlex
import shutil
import subprocess
import sys
from pathlib import Path


def _script(folder: Path, argv: list[str]) -> str:
    where = shlex.quote(str(folder))
    command = shlex.join([sys.executable, "-m", "amem_tui", *argv])
    return (
        f"mount --bind {where} {where} && mount -o remount,bind,ro {where} || exit 97\n"
        f"exec {command}\n"
    )


def read_only_command(folder: Path, argv: list[str]) -> list[str]:
    """The command line that runs ``amem-tui ARGV`` with ``folder`` mounted read-only."""
    return ["unshare", "-m", "sh", "-c", _script(folder, argv)]


@functools.cache
def read_only_mounts() -> str | None:
    """Why a read-only bind mount cannot be made here, or None when it can."""
    if shutil.which("unshare") is None:
        return "no unshare(1)"
    probe = Path(__file__).resolve().parent
    where = shlex.quote(str(probe))
    test = f"mount --bind {where} {where} && mount -o remount,bind,ro {where} && true"
    done = subprocess.run(["unshare", "-m", "sh", "-c", test], capture_output=True, check=False)
    if done.returncode != 0:
        return f"cannot make a read-only bind mount: {done.stderr.decode().strip()}"
    return None
