"""Serving the inspector with textual-serve (the ``serve`` extra): each browser session
runs its own ``amem-tui`` with the command line given here, read-only unless the caller
says otherwise, the store's URL passed in the environment (never on a command line)."""

from __future__ import annotations

import contextlib
import ipaddress
import os
import shlex
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from amem_tui.engine import AmemError

if TYPE_CHECKING:
    from textual_serve.server import Server

#: The install command that adds what serving needs.
INSTALL_HINT = 'pip install "amem-tui[serve]"'


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


def public_address(host: str, port: int, public_url: str | None) -> str:
    """The address browsers use: ``public_url``, else where the server listens."""
    public = public_url or f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{port}"
    return public.rstrip("/")


def risks(host: str, port: int, public_url: str | None, writable: bool) -> list[tuple[str, str]]:
    """What serving so exposes, to say before it starts: (message, kind) each."""
    changes = " and can change it" if writable else ""
    said = []
    if not is_loopback(host):
        said.append(
            (
                f"serving on {host}: anyone who can reach port {port} and has the token sees "
                f"this memory store (private data){changes}",
                "remote_access",
            )
        )
        if not public_url:
            said.append(
                (
                    "browsers on other machines also need --public-url "
                    f"http://<this machine>:{port} (the page connects back to it)",
                    "public_url_needed",
                )
            )
    if writable:
        said.append(("--writable: browsers can change memory here", "writable_sessions"))
    return said


def session_command(arguments: Sequence[str]) -> str:
    """The shell command each browser session runs: ``amem-tui`` with ``arguments``."""
    return shlex.join([sys.executable, "-m", "amem_tui", *arguments])


def inspector_server(command: str, host: str, port: int, public: str, token: str | None) -> Server:
    """textual-serve's server for ``command``, answering only who brings ``token``
    (when given); ``MissingExtra`` without textual-serve."""
    try:
        import textual_serve.server  # noqa: F401 (the extra; before our module, cached or not)
    except ImportError:
        raise MissingExtra(
            f"amem-tui serve needs the optional textual-serve package: {INSTALL_HINT}"
        ) from None
    import amem_tui.web.access as access

    options: dict[str, Any] = {"host": host, "port": port, "title": "amem-tui"}
    options["public_url"] = public
    if token is not None:
        return access.TokenServer(command, token=token, **options)
    return access.QuietServer(command, **options)


@contextlib.contextmanager
def sessions_see(variables: dict[str, str]) -> Iterator[None]:
    """``variables`` set in the environment sessions copy, while serving (an
    ``AMEM_URL`` replaces ``AMEM_STORE``, as a flag beats the environment)."""
    saved = dict(os.environ)
    if "AMEM_URL" in variables:
        os.environ.pop("AMEM_STORE", None)
    os.environ.update(variables)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def serve(server: Server, environment: dict[str, str]) -> None:
    """Serve until interrupted, sessions starting with ``environment`` added to ours."""
    with sessions_see(environment):
        server.serve()
