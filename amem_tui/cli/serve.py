"""``serve``: the inspector in a browser (``amem_tui.web``), read-only unless
``--writable``, on 127.0.0.1 unless ``--allow-remote`` (then with a token)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command, Context, UsageError
from amem_tui.cli.options import SPEC, flag, option
from amem_tui.cli.output import tell

if TYPE_CHECKING:
    from amem_tui.cli.options import CommonOptions

#: Not passed on a session's command line: the URL may hold credentials, and ``ps``
#: shows command lines to everyone (it goes in the environment instead).
NOT_PASSED = ("command", "url")


@dataclass(frozen=True)
class ServeOptions:
    """``serve``'s own arguments."""

    host: str = option("--host", default="127.0.0.1", help="address to listen on")
    port: int = option("--port", default=8000, within=(1, 65535), help="port")
    allow_remote: bool = flag("--allow-remote", help="allow a non-loopback --host, with a token")
    public_url: str | None = option("--public-url", metavar="URL", help="the URL browsers use")
    writable: bool = flag("--writable", help="let browsers change memory")


def session_arguments(options: CommonOptions, writable: bool = False) -> list[str]:
    """What each browser session is given: the scope given to ``serve``, ``--read-only``
    unless ``writable``, and ``--follow``."""
    argv = []
    for item in dataclasses.fields(options):
        value = getattr(options, item.name)
        if isinstance(value, str) and value and item.name not in NOT_PASSED:
            argv += [item.metadata[SPEC].flags[0], value]
    if not writable:
        argv.append("--read-only")
    elif options.new_agent:
        argv.append("--new-agent")
    return argv + (["--follow"] if options.follow else [])


def _check(ctx: Context, args: ServeOptions) -> None:
    """Refuse what ``serve`` must not do."""
    from amem_tui.web.server import is_loopback

    if not is_loopback(args.host) and not args.allow_remote:
        raise UsageError(
            f"--host {args.host} would let other machines see this memory store (private "
            "data); add --allow-remote to do it anyway (every request then needs a token)"
        )
    if args.writable and ctx.settings.read_only:
        raise UsageError("serve --writable contradicts --read-only (or AMEM_READ_ONLY): choose one")


@Command("serve", itemgetter("message"), ServeOptions, follow="sessions start following")
def serve(ctx: Context, args: ServeOptions) -> dict[str, Any]:
    """The inspector in a browser, read-only unless --writable (textual-serve)."""
    import amem_tui.web.server as web
    from amem_tui.web.token import address_to_open, new_token

    _check(ctx, args)
    host, port = args.host, args.port
    public = web.public_address(host, port, args.public_url)
    command = web.session_command(session_arguments(ctx.options, args.writable))
    token = new_token() if args.allow_remote else None
    server = web.inspector_server(command, host, port, public, token)
    for message, kind in web.risks(host, port, args.public_url, args.writable):
        ctx.warn(message, kind)
    # Printed once, here: the token is nowhere else (not in the answer below).
    listening, url = f"http://{host}:{port}", address_to_open(public, token)
    said = {"listening": listening, "open": url, "token_required": token is not None}
    how = "requests without this token get 401" if token else "Ctrl+C stops it"
    tell("serving", said, f"serving on {listening}; open {url} ({how})", ctx.as_json)
    # A --url reaches the sessions in the environment, never on a command line.
    web.serve(server, {"AMEM_URL": ctx.options.url} if ctx.options.url else {})
    return {"message": "amem-tui serve stopped", "url": public, "command": command}
