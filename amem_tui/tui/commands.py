"""Command-palette provider: switch agent, act, consolidate, session keys, themes."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from amem_tui.engine.scope import agent_from_session_key
from amem_tui.tui.text import one_line


class AmemCommands(Provider):
    """Everything the main screen can do, by name."""

    def _main(self) -> object | None:
        from amem_tui.tui.screens.main import MainScreen

        for screen in reversed(self.app.screen_stack):
            if isinstance(screen, MainScreen):
                return screen
        return None

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        from amem_tui.tui.screens.main import MainScreen

        main = self._main()
        if not isinstance(main, MainScreen):
            return []
        out: list[tuple[str, Callable[[], object], str]] = []
        current = main.scope.agent if main.scope else None
        for scope in main.agents:
            mark = " (current)" if scope.agent == current else ""
            out.append(
                (
                    f"Switch agent: {scope.agent} · Mode {scope.mode}{mark}",
                    partial(main.switch_agent, scope.agent),
                    f"act as {scope.agent} on collection {scope.collection}",
                )
            )
        actions = [
            ("publish", "Publish the selected note", "share it with every Mode A agent"),
            ("unpublish", "Unpublish the selected note", "make it private to its owner"),
            ("add", "Add a note", "write a private or shared note"),
            ("edit", "Edit the selected note", "change its content or tags"),
            ("delete", "Soft-delete the selected note", "is_active=false; can be restored"),
            ("restore", "Restore the selected note", "undo a soft delete"),
            ("consolidate", "Consolidate this agent", "preview merges, then apply"),
            ("undo", "Undo the selected consolidation run", "from the history pane"),
            ("toggle_deleted", "Show or hide soft-deleted notes", "include is_active=false"),
            ("toggle_hidden", "Show or hide hidden matches", "close matches this agent cannot see"),
            ("focus_search", "Search as this agent", "live search in the search box"),
            ("audit", "Audit the store", "shared notes, readers, malformed points, links"),
        ]
        for action, title, help_text in actions:
            reason = main.disabled_reason(action)
            if reason:
                help_text = f"not available: {reason}"
            out.append((title, getattr(main, f"action_{action}"), help_text))
        for name in sorted(self.app.available_themes):
            out.append(
                (f"Theme: {name}", partial(setattr, self.app, "theme", name), "change the colours")
            )
        return out

    async def discover(self) -> Hits:
        """The commands shown before anything is typed."""
        for title, callback, help_text in self._commands():
            if title.startswith("Theme:"):
                continue
            yield DiscoveryHit(Content(title), callback, text=title, help=help_text)

    async def search(self, query: str) -> Hits:
        """Commands matching the query; a session key ``agent:<id>:<rest>`` acts as that agent."""
        from amem_tui.tui.screens.main import MainScreen

        main = self._main()
        agent = agent_from_session_key(query.strip())
        if agent and isinstance(main, MainScreen):
            key = one_line(query.strip(), 80)
            title = f"Act as session key {key} → agent {one_line(agent, 40)}"
            yield Hit(
                1.0,
                Content(title),
                partial(main.switch_to_session_key, query.strip()),
                text=title,
                help="resolved as openclaw-amem does: agent:<id>:<rest> gives <id>",
            )
        matcher = self.matcher(query)
        for title, callback, help_text in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, text=title, help=help_text)
