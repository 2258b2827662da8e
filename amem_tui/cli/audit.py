"""``audit``: what needs a look in a store: shared notes by owner, readers beyond the
owner, malformed and legacy points, links that cross scopes, unconfigured agents."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command
from amem_tui.cli.options import flag
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.cli.context import Context
    from amem_tui.engine import AuditReport
    from amem_tui.engine.for_apps import NoteRef


@dataclass(frozen=True)
class AuditOptions:
    """``audit``: the configured collections, or every one (``--all``)."""

    all: bool = flag("--all", help="audit every collection in the store")


def audit(ctx: Context, options: AuditOptions) -> AuditReport:
    """Shared notes by owner, malformed and legacy points, cross-scope links."""
    return ctx.engine.audit(all_collections=options.all)


def _refs(title: str, refs: list[NoteRef]) -> list[str]:
    lines = [f"{title} ({len(refs)})"]
    for ref in refs:
        state = "" if ref.active else " (soft-deleted)"
        lines.append(
            f"  {ref.id}{state}  agent_id={ref.agent_id} owner={ref.owner} "
            f"readers={ref.readers}  {ref.content}"
        )
    return lines


def audit_text(report: AuditReport) -> str:
    """The report section by section, each headed by its count."""
    lines = [
        f"configuration: {report.config_file or 'none found (defaults)'}",
        f"store: {report.store}",
    ]
    for col in report.collections:
        search = "vector search" if col.searchable else "keyword search only"
        points = plural(col.points, "point")
        lines.append(f"collection {col.name}: {points}, {col.format}, {search}")
    shared = report.shared_by_owner
    lines.append(f"shared notes by owner ({sum(len(v) for v in shared.values())})")
    for owner in sorted(shared):
        lines += ["  " + line for line in _refs(f"owner {owner}", shared[owner])]
    lines += _refs("notes whose readers go beyond their owner", report.readers_beyond_owner)
    lines.append(f"malformed points ({len(report.malformed)})")
    for bad in report.malformed:
        lines.append(f"  {bad.id} in {bad.collection}: {'; '.join(bad.problems)}")
    lines.append(f"legacy notes ({len(report.legacy)})")
    for old in report.legacy:
        lines.append(
            f"  {old.id} in {old.collection}: no {', '.join(old.missing)}; "
            f"derived owner={old.owner} readers={old.readers} writers={old.writers}"
        )
    lines.append(f"links that cross scopes ({len(report.cross_scope_links)})")
    for link in report.cross_scope_links:
        if link.kind == "missing":
            lines.append(f"  {link.source} -> {link.target}: no such note here")
        else:
            lines.append(
                f"  {link.source} -> {link.target}: readers {link.source_readers} "
                f"-> {link.target_readers}; hidden from {link.exposed_to}"
            )
    lines.append(
        f"agents in the store but not in the configuration ({len(report.unconfigured_agents)})"
    )
    for agent in report.unconfigured_agents:
        bad_id = "" if agent.valid_id else " (not a valid agent id)"
        lines.append(
            f"  {agent.agent}{bad_id}: {plural(agent.notes, 'note')} in "
            f"{', '.join(agent.collections)}"
        )
    return "\n".join(lines)


COMMANDS: tuple[Command[Any, Any], ...] = (
    Command("audit", audit, audit_text, AuditOptions, reads=True),
)
