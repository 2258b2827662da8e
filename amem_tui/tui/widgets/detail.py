"""The detail view: every field of a note, its history, conflicts and links."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from amem_tui.engine.models import NOTE_FIELDS, MemoryNote, SearchResult
from amem_tui.tui.messages import NoteData
from amem_tui.tui.text import clean, literal, one_line

_SHOWN_APART = {"content", "evolution_history", "links", "conflicts_with"}
_LABEL_WIDTH = 18


def _add(text: Text, label: str, value: object, style: str = "") -> None:
    text.append(f"{label:<{_LABEL_WIDTH}}", style="bold dim")
    if isinstance(value, Text):
        text.append_text(value)
    elif isinstance(value, list):
        text.append(", ".join(one_line(v, 60) for v in value[:50]) if value else "[]", style=style)
        if len(value) > 50:
            text.append(f" … {len(value) - 50} more", style="dim")
    elif value is None:
        text.append("(absent)", style="dim italic")
    else:
        text.append(one_line(value, 200), style=style)
    text.append("\n")


def visibility(note: MemoryNote, agent: str) -> str:
    """Plain words for the note's scope, as seen by ``agent``."""
    owner = note.effective_owner or "unknown"
    if note.is_shared:
        return f"shared by {owner}: every Mode A agent can read it"
    readers = note.effective_readers
    if owner == agent and readers in ([agent], []):
        return f"private to {agent}"
    if "*" in readers:
        return f"owned by {owner}, readers ['*']"
    if agent in readers and owner != agent:
        return f"{owner}'s note; {agent} is named in its readers"
    return f"owned by {owner}; readers {readers}"


