"""A subcommand: the ``Command`` each subcommand module declares on its handler, and
the ``Context`` the handler runs with (the settings, and the engine opened when
the handler first asks for it; who it acts as, a mistyped ``--agent`` refused unless
``--new-agent``; a missing store folder made only by a command that ``creates``);
the usage error, the ``OpenTui`` result, and the reader of a text argument."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from amem_tui.cli.options import CommonOptions
from amem_tui.cli.output import Rendered, warn
from amem_tui.config import Settings
from amem_tui.engine import AmemError, InvalidInput
from amem_tui.paths import default_store_dir, demo_dir, missing_folder
from amem_tui.wording import empty_store_hint

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope, AgentView, MemoryEngine

Options = TypeVar("Options")
Result = TypeVar("Result")
Shown = TypeVar("Shown")


class UsageError(InvalidInput):
    """A bad command line (exit 2)."""


class FailedWithReport(Exception):
    """A failure with a report: the report is printed as the answer, then ``error``
    ends the run as any other failure does."""

    def __init__(self, report: object, error: AmemError) -> None:
        super().__init__(str(error))
        self.report = report
        self.error = error


@dataclass(frozen=True)
class OpenTui(Generic[Shown]):
    """A result that opens the TUI on ``settings``, then prints ``then`` as text."""

    settings: Settings
    then: Shown


@dataclass(frozen=True)
class NoOptions:
    """The options of a subcommand that takes only the common ones."""


@dataclass(frozen=True)
class Command(Generic[Options, Result]):
    """One subcommand, declared on its handler (``@Command(name, text, options)`` above
    it), whose docstring's first line is its ``--help`` line and which returns a typed
    result: ``text`` renders that result (with ``--json`` pydantic dumps it), and the
    options class ``options`` holds its own options (see ``options``).

    ``reads``: on an empty default store it says how to fill it. ``creates``: it may
    make the store folder it is given. ``follow``: the help of ``--follow`` after a
    command that opens the TUI. ``settings``: its own settings (the demo's store).
    """

    name: str
    text: Callable[[Result], Rendered]
    options: type[Options] = NoOptions  # type: ignore[assignment]
    aliases: tuple[str, ...] = ()
    reads: bool = False
    creates: bool = False
    follow: str | None = None
    settings: Callable[[CommonOptions], Settings] | None = None
    #: The handler, set as the command is declared on it (``__call__``).
    handler: Callable[[Context, Options], Result] = field(default=None, repr=False)  # type: ignore[assignment]

    def __call__(
        self, handler: Callable[[Context, Options], Result]
    ) -> Callable[[Context, Options], Result]:
        """Declare ``handler`` as this subcommand of its module (see ``DECLARED``)."""
        declared = dataclasses.replace(self, handler=handler)
        DECLARED.setdefault(handler.__module__, {})[self.name] = declared
        return handler

    @property
    def help(self) -> str:
        """The handler docstring's first paragraph, as a line of ``--help``."""
        first = " ".join((self.handler.__doc__ or "").split("\n\n")[0].split())
        return first[:1].lower() + first[1:].removesuffix(".")


#: Each subcommand module's commands by name, in the order they are declared.
DECLARED: dict[str, dict[str, Command[Any, Any]]] = {}


def text_argument(value: str) -> str:
    """A text argument, or standard input for ``-``, less its one final newline (as a
    shell's ``$(...)`` does)."""
    if value != "-":
        return value
    try:
        text = sys.stdin.buffer.read().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"standard input is not UTF-8 text (byte {exc.start})") from None
    return text.removesuffix("\n").removesuffix("\r") if text.endswith("\n") else text


class UnknownAgent(InvalidInput):
    """A write as an agent neither configured nor in the store (exit 2)."""

    kind = "unknown_agent"
    FACTS = ("agent", "known_agents")

    def __init__(self, message: str, agent: str, known_agents: list[str]) -> None:
        super().__init__(message)
        self.agent = agent
        self.known_agents = known_agents


