"""The footer: the keys that matter where the focus is, as many as fit the width.

Textual's footer lists every shown binding and lets the ones that do not fit run
under the command-palette key (and, drawn one column short of the edge, peek out
after it). This one asks the screen which keys to offer for the width it has
(``FooterChooser.footer_bindings``), so nothing is ever cut or left behind. Its
keys (``ChosenKey``) look as Textual's compact footer draws its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

from rich.text import Text
from textual.widget import Widget
from textual.widgets import Footer

if TYPE_CHECKING:
    from textual.app import ComposeResult
    from textual.binding import Binding
    from textual.events import Resize
    from textual.screen import Screen

#: Cells the command-palette key takes (its left bar, "^p", a space, "palette").
PALETTE_WIDTH = 11


@runtime_checkable
class FooterChooser(Protocol):
    """A screen that chooses its footer keys."""

    def footer_bindings(self, width: int) -> list[tuple[Binding, bool, str]]:
        """(binding, enabled, tooltip) to show in ``width`` cells, in footer order."""
        ...


class ChosenKey(Widget):
    """One key of the footer: its key, then what it does; a click presses it."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {"footer-key--key", "footer-key--description"}
    DEFAULT_CSS = """
    ChosenKey {
        width: auto;
        height: 1;
        text-wrap: nowrap;
        margin-right: 1;
        background: $footer-item-background;
        .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .footer-key--description {
            padding: 0 0 0 1;
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        &:hover {
            pointer: pointer;
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        &.-disabled { text-style: dim; }
        &.-command-palette {
            dock: right;
            margin-right: 0;
            border-left: vkey $foreground 20%;
        }
    }
    """

    def __init__(
        self, binding: Binding, key_display: str, enabled: bool, tooltip: str, classes: str = ""
    ) -> None:
        super().__init__(classes=f"{classes} -disabled" if not enabled else classes)
        self.key = binding.key
        self.key_display = key_display
        self.description = binding.description
        self.enabled = enabled
        self.set_reactive(Widget.shrink, False)
        if tooltip:
            self.tooltip = tooltip

    def render(self) -> Text:
        """The key in its style, a space, the description in its own."""
        key = (self.key_display, self.get_component_rich_style("footer-key--key"))
        if not self.description:
            text = Text.assemble(key)
        else:
            padding = self.get_component_styles("footer-key--description").padding
            description = " " * padding.left + self.description + " " * padding.right
            text = Text.assemble(
                key, (description, self.get_component_rich_style("footer-key--description"))
            )
        text.stylize_before(self.rich_style)
        return text

    def on_mouse_down(self) -> None:
        """A click presses the key (a dimmed one only rings)."""
        if self.enabled:
            self.app.simulate_key(self.key)
        else:
            self.app.bell()


class KeyFooter(Footer):
    """A compact footer whose keys the screen chooses for the width."""

    def __init__(self) -> None:
        super().__init__(compact=True)
        self.keys_ready = False  # the screen's bindings are known (Textual says when)
        self.drawn_width = 0

    def bindings_changed(self, screen: Screen[object]) -> None:
        """The screen's bindings changed: its keys can be chosen (then drawn again)."""
        self.keys_ready = True
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        """The chosen keys, then the command palette's key at the right edge."""
        screen = self.screen
        if not isinstance(screen, FooterChooser):
            yield from super().compose()
            return
        if not self.keys_ready:
            return
        width = self.size.width or self.app.size.width
        self.drawn_width = width
        for binding, enabled, tooltip in screen.footer_bindings(width - PALETTE_WIDTH):
            yield ChosenKey(binding, self.app.get_key_display(binding), enabled, tooltip)
        palette = screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if palette is not None and self.app.ENABLE_COMMAND_PALETTE:
            binding = palette.binding
            yield ChosenKey(
                binding,
                self.app.get_key_display(binding),
                palette.enabled,
                binding.tooltip or binding.description,
                classes="-command-palette",
            )

    def on_resize(self, event: Resize) -> None:
        """Choose the keys again for the new width."""
        if event.size.width != self.drawn_width and self.keys_ready:
            self.call_after_refresh(self.recompose)
