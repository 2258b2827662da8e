"""A one-line text input whose editing keys act in the order they were typed.

Textual inserts a printable key as soon as the input handles it, but runs the
input's own key bindings (Backspace, Ctrl+U, Ctrl+W, the arrows, ...) only once the
key has bubbled up to the app, after the keys queued behind it. In a fast burst,
"Ctrl+U, then a new query" would insert the query and then clear it, and a typo
fixed with Backspace would lose the wrong letter. This input runs each bound key as
it arrives, so a burst edits the text exactly as typed.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class QueryInput(Input):
    """An :class:`~textual.widgets.Input` that handles its bound keys in typing order."""

    async def _on_key(self, event: events.Key) -> None:
        if not event.is_printable:
            for binding in self._bindings.key_to_bindings.get(event.key, ()):
                if self.check_action(binding.action, ()) is False:
                    continue
                event.stop()
                event.prevent_default()
                await self.run_action(binding.action)
                return
        await super()._on_key(event)