class UnknownReader(UnknownAgent):
    """A read as such an agent (exit 4): it would find only the shared notes."""

    exit_code = 4


class StoreMissing(AmemError):
    """A command that reads (or changes notes of) a store folder that does not exist."""

    exit_code = 4
    kind = "store_not_found"


def missing_store(folder: Path) -> StoreMissing:
    """The refusal of ``folder``, naming the stores that do exist, to pick from."""
    stores = [("the default store", default_store_dir()), ("the demo store", demo_dir())]
    found = [f"{name} is {path}" for name, path in stores if path.is_dir() and path != folder]
    return StoreMissing(
        f"no store at {folder}"
        + (f" ({'; '.join(found)})" if found else "")
        + "; nothing was created (add or import makes a new store)"
    )


class Context:
    """The settings, the common options, and a lazily opened engine."""

    def __init__(self, settings: Settings, options: CommonOptions, creates: bool = False) -> None:
        self.settings = settings
        #: The command may make the store folder it names (see the module's docstring).
        self.creates = creates
        self.options = options
        #: ``--json``: warnings go to stderr as JSON objects too.
        self.as_json = self.options.json
        self._engine: MemoryEngine | None = None
        #: The store folder this command made (said once it succeeded: ``said_after``).
        self.created: Path | None = None

    @property
    def engine(self) -> MemoryEngine:
        """The engine, opened on first use."""
        if self._engine is None:
            from amem_tui.engine import MemoryEngine  # heavy: only when a command runs

            self.created = self._new_folder()
            self._engine = MemoryEngine(self.settings)
        return self._engine

    def _new_folder(self) -> Path | None:
        """The store folder named that does not exist yet, if this command may make it."""
        folder = None if self.settings.url else missing_folder(self.settings.store_path)
        if folder is not None and not self.creates:
            raise missing_store(folder)
        return folder

    def reading_scope(self) -> AgentScope:
        """The scope a read acts as; an unknown agent refused (``UnknownReader``)."""
        scope = self.engine.scope()
        self._check_known(scope, UnknownReader, "read")
        return scope

    def writing_scope(self) -> AgentScope:
        """The scope a write acts as; refused when writes are off, then for an unknown
        agent (``UnknownAgent``)."""
        scope = self.engine.scope()
        self.engine.check_writable(scope.collection)
        self._check_known(scope, UnknownAgent, "write")
        return scope

    def reader(self) -> AgentView:
        """The acting agent's view, for a read (see ``reading_scope``)."""
        return self.engine.agent(self.reading_scope())

    def writer(self) -> AgentView:
        """The acting agent's view, for a write (see ``writing_scope``)."""
        return self.engine.agent(self.writing_scope())

    def warn(self, message: str, kind: str, facts: dict[str, Any] | None = None) -> None:
        """A warning on stderr, in JSON with ``--json``; the command goes on."""
        warn(message, self.as_json, kind, facts)

    def _check_known(self, scope: AgentScope, refusal: type[UnknownAgent], verb: str) -> None:
        # --new-agent: a command may act as an agent nobody knows yet.
        stranger = None if self.options.new_agent else self.engine.stranger(scope)
        if stranger is not None:
            done = "read" if verb == "read" else "written"
            raise refusal(
                f"{stranger.said}; nothing was {done} (check --agent, or pass --new-agent to "
                f"{verb} as a new agent)",
                scope.agent,
                stranger.known,
            )

    def said_after(self, reads: bool) -> None:
        """On stderr after success: the store made, or (``reads``) how to get started
        when the default store holds no notes."""
        if self.created is not None:
            self.warn(f"created a new store at {self.created}", "store_created")
        hint = empty_store_hint(self.settings, self._engine) if reads and self._engine else None
        if hint is not None:
            self.warn(hint, "empty_store", {"store": self.settings.store_label})

    def close(self) -> None:
        """Close the engine if it was opened."""
        if self._engine is not None:
            self._engine.close()
