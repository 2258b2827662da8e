"""Planning an undo: a run (or one merge of it) reverted, as a run of its own.

The dropped notes come back, each keeper gets its earlier content, tags, keywords
and links back, and links rewritten to point at a keeper point at the restored
notes again. Refused when a keeper changed since the run: later changes are never
overwritten silently.
"""

from __future__ import annotations

from typing import Any

import amem_tui.engine.scope as rules
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.consolidation.changes import (
    MISSING,
    encode_vector,
    make_change,
    rewrite_links,
    union,
)
from amem_tui.engine.errors import InvalidInput
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.run_records import ConsolidationRun, MergeRecord, NoteChange
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.store.base import StoredPoint


class UndoPlanner:
    """Plans the undo of recorded merges in one collection (reads only)."""

    def __init__(self, service: CollectionService) -> None:
        self.service = service

    def plan(
        self, scope: AgentScope, run: ConsolidationRun, chosen: list[int], live: list[int]
    ) -> tuple[list[MergeRecord], list[NoteChange]]:
        keep = [i for i in live if i not in chosen]
        map_now = {d: run.merges[i].keeper for i in live for d in run.merges[i].dropped}
        map_left = {d: run.merges[i].keeper for i in keep for d in run.merges[i].dropped}
        ids = [c.note for i in chosen for c in run.merges[i].changes]
        ids += [m.keeper for m in run.merges] + [c.note for c in run.link_changes]
        current = {p.id: p for p in self.service.store.retrieve(scope.collection, union(ids))}
        problems: list[str] = []
        merges: list[MergeRecord] = []
        for i in chosen:
            merge = run.merges[i]
            record = self._merge(scope, run, i, merge, current, map_now, map_left, problems)
            if record is not None:
                merges.append(record)
        if problems:
            raise InvalidInput("undo refused: " + "; ".join(problems))
        links: list[NoteChange] = []
        # Other keepers of this run (merged still, or restored by an earlier undo) may
        # link to the notes being restored.
        for i, merge in enumerate(run.merges):
            if i in chosen or merge.status != "done":
                continue
            keeper_change = next(c for c in merge.changes if c.role == "keeper")
            if i in keep:
                original = merge.links_source
            elif "links" in keeper_change.before:
                original = list(keeper_change.before["links"])
            else:
                continue
            point = current.get(merge.keeper)
            if point is None:
                continue
            was = rewrite_links(original, map_now, merge.keeper)
            now = rewrite_links(original, map_left, merge.keeper)
            if was != now and point.payload.get("links") == was:
                links.append(make_change("links", merge.keeper, point.payload, {"links": now}))
        for change in run.link_changes:
            point = current.get(change.note)
            if change.status != "done" or point is None:
                continue
            original = change.before.get("links", [])
            was = rewrite_links(original, map_now, change.note)
            now = rewrite_links(original, map_left, change.note)
            if was == now:
                continue
            if point.payload.get("links") != was:
                links.append(
                    NoteChange(
                        note=change.note,
                        role="links",
                        status="skipped",
                        message="its links changed since the run; left as they are",
                    )
                )
                continue
            links.append(make_change("links", change.note, point.payload, {"links": now}))
        return merges, links

    def _merge(
        self,
        scope: AgentScope,
        run: ConsolidationRun,
        index: int,
        merge: MergeRecord,
        current: dict[str, StoredPoint],
        map_now: dict[str, str],
        map_left: dict[str, str],
        problems: list[str],
    ) -> MergeRecord | None:
        keeper_change = next(c for c in merge.changes if c.role == "keeper")
        point = current.get(merge.keeper)
        if point is None:
            problems.append(f"keeper {merge.keeper} no longer exists")
            return None
        note = MemoryNote.from_payload(point.id, point.payload)
        rules.require_write(scope.agent, note, "undo a merge into")
        payload = point.payload
        expected = dict(keeper_change.set)
        if "links" in expected:
            expected["links"] = rewrite_links(merge.links_source, map_now, merge.keeper)
        changed: list[str] = [
            key
            for key in ("content", "hash", "tags", "keywords", "evolution_history", "links")
            if key in expected and payload.get(key, MISSING) != expected[key]
        ]
        if payload.get("is_active") is False:
            changed.append("is_active")
        if changed:
            problems.append(
                f"keeper {merge.keeper} changed since run {run.id} ({', '.join(changed)}); "
                "undo later changes first"
            )
            return None
        restore: dict[str, Any] = dict(keeper_change.before)
        if "links" in restore:
            restore["links"] = rewrite_links(restore["links"], map_left, merge.keeper)
        # Retrievals counted since the merge stay counted.
        count_now, count_after = (
            payload.get("retrieval_count"),
            keeper_change.set.get("retrieval_count"),
        )
        if (
            isinstance(count_now, int)
            and isinstance(count_after, int)
            and isinstance(restore.get("retrieval_count"), int)
            and count_now > count_after
        ):
            restore["retrieval_count"] += count_now - count_after
        if (
            "last_accessed" in keeper_change.set
            and "last_accessed" in payload
            and payload["last_accessed"] != keeper_change.set["last_accessed"]
        ):
            restore["last_accessed"] = payload["last_accessed"]
        vector = None
        if "content" in keeper_change.set:
            old = str(keeper_change.before.get("content", ""))
            vector = encode_vector(self.service.model.embed_documents([old])[0])
        changes = [
            make_change(
                "keeper",
                merge.keeper,
                payload,
                restore,
                unset=keeper_change.absent,
                guard=("content", "hash"),
                vector=vector,
            )
        ]
        for change in merge.changes:
            if change.role != "dropped" or change.status != "done":
                continue
            dropped = current.get(change.note)
            if dropped is None:
                continue
            if "is_active" in change.absent:
                changes.append(
                    make_change("dropped", change.note, dropped.payload, {}, ["is_active"])
                )
            else:
                value = change.before.get("is_active", True)
                changes.append(
                    make_change("dropped", change.note, dropped.payload, {"is_active": value})
                )
        return MergeRecord(
            keeper=merge.keeper,
            dropped=list(merge.dropped),
            similarity=merge.similarity,
            similarities=dict(merge.similarities),
            category=merge.category,
            content_before=str(payload.get("content", "")),
            content_after=merge.content_before,
            dropped_content=dict(merge.dropped_content),
            hash_before=str(payload.get("hash", "")),
            hash_after=merge.hash_before,
            tags_before=merge.tags_after,
            tags_after=merge.tags_before,
            keywords_before=merge.keywords_after,
            keywords_after=merge.keywords_before,
            links_before=list(payload.get("links") or []),
            links_after=list(restore.get("links", payload.get("links") or [])),
            links_source=merge.links_source,
            reason=f"undo of run {run.id}",
            status="planned",
            source_index=index,
            changes=changes,
        )
