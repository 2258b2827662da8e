"""``main``: parse the command line, run one subcommand (or open the TUI), print its
answer, and turn every failure into one line on stderr and an exit code."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
from collections.abc import Sequence

from pydantic import ValidationError

from amem_tui.cli.command import FailedWithReport
from amem_tui.cli.context import Context, settings_from_args
from amem_tui.cli.output import emit, sanitize
from amem_tui.cli.parser import COMMANDS, build_parser
from amem_tui.config import Settings
from amem_tui.engine.errors import AmemError


def run_tui(settings: Settings, follow: bool = False) -> int:
    """Open the Textual inspector (imported only here, so headless use stays light);
    ``follow`` starts it in follow mode."""
    try:
        from amem_tui.tui.app import run
    except ImportError:
        print("amem-tui: the TUI is not available in this build", file=sys.stderr)
        return 0
    return run(settings, follow=follow)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _fail(message: str, code: int) -> int:
    """Report an error as one line on stderr and return its exit code."""
    line = " ".join(sanitize(message).split())
    print(f"amem-tui: {line}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``amem-tui`` and ``python -m amem_tui``.

    Every failure ends as one line on stderr and an exit code, never a traceback
    (set ``AMEM_DEBUG=1`` to see the traceback of an unexpected error).
    """
    import warnings

    if not os.environ.get("AMEM_DEBUG"):  # library warnings would add stray stderr lines
        warnings.simplefilter("ignore")
    ctx: Context | None = None
    try:
        args = build_parser().parse_args(argv)
        settings = settings_from_args(args)
        follow = bool(getattr(args, "follow", False))
        if args.command is None:
            return run_tui(settings, follow)
        ctx = Context(settings)
        command = COMMANDS[args.command]
        as_json = bool(getattr(args, "json", False))
        try:
            data = command.handler(ctx, args)
        except FailedWithReport as failure:
            emit(failure.report, as_json, command.text)
            raise failure.error from None
        if isinstance(data, dict) and data.get("open_tui"):
            ctx.close()
            ctx = None
            if importlib.util.find_spec("amem_tui.tui") is None:
                emit(data, False, command.text)  # no TUI in this build: say what was done
            return run_tui(settings, follow)
        emit(data, as_json, command.text)
        sys.stdout.flush()  # a closed pipe fails here, inside the handlers below
        return 0
    except AmemError as exc:
        return _fail(str(exc), exc.exit_code)
    except ValidationError as exc:  # a value a model refuses: rejected input
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        return _fail(f"invalid value{' for ' + field if field else ''}: {first['msg']}", 2)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as shell tools do.
        _silence_stdout()
        return 141
    except OSError as exc:  # files and sockets under the store
        if os.environ.get("AMEM_DEBUG"):
            raise
        return _fail(f"store unavailable: {exc.strerror or exc}", 5)
    except Exception as exc:  # the last line of defence: one line, never a traceback
        if os.environ.get("AMEM_DEBUG"):
            raise
        reason = sanitize(str(exc).strip().splitlines()[0] if str(exc).strip() else "")
        print(
            f"amem-tui: unexpected error ({type(exc).__name__}: {reason}); "
            "set AMEM_DEBUG=1 to see where",
            file=sys.stderr,
        )
        return 1
    finally:
        if ctx is not None:
            with contextlib.suppress(Exception):  # an error while closing must not mask the answer
                ctx.close()
