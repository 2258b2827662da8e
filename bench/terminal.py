"""Drive a terminal app in tmux as a person would, and time what they wait for.

The app runs in a tmux pane of a fixed size; the screen is read with
``capture-pane`` in a tight loop (a read costs a few milliseconds, the resolution of
every figure). Keys go in with ``send-keys``: a query typed "as a burst" is one
``send-keys -l`` of the whole text, as a fast typist's keys arrive together.
"""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path


class TerminalApp:
    """One app in its own tmux session."""

    def __init__(
        self,
        command: Sequence[str],
        size: tuple[int, int] = (160, 48),
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.command = list(command)
        self.size = size
        self.env = env or {}
        self.cwd = cwd
        self.session = f"bench-{uuid.uuid4().hex[:8]}"
        self.started = 0.0

    def start(self) -> None:
        """Start the app; ``started`` is the moment just before tmux spawns it."""
        width, height = self.size
        exports = " ".join(f"{k}={_quote(v)}" for k, v in self.env.items())
        line = " ".join(_quote(part) for part in self.command)
        shell = f"cd {_quote(str(self.cwd or Path.cwd()))} && exec env {exports} {line}"
        command = ["tmux", "new-session", "-d", "-s", self.session, "-x", str(width), "-y",
                   str(height), shell]  # fmt: skip
        for attempt in range(3):
            self.started = time.perf_counter()
            # The server of the session just stopped may still be exiting (then tmux says
            # "server exited unexpectedly"): a moment later a new one starts.
            if subprocess.run(command, check=attempt == 2).returncode == 0:
                return
            time.sleep(0.5)

    def screen(self) -> str:
        """The pane's text as a person sees it now."""
        done = subprocess.run(
            ["tmux", "capture-pane", "-p", "-t", self.session],
            capture_output=True,
            text=True,
            check=False,
        )
        return done.stdout

    def wait_for(self, seen: Callable[[str], bool], timeout: float = 120.0) -> float:
        """Seconds until the screen satisfies ``seen`` (TimeoutError after ``timeout``)."""
        begun = time.perf_counter()
        while True:
            screen = self.screen()
            if seen(screen):
                return time.perf_counter() - begun
            if time.perf_counter() - begun > timeout:
                raise TimeoutError(f"not on screen after {timeout:.0f} s; the screen:\n{screen}")
            time.sleep(0.002)

    def keys(self, *keys: str) -> None:
        """Press keys by tmux name (``Escape``, ``C-u``, ``/``)."""
        subprocess.run(["tmux", "send-keys", "-t", self.session, *keys], check=True)

    def type(self, text: str) -> None:
        """Type ``text`` as one burst of keys."""
        subprocess.run(["tmux", "send-keys", "-t", self.session, "-l", text], check=True)

    def pid(self) -> int:
        """The app's process id (the pane runs it directly)."""
        out = subprocess.run(
            ["tmux", "display-message", "-p", "-t", self.session, "#{pane_pid}"],
            capture_output=True,
            text=True,
            check=True,
        )
        return int(out.stdout.strip())

    def peak_rss_mib(self) -> float:
        """The app's peak resident memory so far (VmHWM), in MiB."""
        status = Path(f"/proc/{self.pid()}/status").read_text(encoding="ascii")
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> None:
        """End the session (and the app)."""
        subprocess.run(
            ["tmux", "kill-session", "-t", self.session], check=False, capture_output=True
        )


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def environment(**extra: str) -> dict[str, str]:
    """What an app under the harness needs: a terminal type, and the given variables."""
    env = {"TERM": "xterm-256color", "COLORTERM": "truecolor"}
    env.update({k: v for k, v in extra.items() if v})
    if "PYTHONPATH" in os.environ:
        env.setdefault("PYTHONPATH", os.environ["PYTHONPATH"])
    return env