class NoteDetail(Vertical):
    """Shows one note, one consolidation run, or the hidden matches of a search."""

    DEFAULT_CSS = """
    NoteDetail { border: round $panel-lighten-2; height: 1fr; }
    NoteDetail:focus-within { border: round $accent; }
    NoteDetail Horizontal { height: 1fr; }
    NoteDetail #detail-body { width: 2fr; padding: 0 1; }
    NoteDetail #detail-side { width: 1fr; min-width: 30; border-left: solid $panel-lighten-2; }
    NoteDetail #timeline { height: 1fr; padding: 0 1; }
    NoteDetail #links { height: auto; max-height: 8; border: none; }
    NoteDetail #links-title { padding: 0 1; text-style: bold; }
    """

    class FollowLink(Message):
        """The user chose a link to follow."""

        def __init__(self, note_id: str) -> None:
            super().__init__()
            self.note_id = note_id

    class MergeChosen(Message):
        """The user chose one merge of the shown run (to undo it)."""

        def __init__(self, keeper: str) -> None:
            super().__init__()
            self.keeper = keeper

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.border_title = "Detail"
        self.note: MemoryNote | None = None
        #: The consolidation run shown, when one is.
        self.run: Any = None

    def compose(self) -> ComposeResult:
        with Horizontal():
            with VerticalScroll(id="detail-body"):
                yield Static("", id="detail-text", markup=False)
            with Vertical(id="detail-side"):
                with VerticalScroll(id="timeline"):
                    yield Static("", id="timeline-text", markup=False)
                yield Static("Links", id="links-title", markup=False)
                yield OptionList(id="links")

    def _set(
        self,
        body: Text,
        side: Text | None = None,
        links: Sequence[Option] = (),
        list_title: str = "Links",
    ) -> None:
        self.run = None  # show_run sets it again after this
        self.query_one("#detail-text", Static).update(body)
        self.query_one("#timeline-text", Static).update(side or Text(""))
        option_list = self.query_one("#links", OptionList)
        option_list.clear_options()
        option_list.add_options(list(links))
        title = self.query_one("#links-title", Static)
        title.update(list_title)
        title.display = bool(links)
        option_list.display = bool(links)
        self.query_one("#detail-body", VerticalScroll).scroll_home(animate=False)

    def show_message(self, message: str, title: str = "Detail") -> None:
        """An explanation instead of a note."""
        self.note = None
        self.border_title = title
        self._set(Text(message, style="italic"))

    # ------------------------------------------------------------------ note
    def show_note(self, data: NoteData, agent: str) -> None:
        """Every field of a note, the reason it is visible, its timeline and links."""
        note = data.note
        self.note = note
        state = "" if note.active else "  [soft-deleted]"
        self.border_title = f"Note {note.id}{state}"
        body = Text()
        body.append_text(literal(note.content, style="bold"))
        body.append("\n\n")
        if data.hit is not None:
            body.append_text(explain_hit(data.hit))
            body.append("\n")
        _add(body, "scope", visibility(note, agent))
        _add(body, "may modify", "yes" if data.writable else f"no ({agent} is not a writer)")
        for line in data.notes:
            body.append(line + "\n", style="italic")
        for problem in note.problems:
            _add(body, "problem", problem, style="red")
        if note.conflict or note.conflicts_with:
            body.append("Conflicts         ", style="bold yellow")
            reason = note.conflict_reason or "(no reason recorded)"
            body.append_text(literal(reason, limit=2000))
            body.append("\n")
            for target_id, target in data.conflicts:
                _target_line(body, target_id, target, agent)
        payload = note.to_payload()
        derived = {
            "owner": note.effective_owner,
            "readers": note.effective_readers,
            "writers": note.effective_writers,
            "is_active": True,
        }
        first = ("owner", "readers", "writers", "agent_id", "is_active")
        order = [*first, *(f for f in NOTE_FIELDS if f not in first)]
        for field in order:
            if field in _SHOWN_APART:
                continue
            if field in payload:
                value = payload[field]
                _add(body, field, value, style="red" if field == "conflict" and value else "")
            elif derived.get(field) is not None:
                _add(body, field, Text(f"{derived[field]} (absent; derived)", style="dim"))
            else:
                _add(body, field, None)
        _add(body, "links", f"{len(note.links)} (listed on the right)")
        extra = {k: v for k, v in payload.items() if k not in NOTE_FIELDS}
        for key in sorted(extra)[:40]:
            _add(body, clean(key)[: _LABEL_WIDTH - 1], extra[key])
        side = timeline(note)
        options = [_link_option(link_id, target, agent) for link_id, target in data.links]
        self._set(body, side, options)

    # ------------------------------------------------------------------- run
    def show_run(self, run: Any, hint: str = "") -> None:
        """What a consolidation run merged; its merges listed on the right to undo one."""
        self.note = None
        self.border_title = f"Consolidation run {run.id}"
        body = Text()
        kind = "dry run (nothing changed)" if run.dry_run else str(run.trigger)
        _add(body, "agent", run.agent)
        _add(body, "collection", run.collection)
        _add(body, "kind", kind)
        _add(body, "status", run.status)
        _add(body, "started", run.started_at)
        _add(body, "finished", run.finished_at)
        _add(body, "threshold", f"{run.threshold:.2f}")
        if getattr(run, "undoes", None):
            _add(body, "undoes", run.undoes)
        count = len(run.merges)
        undoable = bool(count) and not run.dry_run and getattr(run, "trigger", "") != "undo"
        body.append(f"\n{count} merge{'' if count == 1 else 's'}\n", style="bold")
        if undoable and hint:
            body.append(hint + "\n", style="italic")
        for message in getattr(run, "messages", []) or []:
            body.append(one_line(message, 200) + "\n", style="italic")
        for merge in run.merges:
            body.append_text(merge_text(merge))
        options = [_merge_option(merge) for merge in run.merges] if undoable else []
        self._set(body, links=options, list_title="Merges")
        self.run = run

    @property
    def chosen_merge(self) -> str | None:
        """The keeper of the merge highlighted in the list (the shown run's only one, else)."""
        if self.run is None:
            return None
        option_list = self.query_one("#links", OptionList)
        index = option_list.highlighted
        if index is not None and option_list.display:
            option_id = option_list.get_option_at_index(index).id or ""
            if option_id.startswith(_MERGE):
                return option_id[len(_MERGE) :]
        merges = list(self.run.merges)
        return merges[0].keeper if len(merges) == 1 else None

    def show_hidden(self, result: SearchResult) -> None:
        """Matches the agent cannot see, and why (never their content)."""
        self.note = None
        self.border_title = f"Hidden matches for {one_line(result.query, 40)!r}"
        body = Text()
        hidden = list(getattr(result, "hidden", []) or [])
        if not hidden:
            body.append(
                f"No hidden matches: nothing outside {result.agent}'s view matched closely.",
                style="italic",
            )
        for match in hidden:
            body.append(f"{match.score:.3f}  ", style="bold")
            body.append(one_line(match.id, 40))
            body.append(f"  owner {one_line(match.owner or '?', 20)}", style="dim")
            body.append(f"  in {one_line(match.collection, 30)}\n", style="dim")
            body.append("       not visible: ", style="dim")
            body.append(one_line(match.reason, 150) + "\n", style="italic")
        self._set(body)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Follow a visible link, or ask to undo the chosen merge."""
        event.stop()
        option_id = event.option.id or ""
        if option_id.startswith(_MERGE):
            self.post_message(self.MergeChosen(option_id[len(_MERGE) :]))
        elif option_id:
            self.post_message(self.FollowLink(option_id))


_MERGE = "merge:"  # option ids of merges; note ids never hold a colon


def _merge_option(merge: Any) -> Option:
    label = Text(f"{one_line(merge.keeper, 13)}  +{len(merge.dropped)} dropped")
    if getattr(merge, "undone", False):
        label.append("  undone", style="dim")
    return Option(label, id=f"{_MERGE}{merge.keeper}")


def explain_hit(hit: Any) -> Text:
    """Why a search hit is there: its scores, how it was reached, why it is visible."""
    text = Text()
    text.append(f"{'why this hit':<{_LABEL_WIDTH}}", style="bold")
    parts = [f"score {hit.score:.3f}"]
    if getattr(hit, "similarity", None) is not None:
        parts.append(f"cosine {hit.similarity:.3f}")
    if getattr(hit, "bm25_rank", None) is not None:
        parts.append(f"keyword rank {hit.bm25_rank}")
    if getattr(hit, "rrf", None) is not None:
        parts.append(f"rrf {hit.rrf:.4f}")
    via = getattr(hit, "via", "match")
    if via == "link":
        source = getattr(hit, "via_note", None)
        parts.append(f"reached by a link from {one_line(source, 36)}" if source else "via a link")
    else:
        parts.append("a direct match")
    because = {
        "private": "it is the agent's private note",
        "shared": "it is in the shared scope",
        "reader": "the agent is named in its readers",
        "collection": "it is in the agent's own collection (Mode B)",
    }.get(str(getattr(hit, "because", "")), str(getattr(hit, "because", "")))
    parts.append(f"visible because {because}")
    text.append(" · ".join(parts) + "\n")
    return text


def merge_text(merge: Any) -> Text:
    """One merge of a consolidation: keeper, dropped notes, contents, why."""
    text = Text()
    status = str(getattr(merge, "status", "done") or "done")
    marks = []
    if getattr(merge, "undone", False):
        marks.append("undone")
    if status not in ("done", "planned"):
        marks.append(status)
    suffix = f" ({', '.join(marks)})" if marks else ""
    text.append(f"• keep {one_line(merge.keeper, 36)}{suffix}", style="bold")
    text.append(f"  similarity {merge.similarity:.3f}")
    category = getattr(merge, "category", "")
    if category:
        text.append(f"  category {one_line(category, 20)}", style="dim")
    text.append("\n")
    text.append("  keep:   ", style="dim")
    text.append(one_line(merge.content_before, 200) + "\n")
    contents = getattr(merge, "dropped_content", {}) or {}
    sims = getattr(merge, "similarities", {}) or {}
    for dropped in merge.dropped:
        text.append(f"  drop   {one_line(dropped, 36)}", style="red")
        if dropped in sims:
            text.append(f"  cosine {sims[dropped]:.3f}", style="dim")
        text.append("\n")
        if dropped in contents:
            text.append("          " + one_line(contents[dropped], 190) + "\n", style="dim")
    if merge.content_after != merge.content_before:
        text.append("  after:  ", style="dim")
        text.append(one_line(merge.content_after, 200) + "\n")
    reason = getattr(merge, "reason", "") or getattr(merge, "message", "")
    if reason:
        text.append("  why:    ", style="dim")
        text.append(one_line(reason, 200) + "\n", style="italic")
    return text


def timeline(note: MemoryNote) -> Text:
    """The evolution history, oldest first, one block per entry."""
    text = Text()
    text.append("Evolution history\n", style="bold")
    if not note.evolution_history:
        text.append("no entries\n", style="dim italic")
        return text
    for entry in note.evolution_history[-100:]:
        when = one_line(entry.triggeredAt, 19).replace("T", " ")[:16] or "?"
        text.append(f"● {when} ", style="bold")
        text.append(one_line(entry.action or "?", 20) + "\n", style="italic")
        if entry.triggeredBy:
            text.append(f"  by {one_line(entry.triggeredBy, 36)}\n", style="dim")
        if entry.oldContext is not None or entry.newContext is not None:
            text.append(
                f"  context {one_line(entry.oldContext or '', 30)!r} → "
                f"{one_line(entry.newContext or '', 30)!r}\n"
            )
        if entry.oldTags is not None or entry.newTags is not None:
            text.append(f"  tags {entry.oldTags or []} → {entry.newTags or []}\n")
        if entry.oldContent:
            text.append(f"  was: {one_line(entry.oldContent, 80)}\n", style="dim")
    return text


def _target_line(text: Text, target_id: str, target: MemoryNote | None, agent: str) -> None:
    if target is None:
        text.append(
            f"  ⊘ {one_line(target_id, 40)}  not visible to {agent} (read rule)\n", style="dim"
        )
    else:
        text.append(f"  → {one_line(target_id, 40)}  ", style="")
        text.append(one_line(target.content, 80) + "\n")


def _link_option(link_id: str, target: MemoryNote | None, agent: str) -> Option:
    if target is None:
        prompt = Text(f"⊘ {one_line(link_id, 36)[:13]}…  not visible to {agent}", style="dim")
        return Option(prompt, id=None, disabled=True)
    prompt = Text("→ ", style="bold")
    prompt.append(one_line(target.content, 70))
    if not target.active:
        prompt.append(" (deleted)", style="red")
    return Option(prompt, id=link_id)
