"""The command line as typed objects: every option is declared once, as a field of a
frozen dataclass, and ``add_options`` makes the argparse arguments from the fields.

A field's type says how its value is read (``bool``: a flag; a ``Literal``: the
choices), its default is the option's, and ``option`` (``switch``: several flags for
one value) gives its flags (none: positional), help, metavar and exclusive group.
A line that opens the TUI is read with ``CommonOptions`` alone (``tui_options``), so
its first frame waits for no subcommand module; no pydantic here for the same reason.
"""

from __future__ import annotations

import argparse
import dataclasses
import typing
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NoReturn, TypeVar

if TYPE_CHECKING:
    from amem_tui.config import Settings

Options = TypeVar("Options")

#: The metadata key of a field's ``Spec``.
SPEC = "cli"


@dataclass(frozen=True)
class Spec:
    """What argparse shows of one field (``consts``: a ``switch``'s flags) and the
    bounds of a number (``within``: the least and the most it may be, None for none)."""

    flags: tuple[str, ...]
    help: str | None = None
    metavar: str | None = None
    group: str | None = None
    consts: tuple[tuple[str, object, str], ...] = ()
    within: tuple[int | None, int | None] = (None, None)


def option(
    *flags: str,
    default: Any = None,
    help: str | None = None,
    metavar: str | None = None,
    group: str | None = None,
    required: bool | None = None,
    within: tuple[int | None, int | None] = (None, None),
) -> Any:
    """A field read from the command line: an option, or without ``flags`` a positional
    argument (``required`` unless said otherwise: left out, it is ``default``); a number
    out of ``within`` (least, most) is refused."""
    spec = {SPEC: Spec(flags, help, metavar, group, within=within)}
    if required or (required is None and not flags):
        return field(metadata=spec)
    return field(default=default, metadata=spec)


def flag(*flags: str, help: str, group: str | None = None) -> Any:
    """A ``bool`` field that its flag sets (False unless given)."""
    return option(*flags, default=False, help=help, group=group)


def switch(*flags: tuple[str, object, str], default: Any = None) -> Any:
    """A field that one of several exclusive flags sets: ``(flag, value, help)`` each."""
    return field(default=default, metadata={SPEC: Spec((), consts=flags)})


def comma_list(value: str) -> list[str]:
    """``"a, b,,c"`` as ``["a", "b", "c"]`` (how a ``list[str]`` option is read)."""
    return [part.strip() for part in value.split(",") if part.strip()]


def _bounded(least: int | None, most: int | None) -> Any:
    """An ``int`` reader that refuses a number out of ``least``..``most``."""

    def read(text: str) -> int:
        value = int(text)
        if (least is not None and value < least) or (most is not None and value > most):
            within = f"from {least} to {most}" if most is not None else f"at least {least}"
            raise argparse.ArgumentTypeError(f"must be {within}, not {value}")
        return value

    read.__name__ = "int"  # argparse's word for a number it cannot read: "invalid int value"
    return read


def _reading(kind: Any, spec: Spec) -> dict[str, Any]:
    """How argparse reads a value of type ``kind`` (``X | None`` read as ``X``)."""
    if typing.get_origin(kind) in (typing.Union, type(int | None)):
        kind = next(arg for arg in typing.get_args(kind) if arg is not type(None))
    if kind is bool:
        return {"action": "store_true"}
    if typing.get_origin(kind) is Literal:
        return {"choices": list(typing.get_args(kind))}
    if kind == list[str]:
        return {"type": comma_list}
    if kind is int and spec.within != (None, None):
        return {"type": _bounded(*spec.within)}
    return {"type": kind} if kind in (int, float) else {}


def add_options(
    parser: argparse.ArgumentParser,
    kind: type[Any],
    suppress: bool = False,
    skip: Collection[str] = (),
    helps: Mapping[str, str] | None = None,
) -> None:
    """Declare the fields of the options class ``kind`` on ``parser`` (but ``skip``;
    ``helps`` replaces some helps). ``suppress``: an option not given sets nothing, so
    a common option given before the subcommand is not reset by the subparser."""
    types = typing.get_type_hints(kind)
    groups: dict[str, Any] = {}
    for item in dataclasses.fields(kind):
        spec = item.metadata.get(SPEC)
        if not isinstance(spec, Spec) or item.name in skip:
            continue
        target: Any = parser
        group = spec.group or (item.name if spec.consts else None)
        if group is not None:
            if group not in groups:
                groups[group] = parser.add_mutually_exclusive_group()
            target = groups[group]
        default = argparse.SUPPRESS if suppress else item.default
        for flag, const, text in spec.consts:
            target.add_argument(
                flag, dest=item.name, action="store_const", const=const, default=default, help=text
            )
        if spec.consts:
            continue
        how = _reading(types[item.name], spec) | {"help": (helps or {}).get(item.name, spec.help)}
        if spec.metavar:
            how["metavar"] = spec.metavar
        if not spec.flags:
            if item.default is not dataclasses.MISSING:  # not required
                how |= {"nargs": "?", "default": item.default}
            target.add_argument(item.name, **how)
            continue
        if item.default is dataclasses.MISSING:
            how["required"] = True
        else:
            how["default"] = default
        target.add_argument(*spec.flags, dest=item.name, **how)


