"""Notes that name the wrong agents or sit in the wrong place: grants that cannot work
(``grant-unusable``), agents nobody configured (``unknown-agent``), another agent's
notes in a Mode B collection (``misplaced``), and mem0 memories in namespaces no identity
of the plugin reads (``orphan-namespace``). Each access group is judged once; the
finding lists every note of the groups it names.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import amem_tui.engine.scope as rules
from amem_tui.engine.formats import mem0
from amem_tui.engine.isolation.collect import Collector, Gathered
from amem_tui.engine.isolation.survey import Survey
from amem_tui.engine.models import EVERYONE, SHARED
from amem_tui.engine.scope import AgentScope


@dataclass(frozen=True)
class Setup:
    """What the configuration says about agents: who it names, who is Mode B, which
    user the mem0 plugin reads for."""

    configured: Sequence[str]
    dedicated: Mapping[str, str]
    #: Agents found in the store (their notes' ``agent_id``), configured or not.
    seen: Sequence[str]
    plugin_user: str | None = None


def _groups(survey: Survey) -> dict[tuple[int, int], list[str]]:
    """The ids of each (collection, access group)."""
    out: dict[tuple[int, int], list[str]] = {}
    for position, note_id in enumerate(survey.ids):
        out.setdefault((survey.where[position], survey.codes[position]), []).append(note_id)
    return out


def _detail(found: Gathered) -> str:
    return found.detail["sentence"]


def stray(survey: Survey, setup: Setup, out: Collector) -> None:
    """Every finding of this module's kinds."""
    known = sorted({*setup.configured, *setup.seen} - {SHARED, EVERYONE})
    for (number, code), ids in _groups(survey).items():
        audited = survey.collections[number]
        note = audited.reach.groups[code].note
        name = audited.name
        if audited.service.format == "mem0":
            _orphans(out, name, note.user_id, ids, setup.plugin_user)
            continue
        if audited.mode_b is not None:
            _misplaced(out, name, audited.mode_b, note.agent_id, note.effective_owner, ids)
        if note.malformed:
            continue
        owner = note.effective_owner
        for agent in dict.fromkeys(a for a in (note.agent_id, owner) if a):
            if agent not in setup.configured and agent != SHARED:
                sentence = (
                    f"notes in '{name}' name agent '{agent}' (agent_id or owner), which the "
                    f"configuration does not name: any session running as '{agent}' "
                    f"(session key agent:{agent}:…) reads them"
                )
                out.add(
                    "unknown-agent",
                    agent,
                    None,
                    first=None,
                    others=ids,
                    collection=name,
                    path="none",
                    certainty="certain",
                    why=_detail,
                    sentence=sentence,
                )
        # In a Mode B collection the grant is its agent's to give (whoever wrote the note).
        owner_scope = (
            AgentScope(audited.mode_b, "B", audited.service.name)
            if audited.mode_b
            else AgentScope(owner or rules.DEFAULT_AGENT, "A", audited.service.name)
        )
        for field, names in (("readers", note.readers), ("writers", note.writers)):
            for named in dict.fromkeys(names or ()):
                if named in (EVERYONE, owner, note.agent_id):
                    continue
                grant = _unusable(field, named, owner_scope, setup, known)
                if grant is None:
                    continue
                out.add(
                    "grant-unusable",
                    owner,
                    named,
                    first=None,
                    others=ids,
                    collection=name,
                    path="none",
                    certainty="certain",
                    why=_detail,
                    sentence=grant,
                )


def _unusable(
    field: str, named: str, owner: AgentScope, setup: Setup, known: Sequence[str]
) -> str | None:
    """Why a grant of ``field`` to ``named`` gives nothing (None: it works)."""
    own = setup.dedicated.get(named)
    if field == "writers" and owner.mode == "A" and own is not None:
        return (
            f"writers name '{named}', which is Mode B: it reads only its own collection "
            f"'{own}', so it never reaches this note to modify it"
        )
    denial = rules.readers_denial(owner, [named], setup.dedicated)
    if denial is not None:
        return f"{field} name '{named}': {denial.message}"
    if named in known:
        return None
    close = difflib.get_close_matches(named, known, n=1, cutoff=0.75)
    if close:
        return (
            f"{field} name '{named}', which is no agent: a misspelling of '{close[0]}'? "
            f"'{close[0]}' gets nothing from it"
        )
    return (
        f"{field} name '{named}', which is no agent the configuration or the store names: "
        f"nobody gets anything from it, until an agent of that name runs"
    )


def _misplaced(
    out: Collector,
    collection: str,
    holder: str,
    agent_id: str | None,
    owner: str | None,
    ids: list[str],
) -> None:
    theirs = agent_id if agent_id not in (None, "", SHARED) else owner
    if not theirs or theirs == holder:
        return
    sentence = (
        f"'{collection}' is {holder}'s Mode B collection, and {holder} reads all of it: "
        f"it reads these notes of {theirs}'s (agent_id '{agent_id}'), which {theirs} "
        "itself never finds there"
    )
    out.add(
        "misplaced",
        theirs,
        holder,
        first=None,
        others=ids,
        collection=collection,
        path="collection",
        certainty="certain",
        why=_detail,
        sentence=sentence,
    )


def _orphans(
    out: Collector, collection: str, user_id: str | None, ids: list[str], plugin_user: str | None
) -> None:
    sentence: str | None
    sure: str = "certain"
    if user_id is None:
        sentence = f"memories in '{collection}' with no user_id: {mem0.NO_USER_ID}"
    else:
        found = mem0.parse_namespace(user_id)
        if plugin_user is not None and found.user != plugin_user:
            sentence = (
                f"memories of user '{found.user}' (user_id '{user_id}'): the plugin's userId "
                f"is '{plugin_user}', so none of its identities reads them"
            )
        elif found.explicit:
            sentence = (
                f"memories in '{user_id}': written with an explicit agentId 'main'; main's "
                "sessions never recall them, only a tool call naming agentId 'main' reads them"
            )
        elif found.agent.startswith(mem0.SUBAGENT_PREFIX):
            sure = "likely"
            sentence = (
                f"memories in '{user_id}': only the subagent's memory_search reads them, while "
                "its session runs; after the run no identity of the plugin reads them"
            )
        else:
            sentence = None
    if sentence is None:
        return
    out.add(
        "orphan-namespace",
        user_id,
        None,
        first=None,
        others=ids,
        collection=collection,
        path="none",
        certainty="likely" if sure == "likely" else "certain",
        why=_detail,
        sentence=sentence,
    )
