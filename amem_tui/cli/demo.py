"""``demo``: fill a store with a multi-agent demo memory (only the missing notes), then
open the TUI on it; once it closes, say how to reach the same store."""

from __future__ import annotations

import dataclasses
import shlex
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING

from amem_tui.cli.command import Command, Context, OpenTui
from amem_tui.cli.options import flag
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.cli.options import CommonOptions
    from amem_tui.config import Settings


@dataclass(frozen=True)
class DemoOptions:
    """``demo``'s options."""

    no_tui: bool = flag("--no-tui", help="only fill the store")
    leaks: bool = flag("--leaks", help="plant one case of each finding 'leaks' reports too")


@dataclass(frozen=True)
class DemoStore:
    """Where the demo store is, its notes per collection, and a command to try on it."""

    message: str
    store: str
    config: str | None
    counts: dict[str, int]


def demo_store_settings(options: CommonOptions) -> Settings:
    """The demo's settings: its own store (unless named) and its agents."""
    from amem_tui.demo import demo_settings
    from amem_tui.paths import demo_dir

    if options.store_path is None and not options.url:
        options = dataclasses.replace(options, store_path=str(demo_dir()))
    settings = demo_settings(options.settings())
    if not settings.url:  # the demo makes its store: its answer says where
        settings.embedded_path.expanduser().mkdir(parents=True, exist_ok=True)
    return settings


@Command(
    "demo",
    attrgetter("message"),
    DemoOptions,
    follow="open the TUI following",
    settings=demo_store_settings,
)
def fill_demo(ctx: Context, options: DemoOptions) -> DemoStore | OpenTui[DemoStore]:
    """Fill a demo store and open the TUI on it."""
    from amem_tui.demo_fallback import demo_stands_in_for_default
    from amem_tui.demo_store import fill_demo_store  # only for this command

    counts, config = fill_demo_store(ctx.engine, ctx.settings, leaks=options.leaks)
    settings = ctx.settings
    where, why = _store_words(settings)
    if config is not None:
        where += f" --config {shlex.quote(str(config))}"
    notes = ", ".join(f"{plural(n, 'note')} in {c}" for c, n in counts.items())
    lines = [
        f"demo store at {settings.store_label}: {notes}",
        "agents: main and dev in Mode A, sandbox in Mode B; try:",
    ]
    # While no store of one's own exists, commands that name none read the demo store.
    stands_in = demo_stands_in_for_default(settings)
    reach = "amem-tui" if stands_in else f"amem-tui {where}"
    lines += [
        f"  {reach} --agent dev search 'deploy freeze'",
        "monitor, in the store but in no configuration, has a contradiction to settle and "
        "has stopped writing:",
        f"  {reach} --agent monitor conflicts",
        f"  {reach} health",
    ]
    if stands_in:
        lines.append("(until a store of your own exists, commands without --store read this one)")
    else:
        lines += why
    message = "\n".join(lines)
    filled = DemoStore(message, settings.store_label, str(config) if config else None, counts)
    if options.no_tui or ctx.options.json:
        return filled
    return OpenTui(settings, then=filled)


def _store_words(settings: Settings) -> tuple[str, list[str]]:
    """The options that reach the store, for a shell (a URL with credentials as
    ``$AMEM_URL``), and why they read so."""
    if not settings.url:
        return f"--store {shlex.quote(str(settings.embedded_path))}", []
    if settings.store_label == settings.url:
        return f"--url {shlex.quote(settings.url)}", []
    return '--url "$AMEM_URL"', [
        "  (AMEM_URL: the server URL, left out here because it holds credentials)"
    ]
