"""The footer: the keys that matter where the focus is, as many as fit the width.

Textual's footer lists every shown binding and lets the ones that do not fit run
under the command-palette key (and, drawn one column short of the edge, peek out
after it). This one asks the screen which keys to offer for the width it has
(``FooterChooser.footer_bindings``), so nothing is ever cut or left behind. Its
keys look as Textual's compact footer draws its own.

It is one line, drawn whole: a focus change changes the keys, and a footer of one
widget per key (as Textual's is) laid the screen out twice and drew it again on each
focus change, which a key typed right after ``/`` waited for (docs/performance.md,
"Footer"). Keys that did not change leave it as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.binding import Binding
    from textual.screen import Screen

#: Cells the command-palette key takes (its left bar, "^p", a space, "palette").
PALETTE_WIDTH = 11
#: The bar left of the command-palette key (Textual's ``vkey`` border).
PALETTE_BAR = "▏"


@runtime_checkable
class FooterChooser(Protocol):
    """A screen that chooses its footer keys."""

    def footer_bindings(self, width: int) -> list[tuple[Binding, bool, str]]:
        """(binding, enabled, tooltip) to show in ``width`` cells, in footer order."""
        ...


@dataclass(frozen=True)
class KeyShown:
    """What one footer key shows: its key, how it reads, what it does, whether it is
    on, its tooltip, and whether it is the command palette's (at the right edge)."""

    key: str
    key_display: str
    description: str
    enabled: bool
    tooltip: str
    palette: bool = False

    @property
    def width(self) -> int:
        """The cells it takes, without the gap after it (and the palette's bar)."""
        described = 1 + cell_len(self.description) if self.description else 0
        return cell_len(self.key_display) + described


@dataclass(frozen=True)
class PlacedKey:
    """A key and the columns it takes in the footer (``end`` excluded)."""

    start: int
    end: int
    shown: KeyShown


class KeyFooter(Widget):
    """A compact footer whose keys the screen chooses for the width; a click on a key
    presses it (a dimmed one only rings), and hovering one shows its tooltip."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "footer-key--item",
        "footer-key--key",
        "footer-key--description",
        "footer-key--bar",
        "footer-key--hover",
    }
    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        .footer-key--item { background: $footer-item-background; }
        .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .footer-key--bar { color: $foreground 20%; background: $footer-item-background; }
        .footer-key--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
    }
    """

    #: The keys on show, in order (the palette's last).
    keys: reactive[tuple[KeyShown, ...]] = reactive(())
    #: The key under the mouse (None: none).
    hovered: reactive[KeyShown | None] = reactive(None)

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self.call_after_refresh(self.show_keys)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        """The screen's bindings changed: the keys are chosen again once the focus
        change that changed them is drawn."""
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self.call_after_refresh(self.show_keys)

    def chosen(self, width: int) -> tuple[KeyShown, ...]:
        """The keys to show for the screen's bindings in ``width`` cells."""
        screen, display = self.screen, self.app.get_key_display
        if isinstance(screen, FooterChooser):
            offered = screen.footer_bindings(width - PALETTE_WIDTH)
        else:  # a screen that does not choose: its shown keys, while they fit
            offered = [
                (bound.binding, bound.enabled, bound.tooltip)
                for key, bound in screen.active_bindings.items()
                if bound.binding.show and key != self.app.COMMAND_PALETTE_BINDING
            ]
        keys = [
            KeyShown(binding.key, display(binding), binding.description, enabled, tooltip)
            for binding, enabled, tooltip in offered
        ]
        palette = screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if palette is not None and self.app.ENABLE_COMMAND_PALETTE:
            binding = palette.binding
            tooltip = binding.tooltip or binding.description
            shown = KeyShown(
                binding.key, display(binding), binding.description, palette.enabled, tooltip, True
            )
            keys.append(shown)
        return tuple(keys)

    def show_keys(self) -> None:
        """Choose the keys for the screen's bindings and the footer's width now."""
        if self.is_attached:
            self.keys = self.chosen(self.size.width or self.app.size.width)

    def on_resize(self) -> None:
        """Choose the keys again for the new width."""
        self.call_after_refresh(self.show_keys)

    def placed(self) -> list[PlacedKey]:
        """Where each key is drawn: from the left, one cell apart, the palette's at the
        right edge after its bar; a key that would run into it is left out."""
        width = self.size.width
        palette = next((shown for shown in self.keys if shown.palette), None)
        right = width - (palette.width + 1 if palette is not None else 0)
        placed, x = [], 0
        for shown in self.keys:
            if shown.palette:
                continue
            if x + shown.width > right:
                break
            placed.append(PlacedKey(x, x + shown.width, shown))
            x += shown.width + 1
        if palette is not None:
            placed.append(PlacedKey(right + 1, width, palette))
        return placed

    def render(self) -> Text:
        """The keys, each its key then what it does, in the footer's styles."""
        line = Text(no_wrap=True, overflow="crop", end="")
        key_style = self.get_component_rich_style("footer-key--key")
        described = self.get_component_rich_style("footer-key--description")
        item = self.get_component_rich_style("footer-key--item")
        hover = self.get_component_rich_style("footer-key--hover")
        for place in self.placed():
            shown = place.shown
            gap = place.start - line.cell_len
            if shown.palette:
                line.append(" " * (gap - 1))
                line.append(PALETTE_BAR, self.get_component_rich_style("footer-key--bar"))
            else:
                line.append(" " * gap)
            base = item + (hover if shown == self.hovered else Style())
            base += Style(dim=not shown.enabled)
            part = Text.assemble((shown.key_display, key_style))
            if shown.description:
                part.append(" " + shown.description, described)
            part.stylize_before(base)
            line.append_text(part)
        return line

    def key_at(self, x: int) -> KeyShown | None:
        """The key drawn at column ``x`` (None: a gap)."""
        return next((p.shown for p in self.placed() if p.start <= x < p.end), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.hovered = self.key_at(event.x)

    def on_leave(self) -> None:
        self.hovered = None

    def watch_hovered(self, hovered: KeyShown | None) -> None:
        """Say what the key under the mouse does, and point at it."""
        self.tooltip = hovered.tooltip or None if hovered is not None else None
        self.styles.pointer = "pointer" if hovered is not None else "default"

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """A click presses the key under it (a dimmed one only rings)."""
        shown = self.key_at(event.x)
        if shown is None:
            return
        if shown.enabled:
            self.app.simulate_key(shown.key)
        else:
            self.app.bell()
