"""A first answer from the saved note index, while the store itself is still opening.

At a million notes Qdrant Edge takes seconds to load a collection's shard (its payload
indexes, id trackers and compact vectors are read whole and the process waits for
it), and the model a second more. The saved note index holds what a keyword search
needs (terms, postings, each note's access fields and its first words) and opens in
milliseconds, since it is mapped and only the pages a query touches are read. So a
query typed at an app's first frame is answered from it at once: by words only, with
the agent's own read rule, marked partial, and searched again in full once the store
is open.

It answers only when it can be exact about what it says: an embedded Edge store, a
collection of openclaw-amem notes that amem-tui made (the format is known without
reading a note), and a saved index of the very write the collection's journal counts
now. Anything else (a server, a mem0 collection, an index a write has overtaken) gives
no early answer; the full search answers as before.
"""

from __future__ import annotations

from dataclasses import dataclass

import amem_tui.engine.index.files as index_files
import amem_tui.engine.scope as rules
from amem_tui.engine.agents import notes_scope
from amem_tui.engine.index.table import NoteIndex, Selection
from amem_tui.engine.keywords import tokenize
from amem_tui.engine.models import NoteAccess
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.search.ranking import MEMORY_SEARCH_LIMIT
from amem_tui.engine.search_results import VisibleBecause
from amem_tui.engine.settings import EngineSettings
from amem_tui.engine.store.base import CREATED_BY
from amem_tui.engine.store.edge_layout import closed_collection, is_edge_store

#: What an early answer leaves out, in the words a status line shows.
EARLY_PARTIAL = "the store is still opening: matched by words in the saved index"


@dataclass(frozen=True)
class EarlyHit:
    """A note the saved index matched: enough to show it, never to act on it."""

    note_id: str
    #: The first words of its content (the index keeps them, not the whole text).
    snippet: str
    agent_id: str | None
    because: VisibleBecause
    #: Its BM25 score among the notes the agent can search.
    score: float


@dataclass(frozen=True)
class EarlyAnswer:
    """What the saved index finds for a query, best first (the ranking of a keyword
    search: BM25 over the notes the agent's searches see)."""

    query: str
    agent: str
    collection: str
    hits: list[EarlyHit]
    #: Why the answer is partial, in words.
    partial: str = EARLY_PARTIAL


class SavedIndexSearch:
    """Keyword searches as one agent on a collection's saved index, the store unopened."""

    def __init__(self, scope: AgentScope, index: NoteIndex) -> None:
        self.scope = scope
        self._index = index
        self._selection: Selection | None = None

    @classmethod
    def open(cls, settings: EngineSettings, agent: str | None = None) -> SavedIndexSearch | None:
        """The saved index of the agent's collection, if it can answer exactly now (see
        the module's notes); None otherwise. Reads a few small files and maps the index."""
        if settings.url:
            return None
        root = settings.embedded_path
        if not is_edge_store(root):
            return None
        try:
            scope = notes_scope(settings, agent)
        except Exception:  # an agent the engine refuses: it says why when it opens
            return None
        closed = closed_collection(root, scope.collection)
        if closed is None or closed.metadata.get("created_by") != CREATED_BY:
            return None
        loaded = index_files.load(closed.saved_index)
        if loaded is None:
            return None
        index, state = loaded
        if state.get("collection") != closed.name or state.get("revision") != closed.revision:
            return None  # a write since: the index no longer says what the store holds
        return cls(scope, index)

    def search(self, query: str, limit: int | None = None) -> EarlyAnswer:
        """The notes of the agent's searches that match ``query``'s words, best first
        (as many as its own search returns, unless ``limit`` says)."""
        limit = MEMORY_SEARCH_LIMIT if limit is None else limit
        scope = self.scope
        answer = EarlyAnswer(query, scope.agent, scope.collection, [])
        words = tokenize(query)
        if not words:
            return answer
        if self._selection is None:

            def visible(note: NoteAccess) -> bool:
                return rules.visible_because(scope, note) is not None

            self._selection = self._index.select(visible)
        index = self._index
        for note_id, score in self._selection.rank(words, limit):
            position = index.position_of(note_id)
            record = index.records.get(position) if position is not None else None
            because = rules.visible_because(scope, record) if record is not None else None
            if position is None or record is None or because is None:
                continue  # ranked from the same selection: never, but never shown unchecked
            answer.hits.append(
                EarlyHit(note_id, index.snippets[position], record.agent_id, because, score)
            )
        return answer
