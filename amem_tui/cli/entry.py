"""``main``: parse the command line, run one subcommand (or open the TUI), print its
answer, and turn every failure into one line on stderr and an exit code."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from amem_tui.cli.command import FailedWithReport
from amem_tui.cli.output import emit, error_facts, error_kind, report_error, sanitize
from amem_tui.cli.parser import COMMANDS, build_parser
from amem_tui.engine.errors import AmemError

if TYPE_CHECKING:
    import argparse

    from amem_tui.cli.context import Context
    from amem_tui.config import Settings

# The settings (pydantic) and the engine are imported once a command needs them: the
# TUI draws its first frame before either is loaded.


def run_tui(
    open_settings: Callable[[], Settings],
    follow: bool = False,
    args: argparse.Namespace | None = None,
) -> int:
    """Open the Textual inspector (imported only here, so headless use stays light).

    The settings are read by the app after its first frame; ``args`` label that frame
    (agent, store), ``follow`` starts it in follow mode.
    """
    try:
        from amem_tui.tui.app import run
    except ImportError:
        print("amem-tui: the TUI is not available in this build", file=sys.stderr)
        return 0
    agent = getattr(args, "agent", None)
    store = getattr(args, "url", None) or getattr(args, "store", None) or ""
    return run(open_settings, follow=follow, agent_hint=agent, store_hint=str(store))


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def read_settings(args: argparse.Namespace) -> Settings:
    """The settings the command line names (imported here: they load pydantic)."""
    from amem_tui.cli.context import settings_from_args

    return settings_from_args(args)


def invalid_value(error: Exception) -> str | None:
    """What a pydantic model refused, as one line (None for any other error)."""
    if "pydantic" not in sys.modules:  # nothing raised by a model before models load
        return None
    from pydantic import ValidationError

    if not isinstance(error, ValidationError):
        return None
    first = error.errors()[0]
    field = ".".join(str(part) for part in first["loc"])
    return f"invalid value{' for ' + field if field else ''}: {first['msg']}"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``amem-tui`` and ``python -m amem_tui``.

    Every failure ends as one line on stderr and an exit code, never a traceback
    (set ``AMEM_DEBUG=1`` to see the traceback of an unexpected error); with
    ``--json`` that line is a JSON object.
    """
    import warnings

    if not os.environ.get("AMEM_DEBUG"):  # library warnings would add stray stderr lines
        warnings.simplefilter("ignore")
    ctx: Context | None = None
    # Until the command line parses, a literal --json asks for JSON errors.
    as_json = "--json" in (sys.argv[1:] if argv is None else list(argv))

    def fail(message: str, code: int, kind: str, error: BaseException | None = None) -> int:
        facts = error_facts(error) if error is not None else {}
        return report_error(message, code, as_json, kind, facts)

    try:
        args = build_parser().parse_args(argv)
        as_json = bool(getattr(args, "json", False))
        follow = bool(getattr(args, "follow", False))
        if args.command is None:
            return run_tui(partial(read_settings, args), follow, args)
        from amem_tui.cli.context import Context, settings_from_args

        settings = settings_from_args(args)
        ctx = Context(settings, as_json, new_agent=bool(getattr(args, "new_agent", False)))
        command = COMMANDS[args.command]
        try:
            data = command.handler(ctx, args)
        except FailedWithReport as failure:
            emit(failure.report, as_json, command.text)
            raise failure.error from None
        if isinstance(data, dict) and data.get("open_tui"):
            ctx.close()
            ctx = None
            has_tui = importlib.util.find_spec("amem_tui.tui") is not None
            code = run_tui(lambda: settings, follow, args) if has_tui else 0
            emit(data, False, command.text)  # after the TUI: how to reach its store again
            return code
        emit(data, as_json, command.text)
        sys.stdout.flush()  # a closed pipe fails here, inside the handlers below
        return 0
    except AmemError as exc:
        return fail(str(exc), exc.exit_code, error_kind(exc), exc)
    except KeyboardInterrupt:
        return fail("interrupted", 130, "interrupted")
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as shell tools do.
        _silence_stdout()
        return 141
    except OSError as exc:  # files and sockets under the store
        if os.environ.get("AMEM_DEBUG"):
            raise
        return fail(f"store unavailable: {exc.strerror or exc}", 5, "store_unavailable")
    except Exception as exc:  # the last line of defence: one line, never a traceback
        invalid = invalid_value(exc)
        if invalid is not None:
            return fail(invalid, 2, "invalid_input")
        if os.environ.get("AMEM_DEBUG"):
            raise
        reason = sanitize(str(exc).strip().splitlines()[0] if str(exc).strip() else "")
        message = f"unexpected error ({type(exc).__name__}: {reason}); "
        message += "set AMEM_DEBUG=1 to see where"
        return fail(message, 1, "unexpected_error")
    finally:
        if ctx is not None:
            with contextlib.suppress(Exception):  # an error while closing must not mask the answer
                ctx.close()
