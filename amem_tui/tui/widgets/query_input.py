"""A one-line text input whose editing keys act in the order they were typed.

Textual inserts a printable key as soon as the input handles it, but runs the
input's own key bindings (Backspace, Ctrl+U, Ctrl+W, the arrows, ...) only once the
key has bubbled up to the app, after the keys queued behind it. In a fast burst,
"Ctrl+U, then a new query" would insert the query and then clear it, and a typo
fixed with Backspace would lose the wrong letter. This input runs each of its bound
keys as it arrives, so a burst edits the text exactly as typed.
"""

from __future__ import annotations

from textual import events
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input


class QueryInput(Input):
    """An ``Input`` that handles its bound keys in typing order."""

    # The input's size never follows its text (its width and height are set), so the
    # text's width needs a repaint, not a layout of the whole screen on every key.
    virtual_size: Reactive[Size] = Reactive(Size(0, 0))

    async def on_key(self, event: events.Key) -> None:
        """Run the input's own binding for a non-printable key at once."""
        if event.is_printable:
            return  # inserted by the input itself, in order
        # The binding the key would reach (a user's keymap applied), if it is the input's.
        active = self.screen.active_bindings.get(event.key)
        if active is None or active.node is not self:
            return
        event.stop()
        event.prevent_default()  # not again on the way up
        await self.run_action(active.binding.action)
