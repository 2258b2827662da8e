"""A mem0 collection searched as the OpenClaw mem0 plugin searches it.

Read in ``@mem0/openclaw-mem0`` 1.0.16 and the ``mem0ai`` 3.0.7 SDK it pins (facts,
no code). The SDK's search over Qdrant asks for ``max(4 x topK, 60)`` nearest memories
of the ``user_id``, drops those whose cosine is below the threshold, keeps ``topK``,
then drops any without ``data``; its score is the cosine (plus an entity boost when
``<collection>_entities`` holds matching entities, which is not computed here). The
plugin then keeps scores at or above its threshold again.

- **memory_search**: ``limit`` (default ``topK``, 5) at threshold
  ``skills.recall.threshold``, else ``searchThreshold`` (0.1), of the session's
  ``user_id``. Its "session" half repeats the same search (it passes no ``run_id``),
  so a session's short-term memories are found from any session of the agent.
- **auto-recall** (before each prompt): ``max(2 x topK, 10)`` candidates at that
  threshold, those at or above ``searchThreshold``, then (with more than one) those at
  or above half the top score; on a session's first turn with a prompt under 100
  characters the best 5 for "recent decisions, preferences, active projects, and
  configuration" are added; then ``topK``. No recall for prompts under 5 characters,
  OpenClaw's start-up prompts, cron or heartbeat sessions, or ``autoRecall: false``.
- **skills mode** (a ``skills`` entry): its recall takes ``2 x maxMemories`` at
  ``skills.recall.threshold`` (0.4), adds the session's own memories with strategy
  ``always``, orders them by category and importance, and fills a token budget.

What the plugin leaves out of the agent's namespace comes back as hidden matches of
kind ``plugin``, each with the rule that drops it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from amem_tui.engine.models import MemoryNote
from amem_tui.engine.search.space import SearchSpace
from amem_tui.engine.search_results import HiddenMatch, SearchHit, SearchResult
from amem_tui.engine.settings import Mem0PluginConfig, Mem0Recall

#: The SDK asks Qdrant for at least this many nearest memories (``max(4 x topK, 60)``).
SDK_CANDIDATES = 60
#: Auto-recall looks at ``max(2 x topK, RECALL_CANDIDATES)`` memories.
RECALL_CANDIDATES = 10
#: Auto-recall keeps memories scoring at least this part of the best one.
HALF_TOP = 0.5
#: The query the plugin adds on a session's first turn, and how many it takes.
BROAD_QUERY = "recent decisions, preferences, active projects, and configuration"
BROAD_TOP_K = 5
#: A first turn's prompt shorter than this gets the broad query too.
BROAD_PROMPT_LIMIT = 100
#: Prompts shorter than this get no recall at all.
SHORTEST_PROMPT = 5
#: Skills mode adds at most this many of the session's own memories (strategy always).
SESSION_TOP_K = 5
#: OpenClaw's own start-up prompts, which the plugin never recalls for.
STARTUP_MARKS = ("a new session was started", "session startup sequence", "/new or /reset")
STARTUP_PREFIX = "run your session"
_SENDER = re.compile(r"Sender\s*\(untrusted metadata\):\s*```json[\s\S]*?```\s*", re.IGNORECASE)
_NON_INTERACTIVE = re.compile(r":(cron|heartbeat):", re.IGNORECASE)
_LEADING_TAG = re.compile(r"^\[.*?\]\s*")
#: Payload keys the SDK keeps out of a memory's ``metadata``.
NOT_METADATA = frozenset(
    {
        "user_id",
        "agent_id",
        "run_id",
        "hash",
        "data",
        "createdAt",
        "updatedAt",
        "textLemmatized",
        "attributedTo",
    }
)
#: Skills mode's importance of each category (a memory's ``importance`` wins).
IMPORTANCE = {
    "identity": 0.95,
    "configuration": 0.95,
    "rule": 0.9,
    "preference": 0.85,
    "decision": 0.8,
    "technical": 0.8,
    "relationship": 0.75,
    "project": 0.75,
    "operational": 0.6,
}
ALWAYS_INCLUDED = ("identity", "configuration")


@dataclass(eq=False)
class Found:
    """One memory of the agent's namespace with its cosine to the query."""

    note: MemoryNote
    score: float
    has_data: bool
    rank: int
    #: Why the plugin gives it to the agent, or (``dropped``) why it does not.
    why: str = ""
    dropped: bool = False


