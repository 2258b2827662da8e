"""Command-palette provider: switch agent, the action table's commands, session keys, themes."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from amem_tui.engine.scope import agent_from_session_key
from amem_tui.tui.actions import palette_actions
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.text import one_line

#: (title, what it runs, help line) of one palette command.
Command = tuple[str, Callable[[], object], str]


class AmemCommands(Provider):
    """Everything the main screen can do, by name."""

    def _main(self) -> MainScreen | None:
        for screen in reversed(self.app.screen_stack):
            if isinstance(screen, MainScreen):
                return screen
        return None

    def _commands(self) -> list[Command]:
        main = self._main()
        if main is None:
            return []
        out: list[Command] = []
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
        for action, entry in palette_actions():
            reason = main.disabled_reason(action.action)
            help_text = f"not available: {reason}" if reason else entry.help
            # run_action, not the binding: a dimmed action still says why it is off.
            out.append((entry.title, partial(main.run_action, action.action), help_text))
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
        main = self._main()
        agent = agent_from_session_key(query.strip())
        if agent and main is not None:
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
