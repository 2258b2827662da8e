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
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from textual.message import Message
from textual.message_pump import MessagePump

#: The modules (as handlers) a trace follows: the app's own screens and widgets.
FOLLOWED = ("amem_tui.tui.",)

_chain: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("chain", default=())


@dataclass
class Trace:
    """Every chain of handlers seen, as module names (repeats in a row folded)."""

    chains: list[tuple[str, ...]] = field(default_factory=list)

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
    path = Path(frame.f_code.co_filename)
    parts = path.with_suffix("").parts
    if "amem_tui" not in parts:
        return None
    module = ".".join(parts[len(parts) - parts[::-1].index("amem_tui") - 1 :])
    return module if module.startswith(FOLLOWED) else None


def _fold(chain: tuple[str, ...], module: str) -> tuple[str, ...]:
    return chain if chain and chain[-1] == module else (*chain, module)


@contextlib.contextmanager
def traced() -> Iterator[Trace]:
    """Record the chains of handlers while the block runs (the app runs inside it)."""
    trace = Trace()
    original_post = MessagePump.post_message
    original_methods = MessagePump._get_dispatch_methods

    def post(pump: MessagePump, message: Message) -> bool:
        if not hasattr(message, "_trace_chain"):  # posted first: not bubbling on
            message._trace_chain = _chain.get()  # type: ignore[attr-defined]
        return original_post(pump, message)

    def dispatch_methods(pump: MessagePump, method_name: str, message: Message) -> Any:
        chain: tuple[str, ...] = getattr(message, "_trace_chain", ())
        for cls, method in original_methods(pump, method_name, message):
            module = getattr(method, "__module__", "") or ""
            # Textual's own handlers pass the chain on as it came (a key's handler in a
            # DataTable posts the RowHighlighted that the project's pane handles).
            handled = chain
            if module.startswith(FOLLOWED):
                handled = _fold(chain, module)
                trace.chains.append(handled)
            token = _chain.set(handled)
            try:
                yield cls, method
            finally:
                _chain.reset(token)

    def calls(frame: FrameType, event: str, arg: object) -> None:
        if event != "call":
            return
        chain = _chain.get()
        if len(chain) < 2:
            return
        module = _module_of(frame)
        if module is not None and module != chain[-1] and module in chain:
            trace.chains.append((*chain, module))

    MessagePump.post_message = post  # type: ignore[method-assign]
    MessagePump._get_dispatch_methods = dispatch_methods  # type: ignore[method-assign]
    previous = sys.getprofile()
    sys.setprofile(calls)
    try:
        yield trace
    finally:
        sys.setprofile(previous)
        MessagePump.post_message = original_post  # type: ignore[method-assign]
        MessagePump._get_dispatch_methods = original_methods  # type: ignore[method-assign]
