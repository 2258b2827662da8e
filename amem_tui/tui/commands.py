"""Command-palette provider: switch agent, the action table's commands, session keys,
remote embeddings, themes."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from amem_tui.engine import AgentScope, AmemError
from amem_tui.engine.for_apps import agent_from_session_key
from amem_tui.tui.actions import Action, palette_actions, said_off
from amem_tui.tui.messages import ActionRefused
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.header import VIEW_LABELS

if TYPE_CHECKING:
    from textual.dom import DOMNode


#: (title, what it runs, help line) of one palette command.
class Command(NamedTuple):
    """One entry of the palette."""

    title: str
    run: Callable[[], object]
    help: str
    #: Other words people use for it: the palette finds the entry by them too.
    words: str = ""


async def attempt(main: MainScreen, action: Action) -> None:
    """Run ``action`` as its key would, or say why it is off. It runs on its target: a
    pane's action on the pane worked in."""
    if said_off(main, action.action):
        return
    target: DOMNode = main
    if action.target == "app":
        target = main.app
    elif action.target == "pane":
        target = main.panes.pane(main.panes.working)
    elif action.target == "browser":
        target = main.browser
    elif action.target == "search":
        target = main.search_box
    await main.app.run_action(action.action, target)


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
        for scope in main.loader.agents:
            mark = " (current)" if scope == main.scope else ""
            if scope.user is not None:
                view = scope.view or "search"
                title = f"Switch agent: {scope.user} · {scope.agent} · {view} view{mark}"
                help_text = f"read the mem0 user_id {scope.namespace} in {scope.collection}"
            else:
                title = f"Switch agent: {scope.agent} · Mode {scope.mode}{mark}"
                help_text = f"act as {scope.agent} on collection {scope.collection}"
            out.append(Command(title, partial(main.switch_agent, scope), help_text))
        for action, entry in palette_actions():
            reason = main.verdict(action.action).reason
            help_text = f"not available: {reason}" if reason else entry.help
            # attempt, not the binding: a dimmed action still says why it is off.
            out.append(Command(entry.title, partial(attempt, main, action), help_text, entry.words))
        allowed = main.engine.settings.remote_embeddings
        out.append(
            Command(
                f"Remote embeddings: {'stop' if allowed else 'allow'}",
                partial(_toggle_remote_embeddings, main),
                "mem0: embed queries with the plugin's own embedder (Ollama, OpenAI, ...), "
                "which sends them to its endpoint"
                if not allowed
                else "mem0: search by words (or this machine's copy of the model) again",
                "mem0 ollama openai embedder meaning",
            )
        )
        for name in sorted(self.app.available_themes):
            choose = partial(setattr, self.app, "theme", name)
            out.append(Command(f"Theme: {name}", choose, "change the colours"))
        return out

    async def discover(self) -> Hits:
        """The commands shown before anything is typed."""
        for title, run, help_text, _ in self._commands():
            if title.startswith(("Theme:", "Remote embeddings:")):
                continue
            yield DiscoveryHit(Content(title), run, text=title, help=help_text)

    async def search(self, query: str) -> Hits:
        """Commands matching the query; a session key ``agent:<id>:<rest>`` acts as that agent."""
        main = self._main()
        session_key = query.strip()
        agent = agent_from_session_key(session_key)
        if agent and main is not None:
            key = one_line(session_key, 80)
            for title, run, help_text, _ in _session_hits(main, session_key, key, agent):
                yield Hit(1.0, Content(title), run, text=title, help=help_text)
        matcher = self.matcher(query)
        said = query.strip().lower()
        for title, run, help_text, words in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), run, text=title, help=help_text)
            elif said and any(word.startswith(said) for word in words.split()):
                # Found by another word for it: ranked below the titles that match.
                yield Hit(0.5, Content(title), run, text=title, help=help_text)


def _toggle_remote_embeddings(main: MainScreen) -> None:
    """Allow or stop remote embeddings (``--remote-embeddings``), then load the agent
    again: the header and a query in the box follow the new choice."""
    allowed = not main.engine.settings.remote_embeddings
    main.engine.allow_remote_embeddings(allowed)
    said = (
        "Remote embeddings allowed: mem0 queries go to the plugin's embedder"
        if allowed
        else "Remote embeddings stopped: nothing is sent"
    )
    main.app.notify(said, markup=False)
    main.reload_scope()


def _session_hits(main: MainScreen, session_key: str, key: str, agent: str) -> list[Command]:
    """What a session key offers: its agent; on mem0 its memory_search and auto-recall
    views (a subagent's read two namespaces), each labelled."""
    if main.mem0:
        try:
            views = main.engine.session_views(session_key, main.scope)
        except AmemError:  # several users and none chosen yet: the switch will say so
            views = []
        hits: list[Command] = []
        for view in views:
            label = VIEW_LABELS.get(view.view or "search", "view")
            title = f"Act as session key {key} → {one_line(view.agent, 40)} · {label}"
            hits.append(
                Command(
                    title,
                    partial(_switch_to_session_key, main, session_key, view),
                    f"as the OpenClaw mem0 plugin: reads user_id {view.namespace}",
                )
            )
        if hits:
            return hits
    title = f"Act as session key {key} → agent {one_line(agent, 40)}"
    return [
        Command(
            title,
            partial(_switch_to_session_key, main, session_key),
            "resolved as openclaw-amem does: agent:<id>:<rest> gives <id>",
        )
    ]


def _switch_to_session_key(
    main: MainScreen, session_key: str, view: AgentScope | None = None
) -> None:
    """Act as the agent a session key names (``view``: one of the views it reads)."""
    try:
        main.switch_agent(view or main.engine.session_views(session_key, main.scope)[0])
    except AmemError as exc:
        main.post_message(ActionRefused("Rejected", str(exc)))