@dataclass
class PluginAnswer:
    """What the plugin gives the agent (in order) and what it drops, with the rules."""

    kept: list[Found] = field(default_factory=list)
    dropped: list[Found] = field(default_factory=list)
    ranking: str = ""
    notices: list[str] = field(default_factory=list)


def rules_of(config: Mem0PluginConfig | None) -> Mem0PluginConfig:
    """The plugin's settings, or its defaults without an openclaw.json entry."""
    return config if config is not None else Mem0PluginConfig(user_id="")


def clean_prompt(prompt: str) -> str:
    """The prompt as auto-recall searches it: OpenClaw's sender block removed, trimmed."""
    return _SENDER.sub("", prompt).strip()


def skills_query(prompt: str) -> str:
    """The prompt as skills-mode recall searches it (a leading ``[tag]`` removed too)."""
    cleaned = _LEADING_TAG.sub("", _SENDER.sub("", prompt), count=1).strip()
    return cleaned or prompt


def no_recall_reason(prompt: str, session_key: str | None, config: Mem0PluginConfig) -> str | None:
    """Why the plugin injects nothing before this prompt (None: it recalls)."""
    if not config.auto_recall and config.skills is None:
        return "autoRecall is off in the plugin's entry: nothing is injected"
    if len(prompt) < SHORTEST_PROMPT:
        return f"the plugin recalls nothing for a prompt under {SHORTEST_PROMPT} characters"
    if session_key and _NON_INTERACTIVE.search(session_key):
        return "a cron or heartbeat session: the plugin recalls nothing for it"
    lower = prompt.lower()
    if any(mark in lower for mark in STARTUP_MARKS) or lower.startswith(STARTUP_PREFIX):
        return "an OpenClaw start-up prompt: the plugin recalls nothing for it"
    skills = config.skills
    if skills is not None and not skills.enabled:
        return "skills.recall.enabled is false: nothing is injected"
    if skills is not None and skills.strategy == "manual":
        return "skills.recall.strategy is manual: the agent searches itself, nothing is injected"
    return None


def _nearest(
    space: SearchSpace, vector: np.ndarray, want: int, exact: bool, run_id: str | None = None
) -> list[Found]:
    """The ``want`` nearest memories of the namespace, best first (cosine > 0 only as
    matches; the SDK takes every score, and so does the threshold here)."""
    from amem_tui.engine.store.filters import Filter, Match

    scope, own = space.scope, space.own
    flt = own.read_filter(scope)
    if run_id is not None:
        flt = Filter(must=(flt, Match("run_id", run_id)))
    out: list[Found] = []
    for point in own.store.search(own.name, vector.tolist(), flt, want, exact=exact):
        note = own.note(point.id, point.payload)
        if own.visible_because(scope, note) is None:  # the filter and the rule disagree
            continue
        data = point.payload.get("data")
        out.append(Found(note, float(point.score), bool(data), len(out) + 1))
    return out


def _sdk_search(found: list[Found], top_k: int, threshold: float) -> list[Found]:
    """The SDK's answer from its candidates: cosine at or above the threshold, the best
    ``top_k``, those without ``data`` dropped (the plugin's own threshold is the same)."""
    kept = [f for f in found if f.score >= threshold][:top_k]
    return [f for f in kept if f.has_data]


def _threshold_name(config: Mem0PluginConfig) -> str:
    """Which setting the plugin's search threshold comes from."""
    return "skills.recall.threshold" if config.recall_threshold is not None else "searchThreshold"


def _drop(found: Found, why: str) -> Found:
    found.dropped, found.why = True, why
    return found


def _below(found: Found, threshold: float, what: str) -> Found:
    """Dropped under a threshold (``what``: the setting it comes from)."""
    return _drop(
        found, f"cosine {found.score:.2f} below the plugin's threshold {threshold:g} ({what})"
    )


