"""``audit``: what needs a look in a store: shared notes by owner, readers beyond the
owner, malformed and legacy points, links that cross scopes, unconfigured agents."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from amem_tui.cli.command import Command, Context
from amem_tui.cli.options import flag
from amem_tui.cli.output import section
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import AuditReport
    from amem_tui.engine.for_apps import CrossScopeLink, NoteRef


@dataclass(frozen=True)
class AuditOptions:
    """``audit``: the configured collections, or every one (``--all``)."""

    all: bool = flag("--all", help="audit every collection in the store")


def _ref(ref: NoteRef) -> str:
    state = "" if ref.active else " (soft-deleted)"
    return (
        f"{ref.id}{state}  agent_id={ref.agent_id} owner={ref.owner} "
        f"readers={ref.readers}  {ref.content}"
    )


def _link(link: CrossScopeLink) -> str:
    if link.kind == "missing":
        return f"{link.source} -> {link.target}: no such note here"
    return (
        f"{link.source} -> {link.target}: readers {link.source_readers} "
        f"-> {link.target_readers}; hidden from {link.exposed_to}"
    )


def audit_text(report: AuditReport) -> Iterator[str]:
    """The report section by section, each headed by its count."""
    yield f"configuration: {report.config_file or 'none found (defaults)'}"
    yield f"store: {report.store}"
    for col in report.collections:
        search = "vector search" if col.searchable else "keyword search only"
        yield f"collection {col.name}: {plural(col.points, 'point')}, {col.format}, {search}"
    shared = report.shared_by_owner
    yield f"shared notes by owner ({sum(len(v) for v in shared.values())})"
    for owner in sorted(shared):
        yield from section(f"  owner {owner}", [_ref(ref) for ref in shared[owner]], "    ")
    beyond = [_ref(ref) for ref in report.readers_beyond_owner]
    yield from section("notes whose readers go beyond their owner", beyond)
    yield from section(
        "malformed points",
        [f"{bad.id} in {bad.collection}: {'; '.join(bad.problems)}" for bad in report.malformed],
    )
    yield from section(
        "legacy notes",
        [
            f"{old.id} in {old.collection}: no {', '.join(old.missing)}; "
            f"derived owner={old.owner} readers={old.readers} writers={old.writers}"
            for old in report.legacy
        ],
    )
    yield from section(
        "links that cross scopes", [_link(link) for link in report.cross_scope_links]
    )
    yield from section(
        "agents in the store but not in the configuration",
        [
            f"{agent.agent}{'' if agent.valid_id else ' (not a valid agent id)'}: "
            f"{plural(agent.notes, 'note')} in {', '.join(agent.collections)}"
            for agent in report.unconfigured_agents
        ],
    )


@Command("audit", audit_text, AuditOptions, reads=True)
def audit(ctx: Context, options: AuditOptions) -> AuditReport:
    """Shared notes by owner, malformed and legacy points, cross-scope links."""
    return ctx.engine.audit(all_collections=options.all)
