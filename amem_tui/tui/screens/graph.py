"""The memory graph: a note's neighbourhood, two links out in both directions, as the
agent browsed sees it.

Two branches under the note: the notes it links to, and the notes that link to it,
each with the notes one link further. A neighbour the agent may not read is counted
where it is met ("2 unreadable notes: not shown"), never named. A link (⇄) that
joins two of the agent's scopes (its private notes and the shared scope, or a note it reads only
by id) is marked: that is where a private fact can reach shared memory. Enter makes
the highlighted note the centre, Backspace goes back; nothing here writes. A note
met again nearer the centre is marked ↺ and its links are not repeated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static, Tree

from amem_tui.tui.actions import GRAPH_ACTIONS, bindings
from amem_tui.tui.text import one_line
from amem_tui.tui.workers import ReportsWorkerFailures
from amem_tui.wording import plural

if TYPE_CHECKING:
    from textual.widgets.tree import TreeNode

    from amem_tui.engine import AgentScope, MemoryEngine, MemoryNote
    from amem_tui.engine.for_apps import Neighbour, Neighbourhood

#: Characters of a note's content in its line of the tree.
CONTENT_WIDTH = 70
#: The mark of a link that crosses the agent's scopes (the status line says so).
CROSSES = "⇄"


@dataclass
class GraphReady(Message):
    """A neighbourhood was read (in a worker)."""

    graph: Neighbourhood


@dataclass
class GraphFailed(Message):
    """The centre could not be read (gone, or not readable by the agent)."""

    note_id: str
    error: str


def note_label(note: MemoryNote, reach: str, crosses: bool = False, again: bool = False) -> Text:
    """One line of the tree: where the agent holds the note and the marks first (a
    narrow screen cuts the content, never them), then the content."""
    text = Text(f"{reach:<9}", style="dim")
    text.append(f"{CROSSES} " if crosses else "  ", style="bold yellow")
    if again:
        text.append("↺ ", style="dim")
    if note.is_active is False:
        text.append("soft-deleted ", style="dim italic")
    text.append(one_line(note.content, CONTENT_WIDTH))
    return text


def counts_label(unreadable: int, missing: int) -> Text | None:
    """What is there but not shown: unreadable neighbours, links to no note."""
    said = []
    if unreadable:
        said.append(f"{plural(unreadable, 'unreadable note')}: not shown")
    if missing:
        said.append(f"{plural(missing, 'link')} to no note")
    return Text(" · ".join(said), style="dim italic") if said else None


class GraphScreen(ReportsWorkerFailures, Screen[None]):
    """A note's neighbourhood as one agent sees it."""

    DEFAULT_CSS = """
    GraphScreen { layout: vertical; }
    GraphScreen #graph-title { height: auto; padding: 0 1; text-style: bold; }
    GraphScreen #graph-status { height: auto; padding: 0 1; color: $text-muted; }
    GraphScreen Tree { height: 1fr; padding: 0 1; scrollbar-size-horizontal: 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(GRAPH_ACTIONS)
    AUTO_FOCUS = "Tree"

    def __init__(self, engine: MemoryEngine, scope: AgentScope, note_id: str) -> None:
        super().__init__()
        self.engine = engine
        self.scope = scope
        #: The centres shown, the current one last (Backspace goes back one).
        self.centres: list[str] = [note_id]
        self.graph: Neighbourhood | None = None

    def compose(self) -> ComposeResult:
        yield Static(f"Links as {self.scope.agent}", id="graph-title")
        yield Static("Reading the links…", id="graph-status")
        tree: Tree[str] = Tree("…", id="graph-tree")
        tree.show_root = True
        tree.guide_depth = 3
        tree.auto_expand = False  # Enter centres the graph on the note
        yield tree
        yield Footer()

    def on_mount(self) -> None:
        self.load(self.centres[-1])

    @work(thread=True, exclusive=True, exit_on_error=False, group="graph")
    def load(self, note_id: str) -> None:
        """Read the neighbourhood of ``note_id`` off the UI thread."""
        try:
            graph = self.engine.agent(self.scope).neighbourhood(note_id)
        except Exception as exc:  # a gone or unreadable centre is said, not raised
            self.post_message(GraphFailed(note_id, str(exc)))
            return
        self.post_message(GraphReady(graph))

    def on_graph_failed(self, message: GraphFailed) -> None:
        self.query_one("#graph-status", Static).update(
            f"Cannot show the links of {message.note_id}: {one_line(message.error, 200)}"
        )

    def on_graph_ready(self, message: GraphReady) -> None:
        graph = self.graph = message.graph
        self.query_one("#graph-title", Static).update(
            Text.assemble(
                (f"Links as {self.scope.agent}: ", "bold"),
                one_line(graph.root.content, CONTENT_WIDTH),
            )
        )
        hidden = graph.unreadable_to + graph.unreadable_from + _hidden_beyond(graph)
        status = (
            f"{plural(graph.size, 'neighbour')} within {plural(graph.depth, 'link')}"
            f" · {plural(hidden, 'unreadable note')} counted, not shown"
            f" · {CROSSES} {_crossings(graph)} across scopes"
        )
        if graph.left_out:
            status += f" · {graph.left_out} more not read"
        status += " · Enter centres on a note"
        self.query_one("#graph-status", Static).update(status)
        tree: Tree[str] = self.query_one(Tree)
        tree.clear()
        tree.root.set_label(note_label(graph.root, graph.reach))
        tree.root.data = graph.root.id
        self._branch(
            tree.root,
            f"links to ({len(graph.links_to)})",
            graph.links_to,
            graph.unreadable_to,
            graph.missing_to,
        )
        self._branch(
            tree.root,
            f"linked from ({len(graph.linked_from)})",
            graph.linked_from,
            graph.unreadable_from,
            0,
        )
        tree.root.expand_all()
        tree.move_cursor(tree.root)

    def _branch(
        self,
        parent: TreeNode[str],
        title: str,
        neighbours: list[Neighbour],
        unreadable: int,
        missing: int,
    ) -> None:
        branch = parent.add(Text(title, style="bold"), expand=True)
        if not neighbours and not unreadable and not missing:
            branch.add_leaf(Text("none", style="dim"))
        self._add(branch, neighbours, unreadable, missing)

    def _add(
        self, parent: TreeNode[str], neighbours: list[Neighbour], unreadable: int, missing: int
    ) -> None:
        for neighbour in neighbours:
            label = note_label(
                neighbour.note, neighbour.reach, neighbour.crosses, neighbour.seen_before
            )
            further = neighbour.beyond or neighbour.unreadable or neighbour.missing
            if further:
                node = parent.add(label, data=neighbour.note.id, expand=True)
                self._add(node, neighbour.beyond, neighbour.unreadable, neighbour.missing)
            else:
                parent.add_leaf(label, data=neighbour.note.id)
        counted = counts_label(unreadable, missing)
        if counted is not None:
            parent.add_leaf(counted)

    # ------------------------------------------------------------ actions
    def on_tree_node_selected(self, event: Tree.NodeSelected[str]) -> None:
        event.stop()
        self.action_centre()

    def action_centre(self) -> None:
        """Make the highlighted note the centre."""
        node = self.query_one(Tree).cursor_node
        note_id = node.data if node is not None else None
        if note_id is None or note_id == self.centres[-1]:
            return
        self.centres.append(note_id)
        self.query_one("#graph-status", Static).update("Reading the links…")
        self.load(note_id)

    def action_back(self) -> None:
        """Back to the centre before."""
        if len(self.centres) > 1:
            self.centres.pop()
            self.load(self.centres[-1])

    def action_close(self) -> None:
        self.dismiss(None)


def _hidden_beyond(graph: Neighbourhood) -> int:
    def count(level: list[Neighbour]) -> int:
        return sum(n.unreadable + count(n.beyond) for n in level)

    return count(graph.links_to) + count(graph.linked_from)


def _crossings(graph: Neighbourhood) -> str:
    def count(level: list[Neighbour]) -> int:
        return sum(int(n.crosses) + count(n.beyond) for n in level)

    return plural(count(graph.links_to) + count(graph.linked_from), "link")