def memory_search(
    space: SearchSpace, vector: np.ndarray, limit: int, exact: bool, config: Mem0PluginConfig
) -> PluginAnswer:
    """What the plugin's memory_search tool returns, and what it leaves out."""
    threshold = config.threshold
    named = _threshold_name(config)
    found = _nearest(space, vector, max(4 * limit, SDK_CANDIDATES), exact)
    kept = _sdk_search(found, limit, threshold)
    answer = PluginAnswer(
        ranking=(
            f"memory_search as the mem0 plugin runs it: cosine >= {threshold:g} ({named}), "
            f"best {limit}"
        )
    )
    for position, item in enumerate(kept, 1):
        item.why = (
            f"cosine {item.score:.3f}, at or above the plugin's threshold {threshold:g}; "
            f"#{position} of memory_search's {limit}"
        )
    answer.kept = kept
    chosen = {id(f) for f in kept}
    for item in found:
        if id(item) in chosen:
            continue
        if item.score < threshold:
            if item.score > 0:
                answer.dropped.append(_below(item, threshold, named))
        elif not item.has_data:
            answer.dropped.append(_drop(item, "has no data: the SDK leaves it out of results"))
    return answer


def auto_recall(
    space: SearchSpace,
    prompt: str,
    embed: Any,
    exact: bool,
    config: Mem0PluginConfig,
    session_key: str | None,
    first_turn: bool,
) -> PluginAnswer:
    """What the plugin injects before the agent's turn (``embed``: text -> vector)."""
    reason = no_recall_reason(prompt, session_key, config)
    if reason is not None:
        return PluginAnswer(ranking="auto-recall as the mem0 plugin runs it", notices=[reason])
    if config.skills is not None:
        return _skills_recall(space, prompt, embed, exact, config, config.skills, session_key)
    query = clean_prompt(prompt)
    top_k, threshold, floor = config.top_k, config.threshold, config.search_threshold
    wanted = max(2 * top_k, RECALL_CANDIDATES)
    turn = "a session's first turn" if first_turn and session_key else "a later turn"
    answer = PluginAnswer(
        ranking=(
            f"auto-recall as the mem0 plugin runs it ({turn}): {wanted} candidates, "
            f"cosine >= {max(threshold, floor):g}, >= half the top score, best {top_k}"
        )
    )
    found = _nearest(space, np.asarray(embed(query)), max(4 * wanted, SDK_CANDIDATES), exact)
    candidates = _sdk_search(found, wanted, threshold)
    kept = [f for f in candidates if f.score >= floor]
    for item in found:
        if any(item is c for c in candidates):
            continue
        if item.score < threshold and item.score > 0:
            answer.dropped.append(_below(item, threshold, _threshold_name(config)))
        elif item.score >= threshold:
            answer.dropped.append(
                _drop(item, f"#{item.rank} by cosine: auto-recall looks at the best {wanted}")
            )
    answer.dropped += [
        _below(f, floor, "searchThreshold") for f in candidates if not any(f is k for k in kept)
    ]
    if len(kept) > 1 and kept[0].score > 0:
        half = kept[0].score * HALF_TOP
        for item in kept[1:]:
            if item.score < half:
                answer.dropped.append(
                    _drop(
                        item,
                        f"cosine {item.score:.2f} below half the top score "
                        f"({kept[0].score:.2f} / 2 = {half:.3f})",
                    )
                )
        kept = [f for f in kept if f.score >= half]
    for position, item in enumerate(kept, 1):
        item.why = (
            f"cosine {item.score:.3f}: a recall candidate (#{item.rank}), at or above the "
            f"threshold and half the top score; #{position} recalled"
        )
    if first_turn and not session_key:
        answer.notices.append(
            "a first turn needs a session key: without one the plugin never adds its "
            "first-turn query"
        )
    if first_turn and session_key and len(query) < BROAD_PROMPT_LIMIT:
        seen = {f.note.id for f in kept}
        broad_found = _nearest(space, np.asarray(embed(BROAD_QUERY)), SDK_CANDIDATES, exact)
        for item in _sdk_search(broad_found, BROAD_TOP_K, floor):
            if item.note.id in seen:
                continue
            seen.add(item.note.id)
            item.why = (
                f"added on the session's first turn by the plugin's query {BROAD_QUERY!r} "
                f"(cosine {item.score:.3f} to it)"
            )
            kept.append(item)
            answer.dropped = [d for d in answer.dropped if d.note.id != item.note.id]
    for position, item in enumerate(kept, 1):
        if position > top_k:
            answer.dropped.append(
                _drop(item, f"#{position} after the filters: auto-recall injects topK {top_k}")
            )
    answer.kept = kept[:top_k]
    return answer


def _metadata(note: MemoryNote) -> dict[str, Any]:
    extra = note.model_extra or {}
    raw = extra.get("mem0_metadata")
    return dict(raw) if isinstance(raw, dict) else {}


