"""The command line as typed objects, built once from what argparse parsed.

:class:`CommonOptions` holds the options every subcommand takes (where the store
is, who acts, how to answer), declared on a parser by :func:`add_common_options`; a
command's own arguments come as the options class it declares (a dataclass whose
field names are its argparse destinations), built by :func:`options_from`. Nothing
else reads the argparse namespace. A line that opens the TUI is read with the common
options alone (:func:`tui_options`).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeVar

Options = TypeVar("Options")

FOLLOW_HELP = "start the TUI in follow mode: its panes keep up with changes made elsewhere"


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
        """Where the command line says the store is (for the TUI's first frame; a URL's
        credentials masked)."""
        if self.url:
            from amem_tui.engine.for_apps import redact_url

            return redact_url(self.url)
        return self.store or ""


def add_common_options(parser: argparse.ArgumentParser, suppress: bool) -> None:
    """The options every subcommand takes, before or after its name.

    On a subparser they default to ``SUPPRESS``, so that an option given before the
    subcommand is not reset by the subparser's default.
    """
    default = argparse.SUPPRESS if suppress else None
    parser.add_argument("--store", metavar="PATH", default=default, help="embedded store folder")
    parser.add_argument("--url", metavar="URL", default=default, help="Qdrant server URL")
    parser.add_argument("--config", metavar="FILE", default=default, help="openclaw.json to read")
    parser.add_argument("--collection", metavar="NAME", default=default, help="Mode A collection")
    parser.add_argument("--agent", metavar="ID", default=default, help="act as this agent")
    parser.add_argument("--session-key", metavar="KEY", default=default, help="act as agent:<id>:…")
    parser.add_argument(
        "--new-agent",
        action="store_true",
        default=default,
        help="let a write act as an agent that is neither configured nor in the store yet",
    )
    parser.add_argument(
        "--user",
        metavar="ID",
        default=default,
        help="mem0: whose memories to read (default: AMEM_USER, else the mem0 plugin's userId)",
    )
    parser.add_argument(
        "--namespace",
        metavar="USER_ID",
        default=default,
        help="mem0: read exactly this user_id, e.g. alice:agent:main",
    )
    parser.add_argument(
        "--view",
        choices=["search", "recall"],
        default=default,
        help="mem0: what the agent's memory_search returns (search, the default) or what "
        "the plugin's auto-recall injects before its turn (recall; a subagent's recall "
        "reads the user's main memories)",
    )
    parser.add_argument("--model", metavar="NAME", default=default, help="fastembed model name")
    parser.add_argument(
        "--read-only", action="store_true", default=default, help="refuse every write"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        default=default,
        help="answer in JSON (errors and warnings on stderr as JSON objects too)",
    )


class _NotTheTuiLine(Exception):
    """Raised by :func:`tui_options`' parser instead of printing usage and exiting."""


class _TuiLineParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _NotTheTuiLine(message)


def tui_options(argv: Sequence[str]) -> CommonOptions | None:
    """The options of a command line that opens the TUI (no subcommand), read with the
    common options alone; None for every other line (a subcommand, ``--help``, a
    mistake), which the whole parser reads.

    So the TUI's first frame does not wait for the subcommand modules to be imported
    and their parsers built. The options are those the whole parser declares before
    a subcommand, so a line means the same to both.
    """
    parser = _TuiLineParser(add_help=False)
    add_common_options(parser, suppress=False)
    parser.add_argument("--follow", action="store_true", help=FOLLOW_HELP)
    try:
        parsed, rest = parser.parse_known_args(list(argv))
    except _NotTheTuiLine:
        return None
    return None if rest else CommonOptions.from_namespace(parsed)


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
