"""Everything the panes show for one agent, read in one go (in a worker thread).

The main screen loads an agent's listings, counts and history together so they are
shown in one frame; this module does the reading and decides what each pane lists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amem_tui.engine import AgentScope, AmemError, InvalidInput
from amem_tui.engine.for_apps import DEFAULT_AGENT
from amem_tui.tui.messages import ScopeData
from amem_tui.tui.widgets.pane_rows import PAGE_SIZE

if TYPE_CHECKING:
    from amem_tui.engine import ConsolidationRun, MemoryEngine
    from amem_tui.engine.for_apps import ListScope

MEM0_HISTORY = (
    "mem0 memories are never consolidated here: amem-tui reads a mem0 collection "
    "and never writes it."
)


#: The header's word on searches that do not rank exactly as the agent's own.
SEARCH_NOTES = {"approximate": "meaning approximate", "words only": "search by words only"}


def resolve_scope(
    engine: MemoryEngine, wanted: AgentScope | str | None
) -> tuple[AgentScope, str | None]:
    """The scope to show for ``wanted``, and a notice when it is another one.

    A mem0 collection holding several users, with none chosen, has no scope of its
    own (the engine names the users): the first user's view of the agent is shown
    (main's, if the agent is not named), and the notice says so.
    """
    if isinstance(wanted, AgentScope):
        return wanted, None
    try:
        return (engine.scope(wanted) if wanted else engine.scope()), None
    except InvalidInput as exc:
        choices = [s for s in engine.agents() if s.user is not None and s.view == "search"]
        if not choices:
            raise
        agent = wanted or DEFAULT_AGENT
        first = next((s for s in choices if s.agent == agent), choices[0])
        notice = (
            f"{exc}. Showing user {first.user}, agent {first.agent}: press s to choose "
            "another user and agent."
        )
        return first, notice


def listing_of(scope: AgentScope, mem0: bool) -> ListScope:
    """What the first pane lists: the agent's private notes, or (Mode B, mem0) all it sees."""
    return "visible" if mem0 or scope.mode == "B" else "private"


def private_title(scope: AgentScope, mem0: bool) -> str:
    """The first pane's title: the agent's private notes, its collection, or its memories."""
    if mem0:
        who = f"{scope.user} · {scope.agent}" if scope.user else scope.agent
        return f"Memories · {who}"
    if scope.mode == "B":
        return f"Collection · {scope.agent} (Mode B)"
    return f"Private · {scope.agent}"


def no_shared_reason(scope: AgentScope, mem0: bool) -> str:
    """Why the Shared pane is empty for this agent (Mode B, or mem0)."""
    if mem0:
        return (
            "mem0 has no shared scope: the OpenClaw mem0 plugin keeps each agent's "
            f"memories in its own user_id ({scope.namespace or 'none chosen'}), and "
            "nothing is shared between them."
        )
    return (
        f"{scope.agent} is a Mode B agent: it has its own collection "
        f"({scope.collection}) and no shared scope. It neither reads nor "
        "publishes shared notes."
    )


def load_scope_data(
    engine: MemoryEngine, scope: AgentScope, show_deleted: bool, notice: str | None = None
) -> ScopeData:
    """The listings, counts and history of ``scope``, read from the store."""
    view = engine.agent(scope)
    mem0 = view.format == "mem0"
    listing = listing_of(scope, mem0)
    shares = scope.has_shared_scope and not mem0
    private = view.list_notes(listing, limit=PAGE_SIZE, include_inactive=show_deleted)
    shared = (
        view.list_notes("shared", limit=PAGE_SIZE, include_inactive=show_deleted)
        if shares
        else None
    )
    counts = {
        "private": view.count(listing),
        "shared": view.count("shared") if shares else 0,
        "visible": view.count("visible"),
        # Read by id only, never found by its searches: counted apart, never in visible.
        "get_only": view.count("get_only") if shares else 0,
    }
    deleted = {"private": max(private.total - counts["private"], 0) if show_deleted else 0}
    if shared is not None and show_deleted:
        deleted["shared"] = max(shared.total - counts["shared"], 0)
    history: list[ConsolidationRun] | None = None
    history_error: str | None = None
    if mem0:
        history_error = MEM0_HISTORY
    else:
        try:
            history = view.history()
        except AmemError as exc:  # the panes still show; the history pane says why
            history_error = str(exc)
    refusal: str | None = None
    if not engine.read_only:
        try:
            engine.check_writable(scope.collection)
        except AmemError as exc:
            refusal = str(exc)
    exists = view.collection_exists()
    settings = engine.settings
    try:
        verdict = view.query_embedding().verdict
    except AmemError:  # the search says why when it runs
        verdict = "exact"
    search_note = SEARCH_NOTES.get(verdict, "")
    default_store = settings.url is None and settings.store_path is None
    return ScopeData(
        scope=scope,
        private=private,
        shared=shared,
        history=history,
        counts=counts,
        collection_exists=exists,
        empty_default_store=default_store and not exists and counts["visible"] == 0,
        history_error=history_error,
        mem0=mem0,
        collection_refusal=refusal,
        deleted=deleted,
        notice=notice,
        shares=shares,
        search_note=search_note,
    )