FOLLOW_HELP = "start the TUI in follow mode: its panes keep up with changes made elsewhere"

VIEW_HELP = "mem0: what memory_search returns (search, the default) or auto-recall injects"


#: The common options that are not settings (every other one is named as its setting).
NOT_SETTINGS = ("command", "new_agent", "json", "follow")


@dataclass(frozen=True)
class CommonOptions:
    """The options every subcommand takes, before or after its name (None: not given)."""

    #: The subcommand (None: open the TUI).
    command: str | None = None
    store_path: str | None = option("--store", metavar="PATH", help="embedded store folder")
    url: str | None = option("--url", metavar="URL", help="Qdrant server URL")
    config_file: str | None = option("--config", metavar="FILE", help="openclaw.json to read")
    collection: str | None = option("--collection", metavar="NAME", help="Mode A collection")
    agent: str | None = option("--agent", metavar="ID", help="act as this agent")
    session_key: str | None = option("--session-key", metavar="KEY", help="act as agent:<id>:…")
    new_agent: bool = flag("--new-agent", help="let a command act as an agent nobody knows yet")
    user: str | None = option("--user", metavar="ID", help="mem0: whose memories to read")
    namespace: str | None = option("--namespace", metavar="USER_ID", help="mem0: this user_id")
    mem0_view: Literal["search", "recall"] | None = option("--view", help=VIEW_HELP)
    model: str | None = option("--model", metavar="NAME", help="fastembed model name")
    remote_embeddings: bool = flag(
        "--remote-embeddings", help="mem0: embed queries with the plugin's own embedder"
    )
    read_only: bool = flag("--read-only", help="refuse every write")
    json: bool = flag("--json", help="answer in JSON (errors and warnings too, on stderr)")
    #: Read before the subcommand, or after one that opens the TUI.
    follow: bool = flag("--follow", help=FOLLOW_HELP)

    def settings(self) -> Settings:
        """The settings these options name (flags beat environment and file); with no
        store named and none by default, the demo store stands in, and a warning says so."""
        from amem_tui.cli.output import warn
        from amem_tui.config import load_settings
        from amem_tui.demo_fallback import demo_in_place_of_default

        fields = dataclasses.fields(self)  # the loader drops the options not given
        flags = {f.name: getattr(self, f.name) for f in fields if f.name not in NOT_SETTINGS}
        settings = load_settings(flags)
        demo = demo_in_place_of_default(settings, flags)
        if demo is None:
            return settings
        warn(
            f"no store of your own yet at {settings.embedded_path}: using the demo store at "
            f"{demo.embedded_path} (give --store PATH or --url URL to use another)",
            self.json,
            "demo_store",
            {"store": str(demo.embedded_path), "default_store": str(settings.embedded_path)},
        )
        return demo

    @property
    def store_hint(self) -> str:
        """Where the command line says the store is (a URL's credentials masked)."""
        if self.url:
            from amem_tui.engine.for_apps import redact_url

            return redact_url(self.url)
        return self.store_path or ""


def add_common_options(
    parser: argparse.ArgumentParser, suppress: bool, follow: str | None = None
) -> None:
    """The common options; ``--follow`` (its help: ``follow``) only where it is read."""
    if follow is None:
        add_options(parser, CommonOptions, suppress, skip=("follow",))
    else:
        add_options(parser, CommonOptions, suppress, helps={"follow": follow})


class _TuiLineParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """Raise, not print usage and exit: the whole parser reads what this cannot."""
        raise ValueError(message)


def tui_options(argv: Sequence[str]) -> CommonOptions | None:
    """The options of a line that opens the TUI, read with the common options alone
    (no command module imported); None for every other line, left to the whole parser."""
    parser = _TuiLineParser(add_help=False)
    add_common_options(parser, suppress=False, follow=FOLLOW_HELP)
    try:
        parsed, rest = parser.parse_known_args(list(argv))
    except ValueError:
        return None
    return None if rest else options_from(CommonOptions, parsed)


def options_from(kind: type[Options], parsed: argparse.Namespace) -> Options:
    """The options class ``kind`` filled from a parsed command line (a field it does not
    set, such as a common option not given around the subcommand: its default)."""
    given = vars(parsed)
    names = [f.name for f in dataclasses.fields(kind)]  # type: ignore[arg-type]
    return kind(**{name: given[name] for name in names if name in given})
