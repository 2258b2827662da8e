"""``serve``: the inspector in a browser, through textual-serve (the ``serve`` extra).

Each browser session runs its own ``amem-tui`` in the scope given here; this process
never opens the store. Read-only unless ``--writable``, on 127.0.0.1 unless
``--allow-remote`` (then with a token: ``serve_access``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import ipaddress
import os
import shlex
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command, UsageError
from amem_tui.cli.options import flag, option
from amem_tui.cli.output import tell
from amem_tui.engine import AmemError

if TYPE_CHECKING:
    from amem_tui.cli.context import Context
    from amem_tui.cli.options import CommonOptions

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: The install command that adds what ``serve`` needs.
INSTALL_HINT = 'pip install "amem-tui[serve]"'
#: Not passed on a session's command line: the URL may hold credentials, and ``ps``
#: shows command lines to everyone (it goes in the environment instead).
NOT_PASSED = ("command", "url")


class MissingExtra(AmemError):
    """An optional part of amem-tui is not installed."""


@dataclass(frozen=True)
class ServeOptions:
    """``serve``'s own arguments."""

    host: str = option("--host", default=DEFAULT_HOST, help="address to listen on")
    port: int = option("--port", default=DEFAULT_PORT, help="port")
    allow_remote: bool = flag("--allow-remote", help="allow a non-loopback --host, with a token")
    public_url: str | None = option("--public-url", metavar="URL", help="the URL browsers use")
    writable: bool = flag("--writable", help="let browsers change memory")


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach (``localhost`` included)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: it may resolve to anything
        return False


def session_environment(options: CommonOptions) -> dict[str, str]:
    """What each session's environment adds to this process's: ``--url`` as ``AMEM_URL``."""
    return {"AMEM_URL": options.url} if options.url else {}


@contextlib.contextmanager
def sessions_see(variables: dict[str, str]) -> Iterator[None]:
    """``variables`` set in the environment sessions copy, while serving (a ``--url``
    replaces ``AMEM_STORE``, as a flag beats the environment)."""
    saved = dict(os.environ)
    if "AMEM_URL" in variables:
        os.environ.pop("AMEM_STORE", None)
    os.environ.update(variables)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def session_command(options: CommonOptions, writable: bool = False) -> str:
    """The shell command each browser session runs: the scope given to ``serve``,
    ``--read-only`` unless ``writable``, and ``--follow``."""
    argv = [sys.executable, "-m", "amem_tui"]
    for item in dataclasses.fields(options):
        value = getattr(options, item.name)
        if isinstance(value, str) and value and item.name not in NOT_PASSED:
            argv += [f"--{item.name.replace('_', '-')}", value]
    if not writable:
        argv.append("--read-only")
    elif options.new_agent:
        argv.append("--new-agent")
    if options.follow:
        argv.append("--follow")
    return shlex.join(argv)


def _check(ctx: Context, args: ServeOptions) -> bool:
    """Refuse what ``serve`` must not do; True when it serves beyond this machine."""
    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be between 1 and 65535, not {args.port}")
    remote = not is_loopback(args.host)
    if remote and not args.allow_remote:
        raise UsageError(
            f"--host {args.host} would let other machines see this memory store (private "
            "data); add --allow-remote to do it anyway (every request then needs a token)"
        )
    if args.writable and ctx.settings.read_only:
        raise UsageError("serve --writable contradicts --read-only (or AMEM_READ_ONLY): choose one")
    return remote


def serve(ctx: Context, args: ServeOptions) -> dict[str, Any]:
    """The inspector in a browser, read-only unless --writable (textual-serve)."""
    remote = _check(ctx, args)
    host, port = args.host, args.port
    try:
        from textual_serve.server import Server
    except ImportError:
        raise MissingExtra(
            f"amem-tui serve needs the optional textual-serve package: {INSTALL_HINT}"
        ) from None
    import amem_tui.cli.serve_access as serve_access

    public = args.public_url or f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{port}"
    public = public.rstrip("/")
    changes = " and can change it" if args.writable else ""
    if remote:
        ctx.warn(
            f"serving on {host}: anyone who can reach port {port} and has the token sees "
            f"this memory store (private data){changes}",
            "remote_access",
        )
        if not args.public_url:
            ctx.warn(
                "browsers on other machines also need --public-url "
                f"http://<this machine>:{port} (the page connects back to it)",
                "public_url_needed",
            )
    if args.writable:
        ctx.warn("--writable: browsers can change memory here", "writable_sessions")
    command = session_command(ctx.options, args.writable)
    options: dict[str, Any] = {"host": host, "port": port, "title": "amem-tui"}
    options["public_url"] = public
    token = serve_access.new_token() if args.allow_remote else None
    # Printed once, here: the token is nowhere else (not in the answer below).
    _say_serving(f"http://{host}:{port}", public, token, ctx.as_json)
    if token is not None:
        server: Server = serve_access.TokenServer(command, token=token, **options)
    else:
        server = serve_access.QuietServer(command, **options)
    with sessions_see(session_environment(ctx.options)):
        server.serve()
    return {"message": "amem-tui serve stopped", "url": public, "command": command}


def _say_serving(listening: str, public: str, token: str | None, as_json: bool) -> None:
    """On stderr, where the server listens and the address to open (with its token)."""
    from amem_tui.cli.serve_access import TOKEN_PARAMETER

    url = f"{public}/?{TOKEN_PARAMETER}={token}" if token else public
    said = {"listening": listening, "open": url, "token_required": token is not None}
    how = "requests without this token get 401" if token else "Ctrl+C stops it"
    tell("serving", said, f"serving on {listening}; open {url} ({how})", as_json)


COMMANDS: tuple[Command[Any, Any], ...] = (
    Command("serve", serve, itemgetter("message"), ServeOptions, follow="sessions start following"),
)
