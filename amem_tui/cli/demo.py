"""``demo``: fill a store with a multi-agent demo memory, then open the TUI on it.

Seeding adds only the demo notes that are missing (see :func:`amem_tui.demo.seed_demo`):
running ``demo`` again never reverts an edit, a delete or a merge. When the TUI
closes, the command prints how to reach the same store from the CLI.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command

if TYPE_CHECKING:
    from amem_tui.cli.context import Context


def demo_arguments(parser: argparse.ArgumentParser) -> None:
    """``demo [--no-tui] [--follow]``."""
    parser.add_argument("--no-tui", action="store_true", help="only fill the store")
    parser.add_argument(
        "--follow", action="store_true", default=argparse.SUPPRESS, help="open the TUI following"
    )


def fill_demo(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Fill a store with the demo memory; ``open_tui`` asks the caller to open the TUI."""
    from amem_tui.demo import demo_config, demo_config_path, seed_demo  # only for this command

    counts = seed_demo(ctx.engine)
    settings = ctx.settings
    config = settings.config_file
    ours = demo_config_path(settings)
    if config is None or config == ours:
        # Later commands need the demo's agents (sandbox is Mode B): leave them a config,
        # once: a configuration the user has since edited is theirs, as the notes are.
        config = ours
        try:
            ours.parent.mkdir(parents=True, exist_ok=True)
            if not ours.exists():
                ours.write_text(demo_config() + "\n", encoding="utf-8")
        except OSError:
            config = None
    where = f"--url {settings.url}" if settings.url else f"--store {settings.embedded_path}"
    if config is not None:
        where += f" --config {config}"
    notes = ", ".join(f"{n} notes in {c}" for c, n in counts.items())
    message = "\n".join(
        [
            f"demo store at {settings.store_label}: {notes}",
            "agents: main and dev in Mode A, sandbox in Mode B; try:",
            f"  amem-tui {where} --agent dev search 'deploy freeze'",
        ]
    )
    out: dict[str, Any] = {
        "message": message,
        "store": settings.store_label,
        "config": str(config) if config else None,
        "counts": counts,
    }
    if not (args.no_tui or args.json):
        out["open_tui"] = True
    return out


def demo_text(data: dict[str, Any]) -> str:
    """Where the demo store is and a command to try on it."""
    message: str = data["message"]
    return message


COMMANDS: tuple[Command[Any], ...] = (
    Command(
        "demo",
        "fill a demo store and open the TUI on it",
        handler=fill_demo,
        text=demo_text,
        arguments=demo_arguments,
    ),
)
