"""A run-time trace of the app's messages: which of the project's modules handled each
message, and the chain of handlers that led to it (the handler that posted it, the one
that posted that, ...). A chain that comes back to a module it left is a round trip
(A -> B -> A), and so is a handler that calls back into a module earlier in its chain:
a widget that tells its parent something and is then asked, in answer, about the
thing it just said. Attributes go down and messages go up, so a chain of the
project's widgets only ever climbs.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

import textual
from textual.message import Message
from textual.message_pump import MessagePump

#: The modules (as handlers) a trace follows: the app's own screens and widgets.
FOLLOWED = ("amem_tui.tui.",)
TEXTUAL = Path(textual.__file__).resolve().parent

_chain: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("chain", default=())
#: The message the running pump is on (as the hook last said).
_message: contextvars.ContextVar[Message | None] = contextvars.ContextVar("message", default=None)


@dataclass
class Trace:
    """Every chain of handlers seen, as module names (repeats in a row folded)."""

    chains: list[tuple[str, ...]] = field(default_factory=list)
    #: The chain each message was posted from, by the message's id (the message kept,
    #: so that its id is not reused meanwhile).
    stamps: dict[int, tuple[Message, tuple[str, ...]]] = field(default_factory=dict)

    def chain_of(self, message: Message | None) -> tuple[str, ...]:
        """The chain ``message`` was posted from."""
        return () if message is None else self.stamps.get(id(message), (message, ()))[1]

    def stamp(self, message: Message) -> None:
        """Remember the chain ``message`` is posted from (when first posted): the running
        handler's, or outside the project's handlers (in Textual's own, say a table's key
        handler that posts the row highlighted) the chain of the message being handled."""
        if id(message) not in self.stamps:  # not bubbling on
            chain = _chain.get() or self.chain_of(_message.get())
            self.stamps[id(message)] = (message, chain)

    def dispatching(self, message: Message) -> None:
        """The app's message hook: a pump starts on ``message``, in its own context."""
        _message.set(message)

    def round_trips(self) -> list[tuple[str, ...]]:
        """The chains that return to a module they had left (a call back into a module
        ends a chain with that module)."""
        found = []
        for chain in self.chains:
            seen: list[str] = []
            for module in chain:
                if seen and module == seen[-1]:
                    continue
                if module in seen:
                    found.append(chain)
                    break
                seen.append(module)
        return sorted(set(found))


def _module_of(frame: FrameType) -> str | None:
    """The followed module a frame runs in, if it runs in one."""
    return _followed_module(frame.f_code.co_filename)


@functools.cache
def _followed_module(name: str) -> str | None:
    path = Path(name)
    parts = path.with_suffix("").parts
    if "amem_tui" not in parts:
        return None
    module = ".".join(parts[len(parts) - parts[::-1].index("amem_tui") - 1 :])
    return module if module.startswith(FOLLOWED) else None


def _fold(chain: tuple[str, ...], module: str) -> tuple[str, ...]:
    return chain if chain and chain[-1] == module else (*chain, module)


@contextlib.contextmanager
def traced() -> Iterator[Trace]:
    """Record the chains of handlers while the block runs; the app runs inside it, with
    ``Trace.dispatching`` as its message hook::

        with traced() as trace:
            async with started(app, message_hook=trace.dispatching) as pilot:
                ...

    A message carries the chain of the handler that posted it. The hook, called as a
    message pump starts on a message, says which message its handlers are given; a
    handler of the project's (called by Textual, named for the message or given it)
    runs with the message's chain and its own module, recorded.
    """
    trace = Trace()
    original_post = MessagePump.post_message
    entered: dict[FrameType, contextvars.Token[tuple[str, ...]]] = {}

    def post(pump: MessagePump, message: Message) -> bool:
        trace.stamp(message)
        return original_post(pump, message)

    def calls(frame: FrameType, event: str, arg: object) -> None:
        if event == "return":
            token = entered.pop(frame, None)
            if token is not None:
                with contextlib.suppress(ValueError):  # another context's (not expected)
                    _chain.reset(token)
            return
        if event != "call":
            return
        module = _module_of(frame)
        if module is None:
            return
        message = _message.get()
        if _handles(frame, message):
            handled = _fold(trace.chain_of(message), module)
            trace.chains.append(handled)
            entered[frame] = _chain.set(handled)
            return
        chain = _chain.get()
        if len(chain) >= 2 and module != chain[-1] and module in chain:
            trace.chains.append((*chain, module))

    MessagePump.post_message = post  # type: ignore[method-assign]
    previous = sys.getprofile()
    sys.setprofile(calls)
    try:
        yield trace
    finally:
        sys.setprofile(previous)
        MessagePump.post_message = original_post  # type: ignore[method-assign]


def _handles(frame: FrameType, message: Message | None) -> bool:
    """True when ``frame`` is a handler of ``message`` that Textual called: one named
    for it (``on_...``), or one given it (``@on``)."""
    caller = frame.f_back
    if message is None or caller is None or not _in_textual(caller):
        return False
    code = frame.f_code
    if code.co_name in (message.handler_name, f"_{message.handler_name}"):
        return True
    arguments = code.co_varnames[: code.co_argcount]
    return any(frame.f_locals.get(name) is message for name in arguments[1:])


def _in_textual(frame: FrameType) -> bool:
    return _textual_file(frame.f_code.co_filename)


@functools.cache
def _textual_file(name: str) -> bool:
    return Path(name).resolve().is_relative_to(TEXTUAL)
