"""The footer: the keys that matter where the focus is, as many as fit the width.

Textual's footer lists every shown binding and lets the ones that do not fit run
under the command-palette key (and, drawn one column short of the edge, peek out
after it). This one asks the screen which keys to offer for the width it has
(:meth:`FooterChooser.footer_bindings`), so nothing is ever cut or left behind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from textual.widgets import Footer
from textual.widgets._footer import FooterKey

if TYPE_CHECKING:
    from textual.app import ComposeResult
    from textual.binding import Binding
    from textual.events import Resize

#: Cells the command-palette key takes (its left bar, "^p", a space, "palette").
PALETTE_WIDTH = 11


@runtime_checkable
class FooterChooser(Protocol):
    """A screen that chooses its footer keys."""

    def footer_bindings(self, width: int) -> list[tuple[Binding, bool, str]]:
        """(binding, enabled, tooltip) to show in ``width`` cells, in footer order."""
        ...


class KeyFooter(Footer):
    """A compact footer whose keys the screen chooses for the width."""

    DEFAULT_CSS = """
    KeyFooter.-compact FooterKey.-command-palette { margin-right: 0; }
    """

    def __init__(self) -> None:
        super().__init__(compact=True)
        self._drawn_width = 0

    def compose(self) -> ComposeResult:
        """The chosen keys, then the command palette's key at the right edge."""
        screen = self.screen
        if not self._bindings_ready or not isinstance(screen, FooterChooser):
            yield from super().compose()
            return
        width = self.size.width or self.app.size.width
        self._drawn_width = width
        for binding, enabled, tooltip in screen.footer_bindings(width - PALETTE_WIDTH):
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                disabled=not enabled,
                tooltip=tooltip,
            ).data_bind(compact=Footer.compact)
        palette = screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if palette is not None and self.app.ENABLE_COMMAND_PALETTE:
            yield FooterKey(
                palette.binding.key,
                self.app.get_key_display(palette.binding),
                palette.binding.description,
                palette.binding.action,
                classes="-command-palette",
                disabled=not palette.enabled,
                tooltip=palette.binding.tooltip or palette.binding.description,
            )

    def on_resize(self, event: Resize) -> None:
        """Choose the keys again for the new width."""
        if event.size.width != self._drawn_width and self._bindings_ready:
            self.call_after_refresh(self.recompose)
