"""Words the CLI and the TUI both show: counted nouns and severities, and the hint for a
first run.

Neither interface imports the other, so what they must say alike lives here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from amem_tui.engine.words import first_of, plural

if TYPE_CHECKING:
    from amem_tui.config import Settings
    from amem_tui.engine import MemoryEngine

__all__ = [
    "EMPTY_STORE_HINT",
    "empty_store_hint",
    "first_of",
    "is_default_store",
    "plural",
    "severity_counts",
]


def severity_counts(counts: Mapping[str, int], *, zeros: bool = True, sep: str = ", ") -> str:
    """``2 leaks, 1 warning, 0 info``: a count per severity, in the order of ``counts``,
    the empty ones too unless ``zeros`` is false."""
    return sep.join(plural(n, severity) for severity, n in counts.items() if n or zeros)


def is_default_store(settings: Settings) -> bool:
    """True when no ``--store``, ``--url`` or configured server names the store: the
    embedded folder in the user data folder is used."""
    return settings.url is None and settings.store_path is None


def empty_store_hint(settings: Settings, engine: MemoryEngine) -> str | None:
    """What to do when the default store holds nothing (most often a first run), or
    None: it is another store, or it holds notes. Reads the store: call it off the
    UI thread."""
    if not is_default_store(settings) or not engine.is_empty():
        return None
    return EMPTY_STORE_HINT.format(store=settings.store_label)


#: The first-run hint; ``{store}`` is the default store's folder.
EMPTY_STORE_HINT = (
    "the default store ({store}) holds no notes yet: run 'amem-tui demo' to explore a "
    "demo memory, or point at your agents' memory with --url http://localhost:6333 "
    "(a Qdrant server) or --store PATH (an embedded store folder)"
)
