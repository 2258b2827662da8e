"""The audit: what in a store needs a person's look.

Shared notes by owner, notes whose readers go beyond their owner, malformed and
legacy points, links whose target some reader of the source may not read, and
agents named in the store but not in the configuration. Reading only.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from amem_tui.engine.collections import Collections
from amem_tui.engine.formats.openclaw import ACCESS_FIELDS
from amem_tui.engine.models import EVERYONE, SHARED, MemoryNote
from amem_tui.engine.scope import validate_agent_id
from amem_tui.engine.settings import EngineSettings

PREVIEW_CHARS = 120


class NoteRef(BaseModel):
    """A note named in the audit, with enough to recognise it."""

    id: str
    collection: str
    agent_id: str | None
    owner: str | None
    readers: list[str]
    writers: list[str]
    active: bool
    content: str


class MalformedPoint(BaseModel):
    """A point that cannot be trusted as a note: never shared, listed here instead."""

    id: str
    collection: str
    problems: list[str]
    keys: list[str]


class LegacyNote(BaseModel):
    """A note written before the access fields existed, with the values derived for it."""

    id: str
    collection: str
    agent_id: str | None
    missing: list[str]
    owner: str | None
    readers: list[str]
    writers: list[str]


class CrossScopeLink(BaseModel):
    """A link whose target some reader of the source may not read (or that leads nowhere)."""

    collection: str
    source: str
    target: str
    kind: str  # "narrower" (target less visible) or "missing" (no such note here)
    source_readers: list[str]
    target_readers: list[str]
    exposed_to: list[str]


class AgentSeen(BaseModel):
    """An agent named in the store but not in the configuration."""

    agent: str
    collections: list[str]
    notes: int
    valid_id: bool


class CollectionAudit(BaseModel):
    """Figures for one audited collection."""

    name: str
    format: str
    points: int
    searchable: bool
    model_reason: str


class AuditReport(BaseModel):
    """Everything ``audit`` reports."""

    store: str
    config_file: str | None
    collections: list[CollectionAudit] = Field(default_factory=list)
    shared_by_owner: dict[str, list[NoteRef]] = Field(default_factory=dict)
    readers_beyond_owner: list[NoteRef] = Field(default_factory=list)
    malformed: list[MalformedPoint] = Field(default_factory=list)
    legacy: list[LegacyNote] = Field(default_factory=list)
    cross_scope_links: list[CrossScopeLink] = Field(default_factory=list)
    unconfigured_agents: list[AgentSeen] = Field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """How many entries each section holds."""
        return {
            "shared": sum(len(v) for v in self.shared_by_owner.values()),
            "readers_beyond_owner": len(self.readers_beyond_owner),
            "malformed": len(self.malformed),
            "legacy": len(self.legacy),
            "cross_scope_links": len(self.cross_scope_links),
            "unconfigured_agents": len(self.unconfigured_agents),
        }


def _preview(note: MemoryNote) -> str:
    text = note.content if isinstance(note.content, str) else ""
    flat = " ".join(text.split())
    return flat if len(flat) <= PREVIEW_CHARS else flat[: PREVIEW_CHARS - 1] + "…"


def _ref(note: MemoryNote, collection: str) -> NoteRef:
    return NoteRef(
        id=note.id,
        collection=collection,
        agent_id=note.agent_id,
        owner=note.effective_owner,
        readers=note.effective_readers,
        writers=note.effective_writers,
        active=note.active,
        content=_preview(note),
    )


def _readers(note: MemoryNote) -> set[str]:
    """Who may read a note by id (the read rule), as a set; ``*`` for everyone."""
    if note.malformed:  # never shared: only the agent it names
        return {note.agent_id} if isinstance(note.agent_id, str) and note.agent_id else set()
    readers = set(note.effective_readers)
    if note.effective_owner:
        readers.add(note.effective_owner)
    return readers


def _exposed(source: set[str], target: set[str]) -> list[str]:
    if EVERYONE in target:
        return []
    if EVERYONE in source:
        return [EVERYONE]
    return sorted(source - target)


def default_audit_collections(collections: Collections, settings: EngineSettings) -> list[str]:
    """The configured collections that exist, aliases resolved, each once."""
    store = collections.store
    names = [settings.collection, *settings.dedicated_collections().values()]
    out: list[str] = []
    for name in names:
        real = store.resolve_alias(name)
        if real not in out and store.collection_info(real) is not None:
            out.append(real)
    return out


def build_audit(
    collections: Collections, settings: EngineSettings, names: Sequence[str] | None = None
) -> AuditReport:
    """Scan the collections (default: the configured ones) and build the report."""
    store = collections.store
    report = AuditReport(
        store=settings.store_label,
        config_file=str(settings.config_file) if settings.config_file else None,
    )
    audited = (
        default_audit_collections(collections, settings)
        if names is None
        else [store.resolve_alias(c) for c in names]
    )
    configured = set(settings.configured_agents())
    seen: dict[str, tuple[set[str], int]] = {}

    def saw(agent: object, collection: str) -> None:
        if not isinstance(agent, str) or not agent or agent in (SHARED, EVERYONE):
            return
        where, count = seen.get(agent, (set(), 0))
        where.add(collection)
        seen[agent] = (where, count + 1)

    for name in audited:
        service = collections.get(name)
        info = service.info()
        if info is None:
            continue
        usable, reason = service.model.status()
        fmt = service.format
        report.collections.append(
            CollectionAudit(
                name=info.name,
                format=fmt,
                points=info.points_count,
                searchable=usable,
                model_reason=reason,
            )
        )
        notes = {n.id: n for n in service.notes()}
        for note in notes.values():
            _audit_note(report, note, name, fmt)
            if not note.malformed:
                saw(note.agent_id, name)
                if note.owner and note.owner != note.agent_id:
                    saw(note.owner, name)
        for note in notes.values():
            _audit_links(report, note, notes, name)
    for agent in sorted(set(seen) - configured):
        where, count = seen[agent]
        try:
            validate_agent_id(agent)
            valid = True
        except Exception:
            valid = False
        report.unconfigured_agents.append(
            AgentSeen(agent=agent, collections=sorted(where), notes=count, valid_id=valid)
        )
    return report


def _audit_note(report: AuditReport, note: MemoryNote, collection: str, fmt: str) -> None:
    if note.malformed:
        report.malformed.append(
            MalformedPoint(
                id=note.id,
                collection=collection,
                problems=note.problems,
                keys=sorted(note.to_payload()),
            )
        )
        return
    if fmt == "amem":
        payload_keys = note.model_fields_set | set(note.model_extra or {})
        missing = [f for f in ACCESS_FIELDS if f not in payload_keys]
        if missing:
            report.legacy.append(
                LegacyNote(
                    id=note.id,
                    collection=collection,
                    agent_id=note.agent_id,
                    missing=missing,
                    owner=note.effective_owner,
                    readers=note.effective_readers,
                    writers=note.effective_writers,
                )
            )
    if note.agent_id == SHARED:
        owner = note.effective_owner or "(no owner)"
        report.shared_by_owner.setdefault(owner, []).append(_ref(note, collection))
        return
    beyond = set(note.effective_readers) - {note.effective_owner}
    if beyond:
        report.readers_beyond_owner.append(_ref(note, collection))


def _audit_links(
    report: AuditReport, note: MemoryNote, notes: dict[str, MemoryNote], collection: str
) -> None:
    if not note.active or not note.links:
        return
    source = _readers(note)
    for link in note.links:
        target = notes.get(link)
        if target is None:
            report.cross_scope_links.append(
                CrossScopeLink(
                    collection=collection,
                    source=note.id,
                    target=link,
                    kind="missing",
                    source_readers=sorted(source),
                    target_readers=[],
                    exposed_to=[],
                )
            )
            continue
        target_readers = _readers(target)
        exposed = _exposed(source, target_readers)
        if exposed:
            report.cross_scope_links.append(
                CrossScopeLink(
                    collection=collection,
                    source=note.id,
                    target=link,
                    kind="narrower",
                    source_readers=sorted(source),
                    target_readers=sorted(target_readers),
                    exposed_to=exposed,
                )
            )
