"""The actions on notes: what acts on the subject (the note the detail shows), and what
a note pane does to its own rows.
"""

from __future__ import annotations

from amem_tui.tui.actions.action import Action, PaletteEntry

#: What acts on the subject (or, for a bulk action, on the notes marked), in footer order.
NOTE_ACTIONS: tuple[Action, ...] = (
    Action(
        "add",
        "a",
        "add",
        "Add",
        writes=True,
        footer_rank=5,
        palette=PaletteEntry(2, "Add a note", "write a private or shared note; choose its readers"),
        target="browser",
    ),
    Action(
        "edit",
        "e",
        "edit",
        "Edit",
        writes=True,
        footer_rank=7,
        palette=PaletteEntry(
            3, "Edit the selected note", "change its content, tags or (owner) readers"
        ),
        target="browser",
    ),
    Action(
        "publish",
        "p",
        "publish",
        "Publish",
        writes=True,
        footer_rank=8,
        palette=PaletteEntry(0, "Publish the selected note", "share it with every Mode A agent"),
        target="browser",
    ),
    Action(
        "unpublish",
        "u",
        "unpublish",
        "Unpublish",
        writes=True,
        footer_rank=9,
        palette=PaletteEntry(1, "Unpublish the selected note", "make it private to its owner"),
        target="browser",
    ),
    Action(
        "delete",
        "d",
        "delete",
        "Delete",
        writes=True,
        footer_rank=6,
        palette=PaletteEntry(
            4, "Soft-delete the selected note", "is_active=false; can be restored"
        ),
        target="browser",
    ),
    Action(
        "restore",
        "r",
        "restore",
        "Restore",
        writes=True,
        footer_rank=9,
        palette=PaletteEntry(5, "Restore the selected note", "undo a soft delete"),
        target="browser",
    ),
    Action(
        "edit_in_editor",
        "E",
        "edit_in_editor",
        "Edit in $EDITOR",
        writes=True,
        key_display="E",
        show=False,
        palette=PaletteEntry(
            23, "Edit the selected note in $EDITOR", "the app waits; saved back as an update"
        ),
        target="browser",
    ),
    Action(
        "copy",
        "y",
        "copy",
        "Copy",
        show=False,
        palette=PaletteEntry(16, "Copy the selected note", "its content, to the clipboard"),
        target="browser",
    ),
    Action(
        "copy_id",
        "Y",
        "copy_id",
        "Copy id",
        key_display="Y",
        show=False,
        palette=PaletteEntry(24, "Copy the selected note's id", "to the clipboard"),
        target="browser",
    ),
    Action(
        "versions",
        "V",
        "toggle_versions",
        "Versions",
        key_display="V",
        show=False,
        shown_in=("detail",),
        footer_rank=4,
        palette=PaletteEntry(
            30,
            "Show the note's versions",
            "every change, who made it, a word-level diff",
            "history changes diff revisions",
        ),
        target="browser",
    ),
    Action(
        "revert",
        "R",
        "revert",
        "Revert",
        key_display="R",
        writes=True,
        show=False,
        shown_in=("detail",),
        footer_rank=4,
        palette=PaletteEntry(
            31,
            "Revert the note to the chosen version",
            "in the Versions tab; kept as a new version",
        ),
        target="browser",
    ),
)

#: What a note pane does to its own rows, in footer order.
PANE_ACTIONS: tuple[Action, ...] = (
    Action(
        "mark",
        "space",
        "toggle_mark",
        "Mark",
        key_display="space",
        show=False,
        palette=PaletteEntry(
            25, "Mark or unmark the selected note", "p, u, d and r then act on every marked note"
        ),
        target="pane",
    ),
    Action(
        "mark_shown",
        "asterisk",
        "mark_shown",
        "Mark all shown",
        key_display="*",
        show=False,
        palette=PaletteEntry(26, "Mark every row the pane shows", "or unmark them all"),
        target="pane",
    ),
    # Capitals beside the letter people know: / searches (f follows), so F filters the
    # pane's rows; S sorts and I inverts the order, as htop does.
    Action(
        "filter",
        "F",
        "filter",
        "Filter",
        key_display="F",
        show=False,
        palette=PaletteEntry(
            20, "Filter the pane's rows", "plain text in content, tags or owner; Esc clears it"
        ),
        target="pane",
    ),
    Action(
        "sort",
        "S",
        "sort",
        "Sort",
        key_display="S",
        show=False,
        palette=PaletteEntry(
            21, "Sort the pane by the next column", "created, updated, owner, recalls, recalled"
        ),
        target="pane",
    ),
    Action(
        "invert_sort",
        "I",
        "invert_sort",
        "Reverse order",
        key_display="I",
        show=False,
        palette=PaletteEntry(22, "Reverse the pane's sort order", "ascending or descending"),
        target="pane",
    ),
)

#: The Shared pane's listing of the notes the agent reads only by id: the browser holds
#: it, so that g works from either pane (and the detail), as the help says.
GET_ONLY = Action(
    "toggle_get_only",
    "g",
    "toggle_get_only",
    "Get only",
    show=False,
    shown_in=("shared",),
    palette=PaletteEntry(
        18,
        "List what this agent reads only by id",
        "the Shared pane lists its get-only notes (readers name it), never in its searches",
    ),
    target="browser",
)
