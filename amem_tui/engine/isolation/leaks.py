"""The leak audit: for every pair of identities (agents; in a mem0 collection, its
namespaces), what of A's private memory B can reach, by which path, and how sure that
is; and the settings that break isolation. One read of the store, then each kind of
finding from what was read (see ``findings`` for the kinds and their severity).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

from threadpoolctl import threadpool_limits

from amem_tui.engine.agents import AgentDirectory
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.isolation.collect import Collector
from amem_tui.engine.isolation.copies import COMMON, LONG_RUN
from amem_tui.engine.isolation.exposure import (
    links,
    merges,
    near_pairs,
    secrets,
    text_copies,
    vector_copies,
)
from amem_tui.engine.isolation.findings import Coverage, LeakReport
from amem_tui.engine.isolation.reach import Identity, ReachTable, identity_name
from amem_tui.engine.isolation.stray import Setup, stray
from amem_tui.engine.isolation.survey import Audited, Progress, Survey, space_name
from amem_tui.engine.isolation.vectors import VectorSpace
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.settings import EngineSettings


def audited_collections(
    names: Sequence[str],
    agents: Sequence[AgentScope],
    collection_of: Callable[[str], CollectionService],
    settings: EngineSettings,
) -> list[Audited]:
    """The collections to audit, each with the identities that read it: the agents
    whose scope names it (aliases resolved), or in a mem0 collection its namespaces.
    A collection nobody reads is left out (nothing in it reaches anyone)."""
    out: list[Audited] = []
    spaces: dict[str, VectorSpace] = {}
    seen: set[str] = set()
    for name in names:
        service = collection_of(name)
        if service.real_name in seen or service.info() is None:
            continue
        seen.add(service.real_name)
        if service.format == "mem0":
            mine = settings.model_copy(update={"collection": name})
            scopes = AgentDirectory(mine, service).mem0_scopes()
        else:
            scopes = [
                s for s in agents if collection_of(s.collection).real_name == service.real_name
            ]
        if not scopes:
            continue
        identities = [Identity(identity_name(s), s) for s in scopes]
        mode_b = next((s.agent for s in scopes if s.mode == "B"), None)
        where = space_name(service)
        space = None if where is None else spaces.setdefault(where, VectorSpace(where))
        out.append(Audited(service, identities, ReachTable(service, identities), mode_b, space))
    return out


def audit_leaks(
    collections: Sequence[Audited], setup: Setup, progress: Progress | None = None
) -> LeakReport:
    """Read the collections once and report every finding (``progress(done, total)``
    counts the points read)."""
    # One BLAS thread: the audit's products are many and small, and after each one
    # OpenBLAS's other threads spin waiting for the next, burning a core the text
    # scans need; the cosine runs in a thread of its own beside them anyway. The limit
    # is the process's while the audit runs.
    with threadpool_limits(1, user_api="blas"), _collector_paused():
        return _audit(collections, setup, progress)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while the audit runs (as it was, after)."""
    # The read keeps every note's fields alive until the end, so each collection pass
    # walks them all again and frees nothing: the audit makes no reference cycles to
    # collect. Whatever another thread leaves meanwhile is collected at the next pass.
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _audit(collections: Sequence[Audited], setup: Setup, progress: Progress | None) -> LeakReport:
    survey = Survey(list(collections))
    for audited in collections:
        if audited.space is not None:
            survey.spaces.setdefault(audited.space.name, audited.space)
    survey.read(progress)
    out = Collector()
    # The cosine comparison is matrix products, which let go of the interpreter: run
    # beside the text and credential scans, which hold it.
    with ThreadPoolExecutor(1, thread_name_prefix="leaks-cosine") as pool:
        vectors = pool.submit(near_pairs, survey)
        merged = merges(survey, out)
        found = text_copies(survey, out, merged)
        scanned = secrets(survey, out)
        links(survey, out)
        stray(survey, setup, out)
        pairs, coverage = vectors.result()
    vector_copies(survey, out, pairs, found | merged)
    names = sorted({i.name for a in collections for i in a.identities})
    texts = len(survey.sources)
    coverage += [
        Coverage(
            check="text",
            compared=texts,
            total=texts,
            how=(
                "every private note's words against every note read beyond its writer "
                f"(the same words, or {LONG_RUN} words in a row); "
                f"{survey.index.boilerplate:,} phrases held by more than {COMMON} texts "
                "counted as boilerplate"
            ),
        ),
        Coverage(
            check="secrets",
            compared=scanned,
            total=scanned,
            how="every note read beyond its owner, by detect-secrets' plugins",
        ),
    ]
    return LeakReport(
        findings=out.findings(),
        pairs_checked=len(names) * (len(names) - 1),
        notes_checked=len(survey.ids),
        agents=names,
        collections=[a.name for a in collections],
        coverage=coverage,
    )


def audit_store(
    names: Sequence[str],
    agents: Sequence[AgentScope],
    collection_of: Callable[[str], CollectionService],
    settings: EngineSettings,
    progress: Progress | None = None,
) -> LeakReport:
    """The audit of the collections ``names`` (those some identity reads), with the
    configuration's agents: what ``MemoryEngine.leaks`` runs."""
    audited = audited_collections(names, agents, collection_of, settings)
    setup = Setup(
        configured=settings.configured_agents(),
        dedicated=settings.dedicated_collections(),
        seen=[s.agent for s in agents if s.namespace is None],
        plugin_user=settings.mem0.user_id if settings.mem0 else None,
    )
    return audit_leaks(audited, setup, progress)