def category_of(note: MemoryNote) -> str:
    """A memory's category as skills mode reads it (its metadata's ``category``)."""
    category = _metadata(note).get("category")
    return category if isinstance(category, str) and category else "uncategorized"


def importance_of(note: MemoryNote) -> float:
    """A memory's importance: its metadata's ``importance``, else its category's."""
    value = _metadata(note).get("importance")
    if isinstance(value, int | float) and not isinstance(value, bool) and value:
        return float(value)
    return IMPORTANCE.get(category_of(note), 0.5)


def tokens_of(text: str) -> int:
    """The plugin's token estimate: a token per 4 characters (JavaScript's UTF-16 units)."""
    return math.ceil(len(text.encode("utf-16-le")) // 2 / 4)


def _skills_recall(
    space: SearchSpace,
    prompt: str,
    embed: Any,
    exact: bool,
    config: Mem0PluginConfig,
    recall: Mem0Recall,
    session_key: str | None,
) -> PluginAnswer:
    query = skills_query(prompt)
    wanted = recall.max_memories * 2
    answer = PluginAnswer(
        ranking=(
            f"skills-mode recall as the mem0 plugin runs it: {wanted} candidates, cosine >= "
            f"{recall.threshold:g}, ordered by category and importance, at most "
            f"{recall.max_memories} in {recall.token_budget} tokens"
        )
    )
    vector = np.asarray(embed(query))
    found = _nearest(space, vector, max(4 * wanted, SDK_CANDIDATES), exact)
    kept = _sdk_search(found, wanted, recall.threshold)
    for item in found:
        if any(item is k for k in kept):
            continue
        if 0 < item.score < recall.threshold:
            answer.dropped.append(_below(item, recall.threshold, "skills.recall.threshold"))
        elif item.score >= recall.threshold and item.has_data:
            answer.dropped.append(
                _drop(item, f"#{item.rank} by cosine: skills recall looks at the best {wanted}")
            )
    subagent = bool(session_key) and ":subagent:" in (session_key or "").lower()
    if recall.strategy == "always" and session_key and not subagent:
        seen = {f.note.id for f in kept}
        found_run = _nearest(space, vector, SDK_CANDIDATES, exact, run_id=session_key)
        for item in _sdk_search(found_run, SESSION_TOP_K, recall.threshold):
            if item.note.id not in seen:
                item.why = "one of the session's own memories (strategy always)"
                kept.append(item)
    order = {name: i for i, name in enumerate(recall.category_order)}
    ranked = sorted(
        kept,
        key=lambda f: (order.get(category_of(f.note), 999), -importance_of(f.note), -f.score),
    )
    used = 0
    chosen: list[Found] = []
    for item in ranked:
        if len(chosen) >= recall.max_memories:
            answer.dropped.append(
                _drop(item, f"past skills.recall.maxMemories {recall.max_memories}")
            )
            continue
        cost = tokens_of(item.note.content)
        always = recall.identity_always_include and category_of(item.note) in ALWAYS_INCLUDED
        if not always and used + cost > recall.token_budget:
            answer.dropped.append(
                _drop(item, f"over skills.recall.tokenBudget {recall.token_budget} ({cost} tokens)")
            )
            continue
        used += cost
        item.why = item.why or (
            f"cosine {item.score:.3f} >= {recall.threshold:g}; category "
            f"{category_of(item.note)}, importance {importance_of(item.note):.2f}"
        )
        chosen.append(item)
    answer.kept = chosen
    return answer


def fill(result: SearchResult, answer: PluginAnswer) -> None:
    """Put the plugin's answer into a search result (hits in the plugin's order)."""
    result.ranking = answer.ranking
    for item in answer.kept:
        result.hits.append(
            SearchHit(
                note=item.note,
                score=item.score,
                similarity=item.score,
                dense_rank=item.rank,
                because="private",
                explanation=f"{item.why}; visible: its user_id '{item.note.user_id}'",
            )
        )


def dropped_matches(space: SearchSpace, answer: PluginAnswer) -> list[HiddenMatch]:
    """The namespace's memories the plugin leaves out, as hidden matches with the rule."""
    own = space.own
    return [
        HiddenMatch(
            id=item.note.id,
            reason=f"the mem0 plugin leaves it out: {item.why}",
            kind="plugin",
            owner=item.note.effective_owner,
            agent_id=item.note.agent_id,
            collection=own.name,
            score=item.score,
            similarity=item.score,
        )
        for item in answer.dropped
    ]
