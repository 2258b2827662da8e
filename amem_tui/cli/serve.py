"""``serve``: the inspector in a browser, through textual-serve (the ``serve`` extra).

Every browser session runs its own ``amem-tui`` process with the options given here
(store or URL, configuration, agent, read-only, follow); this process only serves the
page and never opens the store. It listens on 127.0.0.1 unless told otherwise:
memory contents are private data, so a non-loopback address needs ``--allow-remote``
and prints a warning. ``serve --read-only`` is the way to share a view.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import os
import shlex
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command, UsageError
from amem_tui.engine import AmemError

if TYPE_CHECKING:
    from amem_tui.cli.context import Context

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: The install command that adds what ``serve`` needs.
INSTALL_HINT = 'pip install "amem-tui[serve]"'
#: The common options a browser session is started with, when given here. Not the
#: URL: it may hold credentials, and a command line is visible to every user of the
#: machine (``ps``); it reaches the sessions in their environment (:func:`session_environment`).
PASSED_OPTIONS = ("store", "config", "collection", "agent", "session_key", "model")


class MissingExtra(AmemError):
    """An optional part of amem-tui is not installed."""


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach (``localhost`` included)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: it may resolve to anything
        return False


def session_environment(args: argparse.Namespace) -> dict[str, str]:
    """What each browser session's environment adds to this process's: the ``--url``
    given here, as ``AMEM_URL`` (secrets such as ``QDRANT_API_KEY`` are inherited as
    they are, never put on a command line)."""
    url = getattr(args, "url", None)
    return {"AMEM_URL": str(url)} if url else {}


@contextlib.contextmanager
def sessions_see(variables: dict[str, str]) -> Iterator[None]:
    """This process's environment with ``variables`` set while it serves: textual-serve
    starts each session with a copy of it (this process never opens the store). A
    ``--url`` replaces ``AMEM_STORE`` there, as a flag beats the environment."""
    saved = dict(os.environ)
    if "AMEM_URL" in variables:
        os.environ.pop("AMEM_STORE", None)
    os.environ.update(variables)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def session_command(args: argparse.Namespace) -> str:
    """The shell command each browser session runs: this interpreter, this package, and
    the options given to ``serve`` but the URL (:func:`session_environment`)."""
    argv = [sys.executable, "-m", "amem_tui"]
    for name in PASSED_OPTIONS:
        value = getattr(args, name, None)
        if value:
            argv += [f"--{name.replace('_', '-')}", str(value)]
    if getattr(args, "read_only", False):
        argv.append("--read-only")
    if getattr(args, "follow", False):
        argv.append("--follow")
    return shlex.join(argv)


def serve_arguments(parser: argparse.ArgumentParser) -> None:
    """``serve [--host H] [--port N] [--allow-remote] [--public-url URL] [--follow]``."""
    parser.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})"
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a non-loopback --host: anyone who reaches it sees the memory",
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers use to reach this server (default http://HOST:PORT)",
    )
    parser.add_argument(
        "--follow", action="store_true", default=argparse.SUPPRESS, help="sessions start following"
    )


def serve(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Serve the inspector until interrupted (Ctrl+C)."""
    host, port = args.host, args.port
    if not 0 < port < 65536:
        raise UsageError(f"--port must be between 1 and 65535, not {port}")
    remote = not is_loopback(host)
    if remote and not args.allow_remote:
        raise UsageError(
            f"--host {host} would let other machines see this memory store (private data); "
            "add --allow-remote to do it anyway, and prefer --read-only"
        )
    try:
        from textual_serve.server import Server
    except ImportError:
        raise MissingExtra(
            f"amem-tui serve needs the optional textual-serve package: {INSTALL_HINT}"
        ) from None
    if remote:
        print(
            f"amem-tui: WARNING: serving on {host}: anyone who can reach port {port} sees "
            "this memory store (private data)"
            + ("" if ctx.settings.read_only else " and can change it; prefer --read-only"),
            file=sys.stderr,
        )
        if not args.public_url:
            print(
                "amem-tui: browsers on other machines also need --public-url "
                f"http://<this machine>:{port} (the page connects back to it)",
                file=sys.stderr,
            )
    elif not ctx.settings.read_only:
        print(
            "amem-tui: browsers can change memory here; --read-only shares a view", file=sys.stderr
        )
    command = session_command(args)
    public = args.public_url or f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{port}"
    with sessions_see(session_environment(args)):
        Server(command, host=host, port=port, title="amem-tui", public_url=public).serve()
    return {"message": "amem-tui serve stopped", "url": public, "command": command}


def serve_text(data: dict[str, Any]) -> str:
    """Says the server stopped."""
    message: str = data["message"]
    return message


COMMANDS: tuple[Command[Any, Any], ...] = (
    Command(
        "serve",
        "the inspector in a browser (textual-serve; 127.0.0.1 unless told otherwise)",
        handler=serve,
        text=serve_text,
        arguments=serve_arguments,
    ),
)
