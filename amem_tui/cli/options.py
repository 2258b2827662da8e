"""The command line as typed objects, built once from what argparse parsed.

:class:`CommonOptions` holds the options every subcommand takes (where the store
is, who acts, how to answer); a command's own arguments come as the options class
it declares (a dataclass whose field names are its argparse destinations), built by
:func:`options_from`. Nothing else reads the argparse namespace.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

Options = TypeVar("Options")


@dataclass(frozen=True)
class CommonOptions:
    """The options every subcommand takes, before or after its name (None: not given)."""

    #: The subcommand (None: open the TUI).
    command: str | None = None
    store: str | None = None
    url: str | None = None
    config: str | None = None
    collection: str | None = None
    agent: str | None = None
    session_key: str | None = None
    #: ``--new-agent``: a write may act as an agent nobody knows yet.
    new_agent: bool = False
    user: str | None = None
    namespace: str | None = None
    view: str | None = None
    model: str | None = None
    read_only: bool = False
    #: ``--json``: answers on stdout, errors and warnings on stderr, all as JSON.
    json: bool = False
    #: ``--follow``: the TUI starts in follow mode.
    follow: bool = False

    @classmethod
    def from_namespace(cls, parsed: argparse.Namespace) -> CommonOptions:
        """The common options of a parsed command line."""
        given = vars(parsed)
        flags = {"new_agent", "read_only", "json", "follow"}
        values: dict[str, Any] = {
            f.name: bool(given.get(f.name)) if f.name in flags else given.get(f.name)
            for f in dataclasses.fields(cls)
        }
        return cls(**values)

    def settings_flags(self) -> dict[str, Any]:
        """The options as the settings loader's flags (``None``: not given)."""
        return {
            "store_path": self.store,
            "url": self.url,
            "config_file": Path(self.config).expanduser() if self.config else None,
            "collection": self.collection,
            "agent": self.agent,
            "session_key": self.session_key,
            "model": self.model,
            "read_only": self.read_only or None,
            "user": self.user,
            "namespace": self.namespace,
            "mem0_view": self.view,
        }

    @property
    def store_hint(self) -> str:
        """Where the command line says the store is (for the TUI's first frame)."""
        return self.url or self.store or ""


def options_from(kind: type[Options], parsed: argparse.Namespace) -> Options:
    """A command's own options: the dataclass ``kind`` filled from its argparse fields."""
    given = vars(parsed)
    names = [f.name for f in dataclasses.fields(kind)]  # type: ignore[arg-type]
    missing = [name for name in names if name not in given]
    if missing:  # a programming error: the options class and the parser disagree
        raise TypeError(f"{kind.__name__}: the parser sets no {', '.join(missing)}")
    return kind(**{name: given[name] for name in names})


def raw_namespace(parsed: argparse.Namespace) -> argparse.Namespace:
    """For a command that reads its arguments from the argparse namespace itself."""
    return parsed
