"""``main``: parse the command line, run one subcommand (or open the TUI), print its
answer, and turn every failure into one line on stderr and an exit code."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, TextIO

from amem_tui.cli.options import CommonOptions, options_from, tui_options
from amem_tui.engine import AmemError
from amem_tui.paths import missing_folder

if TYPE_CHECKING:
    from amem_tui.cli.command import Context
    from amem_tui.config import Settings

# The settings (pydantic), the engine, the subcommand modules and their parsers are
# imported once a command needs them: the TUI draws its first frame before any of them
# is loaded (a line without a subcommand is read with the common options alone).


def run_tui(options: CommonOptions, settings: Settings | None = None) -> int:
    """Open the Textual inspector, which reads the settings ``options`` name after its
    first frame, unless given them (in follow mode with ``--follow``)."""
    folder = missing_folder(options.store_path)
    if folder is not None:  # a mistyped --store: never made empty
        from amem_tui.cli.command import missing_store

        raise missing_store(folder)
    try:
        from amem_tui.tui.launch import run
    except ImportError:
        print("amem-tui: the TUI is not available in this build", file=sys.stderr)
        return 0
    hint = options.store_hint
    open_settings = options.settings if settings is None else lambda: settings
    return run(open_settings, follow=options.follow, agent_hint=options.agent, store_hint=hint)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


@contextlib.contextmanager
def answers_only() -> Iterator[TextIO]:
    """Yield stdout for the answer alone; anything else printed meanwhile goes to stderr."""
    answer = sys.stdout
    sys.stdout = sys.stderr
    try:
        yield answer
    finally:
        sys.stdout = answer


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
    """Entry point of ``amem-tui``: every failure ends as one line on stderr and an exit
    code, never a traceback (unless ``AMEM_DEBUG=1``); stdout holds the answer alone."""
    import warnings

    if not os.environ.get("AMEM_DEBUG"):  # library warnings would add stray stderr lines
        warnings.simplefilter("ignore")
    ctx: Context | None = None
    # Until the command line parses, a literal --json asks for JSON errors.
    as_json = "--json" in (sys.argv[1:] if argv is None else list(argv))

    def fail(message: str, code: int, kind: str, error: AmemError | None = None) -> int:
        from amem_tui.cli.output import report

        facts = error.facts() if error is not None else {}
        report("error", message, as_json, {"kind": kind, "exit_code": code, **facts})
        return code

    try:
        tui = tui_options(sys.argv[1:] if argv is None else argv)
        if tui is not None:
            as_json = tui.json
            return run_tui(tui)
        from amem_tui.cli.command import Context, FailedWithReport, OpenTui
        from amem_tui.cli.output import emit
        from amem_tui.cli.parser import build_parser, commands

        parsed = build_parser().parse_args(argv)
        options = options_from(CommonOptions, parsed)
        as_json = options.json
        if options.command is None:
            return run_tui(options)

        command = commands()[options.command]
        settings = (command.settings or CommonOptions.settings)(options)
        ctx = Context(settings, options, creates=command.creates)
        own = options_from(command.options, parsed)
        with answers_only() as answer:
            try:
                result = command.handler(ctx, own)
            except FailedWithReport as failure:
                emit(failure.report, as_json, command.text, answer)
                raise failure.error from None
            ctx.said_after(command.reads)
            if not isinstance(result, OpenTui):
                emit(result, as_json, command.text, answer)
                answer.flush()  # a closed pipe fails here, inside the handlers below
                return 0
            _close(ctx)  # before the TUI opens the same store
            ctx = None
        code = run_tui(options, result.settings)
        emit(result.then, False, command.text, sys.stdout)  # after the TUI: how to reach it again
        return code
    except AmemError as exc:
        return fail(str(exc), exc.exit_code, exc.kind, exc)
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
        from amem_tui.cli.output import sanitize

        reason = sanitize(str(exc).strip().splitlines()[0] if str(exc).strip() else "")
        message = f"unexpected error ({type(exc).__name__}: {reason}); "
        message += "set AMEM_DEBUG=1 to see where"
        return fail(message, 1, "unexpected_error")
    finally:
        if ctx is not None:
            _close(ctx)
        if argv is None:  # the program itself (callers in-process pass their argv)
            _answer_given()


def _answer_given() -> None:
    """After the answer, whatever still prints (a library thread at shutdown) goes to
    stderr."""
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    sys.stdout = sys.stderr


def _close(ctx: Context) -> None:
    """Close the engine; what that prints goes to stderr, and its errors are dropped."""
    with answers_only(), contextlib.suppress(Exception):
        ctx.close()
