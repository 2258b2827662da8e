"""The collections behind the agents: one embedding model for all, and aliases that
point where the last migration left the notes.

``mixed-models`` (error): the collections openclaw-amem opens in one process (the
Mode A collection and every Mode B agent's, aliases resolved) need different models.
amem decides a collection's model as its ``ensureCollection`` does: the
``embedding_model`` in its metadata, else (a store older than the field) its legacy
default for 384-dimension vectors and its current default for any other size; two
different ones stop it with ``MixedEmbeddingModelsError``. (``AMEM_EMBED_MODEL``, when
set where openclaw-amem runs, overrides the guess; it is not visible from here.)

``stale-alias`` (warning): an alias points at a collection while a later generation
of it, as amem-migrate names them (``<name>_v<N>``, the next N), holds at least as
many points: the migration finished and this alias was never switched to it. Error:
an alias that points at no collection. On a store with no aliases (Qdrant Edge) the
check says so instead of passing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from amem_tui.engine.health.report import CheckResult, Problem
from amem_tui.engine.modelinfo import AMEM_DEFAULT_MODEL, AMEM_LEGACY_MODEL
from amem_tui.engine.store.base import NoteStore

#: The vector size of openclaw-amem's legacy default model.
LEGACY_SIZE = 384
_GENERATION = re.compile(r"^(?P<base>.+)_v(?P<n>\d+)$")


def amem_model(store: NoteStore, collection: str) -> tuple[str, str] | None:
    """The model openclaw-amem opens ``collection`` with, and how it knows (None: the
    collection does not exist)."""
    info = store.collection_info(collection)
    if info is None:
        return None
    if info.embedding_model:
        return info.embedding_model, "recorded in its metadata"
    if info.vector_size == LEGACY_SIZE:
        return AMEM_LEGACY_MODEL, f"inferred from its {LEGACY_SIZE}-dimension vectors"
    return AMEM_DEFAULT_MODEL, "inferred: no model recorded, openclaw-amem's default"


def mixed_models(store: NoteStore, users: Mapping[str, Sequence[str]]) -> list[Problem]:
    """``users``: each collection name openclaw-amem opens, and its agents."""
    found: dict[str, tuple[str, str, list[str], str]] = {}
    for name, agents in users.items():
        real = store.resolve_alias(name)
        built = amem_model(store, real)
        if built is None:
            continue
        entry = found.setdefault(real, (built[0], built[1], [], name))
        entry[2].extend(a for a in agents if a not in entry[2])
    models = {m for m, _, _, _ in found.values()}
    if len(models) < 2:
        return []
    parts = []
    for real, (model, how, agents, named) in sorted(found.items()):
        shown = real if named == real else f"{named} (alias of {real})"
        parts.append(f"{shown} of {', '.join(agents)}: {model} ({how})")
    why = (
        "the collections openclaw-amem opens in one process need different embedding "
        f"models ({'; '.join(parts)}): it stops with MixedEmbeddingModelsError until "
        "they are migrated to one"
    )
    return [Problem(kind="mixed-models", severity="error", why=why)]


def _generation(name: str) -> tuple[str, int]:
    match = _GENERATION.match(name)
    return (match.group("base"), int(match.group("n"))) if match else (name, 1)


def stale_aliases(store: NoteStore) -> tuple[CheckResult | None, list[Problem]]:
    """The ``stale-alias`` problems, or the check's state when aliases cannot be read."""
    aliases = store.list_aliases()
    if aliases is None:
        return CheckResult(state="not supported", detail="aliases: not supported by this store"), []
    collections = set(store.list_collections())
    out: list[Problem] = []
    for alias, target in sorted(aliases.items()):
        if target not in collections:
            why = f"alias {alias} points at {target}, which does not exist"
            out.append(Problem(kind="stale-alias", severity="error", why=why, collection=alias))
            continue
        base, n = _generation(target)
        later = sorted(
            (m, name) for name in collections for b, m in [_generation(name)] if b == base and m > n
        )
        if not later:
            continue
        newest = later[-1][1]
        here, there = store.count(target), store.count(newest)
        if there >= here:
            why = (
                f"alias {alias} points at {target} ({here} notes), but {newest} holds "
                f"{there}: a migration built it and the alias was never switched to it"
            )
            out.append(Problem(kind="stale-alias", severity="warning", why=why, collection=alias))
    return None, out
