"""The records of a consolidation run: what it changed on each note, the merges it
made, the conflicts a person settled, and the run itself (all kept in the store so a
run can be listed, explained and undone).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from amem_tui.engine.errors import AmbiguousId
from amem_tui.engine.words import first_of, plural

#: What started a consolidation run (``undo`` and ``openclaw`` runs are recorded, never
#: asked for): by hand, an outside scheduler (``consolidate --all-agents --due``
#: from cron or a systemd timer), the nightly pass in a long-running process (the TUI,
#: the engine's scheduler), an undo, or openclaw-amem itself.
#: ``resolve``: a person's decision on notes openclaw-amem flagged as contradicting each
#: other (a run of the contradiction desk, ``amem_tui.engine.conflicts``).
RunTrigger = Literal["manual", "scheduled", "nightly", "undo", "openclaw", "resolve"]
#: How many runs the refusal of an ambiguous run id lists.
MATCHES_SHOWN = 8


class NoteChange(BaseModel):
    """One compare-and-set change of a note's payload, replayable after a crash.

    ``before`` holds the guarded fields as they were (``absent`` the guarded
    fields that did not exist); applying sets ``set`` and removes ``unset``.
    A change whose fields already hold their new values counts as done, so
    applying it twice is harmless.
    """

    note: str
    #: ``flags``: a note whose conflict flags a decision of the contradiction desk clears.
    role: Literal["keeper", "dropped", "links", "flags"]
    before: dict[str, Any] = Field(default_factory=dict)
    absent: list[str] = Field(default_factory=list)
    set: dict[str, Any] = Field(default_factory=dict)
    unset: list[str] = Field(default_factory=list)
    #: A new vector (base64 of little-endian float32), only when the content changes.
    vector: str | None = None
    status: Literal["planned", "done", "skipped"] = "planned"
    message: str = ""


class MergeRecord(BaseModel):
    """One merge of a consolidation run: what was kept, what was dropped."""

    keeper: str
    dropped: list[str]
    #: The lowest cosine similarity between the keeper and a dropped note.
    similarity: float
    content_before: str
    content_after: str
    tags_before: list[str] = Field(default_factory=list)
    keywords_before: list[str] = Field(default_factory=list)
    links_before: list[str] = Field(default_factory=list)
    hash_after: str = ""
    undone: bool = False
    category: str = ""
    similarities: dict[str, float] = Field(default_factory=dict)
    dropped_content: dict[str, str] = Field(default_factory=dict)
    hash_before: str = ""
    tags_after: list[str] = Field(default_factory=list)
    keywords_after: list[str] = Field(default_factory=list)
    links_after: list[str] = Field(default_factory=list)
    #: The union of the merged notes' links before links to dropped notes were rewritten.
    links_source: list[str] = Field(default_factory=list)
    reason: str = ""
    status: Literal["planned", "done", "skipped"] = "done"
    message: str = ""
    undone_by: str | None = None
    #: In an undo run: the index of the merge it reverts in the original run.
    source_index: int | None = None
    changes: list[NoteChange] = Field(default_factory=list)


#: What a conflict decision keeps: note ``A`` (``B`` retired), note ``B`` (``A`` retired),
#: ``both`` (not a contradiction: both flags cleared), or ``flag``: a flag whose partner
#: is gone, cleared.
SettleKeep = Literal["A", "B", "both", "flag"]


class ConflictSettlement(BaseModel):
    """A person's decision on two notes flagged as contradicting each other, or on a flag
    whose partner is gone (``keep`` ``flag``: ``gone`` names the partners dropped)."""

    keep: SettleKeep
    a: str
    b: str = ""
    gone: list[str] = Field(default_factory=list)
    #: Why the person decided so (their words).
    reason: str = ""
    #: Why the notes were flagged (openclaw-amem's ``conflict_reason``).
    conflict_reason: str = ""


class ConsolidationRun(BaseModel):
    """A consolidation pass of one agent, as recorded in the store.

    ``status``: ``planned`` (a dry run, never recorded), ``planning`` (the plan
    is being recorded, nothing changed yet), ``started`` (changing notes; an
    interrupted run stays here until the next run finishes it), ``done``, or
    ``abandoned`` (interrupted before any note changed).
    """

    id: str
    agent: str
    collection: str
    trigger: RunTrigger = "manual"
    started_at: str
    finished_at: str | None = None
    threshold: float
    dry_run: bool = False
    merges: list[MergeRecord] = Field(default_factory=list)
    status: str = "done"
    undoes: str | None = None
    judge: str = "rule"
    candidates: int = 0
    link_changes: list[NoteChange] = Field(default_factory=list)
    messages: list[str] = Field(default_factory=list)
    #: The conflict decision this run records (None: a consolidation); its undo run
    #: carries it too.
    settles: ConflictSettlement | None = None

    def to_json(self, full: bool = False) -> dict[str, Any]:
        """The run as JSON; without ``full`` the replay machinery (``changes``) is left out."""
        data = self.model_dump(mode="json")
        if not full:
            for merge in data["merges"]:
                merge.pop("changes", None)
            data["link_changes"] = [
                {k: c[k] for k in ("note", "status", "message")} | {"links": c["set"].get("links")}
                for c in data["link_changes"]
            ]
        return data

    def keepers_named(self, given: str) -> list[str]:
        """The keepers of the run's merges that ``given`` names: its id, else every one
        whose id starts with it (any case)."""
        keepers = list(dict.fromkeys(merge.keeper for merge in self.merges))
        return _named(given, keepers) if given.strip() else []


def _named(given: str, ids: list[str]) -> list[str]:
    """``given`` itself if it is one of ``ids``, else the ids it starts (any case)."""
    if given in ids:
        return [given]
    start = given.strip().lower()
    return [known for known in ids if known.lower().startswith(start)]


def run_named(runs: list[ConsolidationRun], given: str) -> ConsolidationRun | None:
    """The run of ``runs`` that ``given`` names (its id, or the start of it in any case),
    None when none does; ``AmbiguousId`` when it starts several."""
    found = _named(given, [run.id for run in runs])
    if len(found) > 1:
        matching = [run for run in runs if run.id in found]
        shown = [
            f"{run.id} (agent {run.agent}, {run.started_at}, {plural(len(run.merges), 'merge')})"
            for run in matching
        ]
        raise AmbiguousId(
            f"run id '{given}' is the start of {len(found)} runs: "
            f"{first_of(shown, MATCHES_SHOWN, sep='; ')}; give more of the id",
            found,
        )
    return next((run for run in runs if run.id in found), None)
