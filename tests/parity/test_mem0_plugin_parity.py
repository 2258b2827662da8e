"""amem-tui answers as the OpenClaw mem0 plugin answers, proven against the plugin's code.

The real plugin (``@mem0/openclaw-mem0``) and the real ``mem0ai`` SDK it pins, both
installed from tests/parity/js/package-lock.json (``npm ci`` there; ``.ci/run`` does it),
write memories through the REST stand-in, embedding with all-MiniLM-L6-v2 through an
Ollama-compatible test endpoint (our own model, so the SDK's vectors are ours), with
``infer: false``. Then the plugin answers: its ``memory_search`` tool and its
auto-recall hook, for every kind of identity it has (main, another agent, a
subagent's search and recall, an explicit ``agentId`` of main, a second user, a
session's short-term memory, skills mode). amem-tui, given the same openclaw.json
entry, must answer each one with the same memories in the same order; and again with
remote embeddings allowed, its queries embedded by the plugin's own embedder: the Ollama
endpoint, and an OpenAI-compatible one (``baseURL``) in a second run of the plugin.

Without node and the installed packages the module is skipped, except in CI (``CI`` or
``AMEM_REQUIRE_PARITY`` set; ``.ci/run`` sets the second), where that is a failure:
the parity tests never silently vanish there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from amem_tui.config import load_settings
from amem_tui.engine.embed import FastEmbedder
from amem_tui.engine.engine import MemoryEngine
from tests.support.ollama_standin import EMBED_MODEL, LLM_MODEL, OllamaStandIn
from tests.support.openai_standin import OpenAIStandIn
from tests.support.qdrant_standin import QdrantStandIn

JS = Path(__file__).parent / "js"
DRIVER = JS / "mem0_plugin_driver.mjs"
COLLECTION = "mem0_384d"
SESSION = "agent:main:s9"
RUN_SESSION = "agent:main:s-run"
DEV_SESSION = DEV = "agent:dev:s2"
SUBAGENT_SESSION = "agent:main:s9:subagent:helper"
BOB_SESSION = "agent:main:b1"


def _node_or_skip() -> str:
    node = shutil.which("node")
    installed = (JS / "node_modules" / "@mem0" / "openclaw-mem0").is_dir()
    if node and installed:
        return node
    why = "node is not installed" if not node else "run `npm ci` in tests/parity/js first"
    if os.environ.get("CI") or os.environ.get("AMEM_REQUIRE_PARITY"):
        pytest.fail(f"the mem0 parity tests cannot run in CI: {why}")
    pytest.skip(f"mem0 parity tests: {why}")


# What is written, as the plugin's memory_add tool is called (skills mode: infer false).
#: A session's short-term memory: memory_add with longTerm false in that session.
SHORT_TERM: dict[str, Any] = {"session": RUN_SESSION, "longTerm": False}


def w(user: str, text: str, **params: Any) -> dict[str, Any]:
    """One memory_add call: ``params`` are its own (session, agentId, longTerm, category)."""
    return {"user": user, "text": text, **params}


WRITES: list[dict[str, Any]] = [
    w("alice", "Alice drinks a dark roast coffee every morning", category="preference"),
    w("alice", "Alice is allergic to peanuts", category="identity"),
    w("alice", "Alice prefers dark mode in every editor", category="preference"),
    w("alice", "The active project is the billing migration to the new ledger", category="project"),
    w("alice", "We decided to deploy only on Tuesdays and Thursdays", category="decision"),
    w("alice", "CI is configured to run on self-hosted runners", category="configuration"),
    w("alice", "Alice's standup is at 9:30 on weekdays"),
    w("alice", "Alice lives in Lisbon and works remotely"),
    w("alice", "Alice's manager is Priya"),
    w("alice", "Alice likes hiking in the mountains on weekends", category="preference"),
    w("alice", "The office coffee machine is broken until Friday"),
    w("alice", "Alice's favourite tea is jasmine green tea", category="preference"),
    w("alice", "Alice plays the cello in a community orchestra"),
    w("alice", "Never schedule meetings for Alice before 9 am", category="rule"),
    w("alice", "The web workspace uses pnpm and Node 20", session=DEV, category="technical"),
    w("alice", "Lint with ruff before every commit in the api repo", session=DEV, category="rule"),
    w("alice", "The staging database is refreshed every Monday", session=DEV),
    w("alice", "Deploy freezes start on the last Friday of the quarter", session=DEV),
    w("alice", "The helper summarised the release checklist", agentId="subagent-helper"),
    w(
        "alice",
        "The helper found three flaky tests in the payments suite",
        agentId="subagent-helper",
    ),
    w("alice", "The travel budget for the offsite is 2000 euros", agentId="main"),
    w("alice", "Book the offsite venue in Porto", agentId="main"),
    w("alice", "In this session Alice is drafting the quarterly report", **SHORT_TERM),
    w("alice", "The quarterly report needs the churn figures from finance", **SHORT_TERM),
    w("bob", "Bob prefers green tea over coffee", category="preference"),
    w("bob", "Bob is on call this week for the payments service"),
    w("bob", "Bob is allergic to cats", category="identity"),
    w("bob", "Bob's active project is the mobile app redesign", category="project"),
]

QUERIES = [
    "who is allergic",
    "coffee",
    "what is the active project",
    "when do we deploy",
    "travel budget for the offsite",
    "which package manager does the workspace use",
    "quarterly report",
    "hi",
    "hobbies and music",
]


@dataclass(frozen=True)
class Identity:
    """One way the plugin is asked, and how amem-tui is asked the same."""

    name: str
    user: str
    session: str | None = None
    agent_id: str | None = None  # memory_search's agentId parameter
    namespace: str | None = None  # amem-tui: --namespace for that agentId
    limit: int | None = None
    recall: bool = True
    entry: dict[str, Any] | None = None


SKILLS = {"recall": {"maxMemories": 4, "tokenBudget": 40, "threshold": 0.2}}

IDENTITIES = [
    Identity("main", "alice"),
    Identity("main in a session", "alice", session=SESSION),
    Identity("main, limit 3", "alice", limit=3, recall=False),
    Identity("dev", "alice", session=DEV_SESSION),
    Identity("subagent", "alice", session=SUBAGENT_SESSION),
    Identity(
        "alice:agent:main", "alice", agent_id="main", namespace="alice:agent:main", recall=False
    ),
    Identity("second user", "bob"),
    Identity("second user in a session", "bob", session=BOB_SESSION),
    Identity("a run's own session", "alice", session=RUN_SESSION),
    Identity("skills mode", "alice", session=SESSION, entry={"skills": SKILLS}),
    Identity(
        "thresholds set", "alice", session=SESSION, entry={"topK": 3, "searchThreshold": 0.25}
    ),
]


def plugin_entry(qdrant: str, ollama: str) -> dict[str, Any]:
    """The plugin's entry as a user of Ollama and a Qdrant server writes it."""
    return {
        "mode": "open-source",
        "userId": "alice",
        "autoCapture": False,
        "oss": {
            "embedder": {"provider": "ollama", "config": {"model": EMBED_MODEL, "url": ollama}},
            "llm": {
                "provider": "ollama",
                "config": {"model": f"{LLM_MODEL}:latest", "url": ollama},
            },
            "vectorStore": {
                "provider": "qdrant",
                "config": {"url": qdrant, "collectionName": COLLECTION, "dimension": 384},
            },
        },
    }


@dataclass
class Run:
    """The stores, the plugin's answers and amem-tui's settings for one shared store."""

    qdrant: QdrantStandIn
    ollama: OllamaStandIn
    answers: dict[str, Any]
    entry: dict[str, Any]
    home: Path


def _reads(identities: list[Identity]) -> list[dict[str, Any]]:
    """The driver's reads: every query, as each identity asks it."""
    reads = []
    for who in identities:
        read: dict[str, Any] = {
            "name": who.name,
            "user": who.user,
            "queries": QUERIES,
            "recall": who.recall,
        }
        for key, value in (
            ("session", who.session),
            ("agentId", who.agent_id),
            ("limit", who.limit),
            ("entry", who.entry),
        ):
            if value is not None:
                read[key] = value
        reads.append(read)
    return reads


def run_plugin(home: Path, entry: dict[str, Any], identities: list[Identity]) -> dict[str, Any]:
    """The plugin, given ``entry``, writes ``WRITES`` and answers every read."""
    node = _node_or_skip()
    script = home / "script.json"
    answer = home / "answer.json"
    script.write_text(json.dumps({"entry": entry, "writes": WRITES, "reads": _reads(identities)}))
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "MEM0_TELEMETRY": "false",
        "MEM0_DIR": str(home / "mem0"),
    }
    done = subprocess.run(
        [node, str(DRIVER), str(script), str(answer)],
        cwd=JS,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-2000:]
    answers: dict[str, Any] = json.loads(answer.read_text())
    return answers


@pytest.fixture(scope="module")
def parity(
    fastembed_embedder: FastEmbedder, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Run]:
    _node_or_skip()
    home = tmp_path_factory.mktemp("parity")
    with QdrantStandIn() as qdrant, OllamaStandIn(fastembed_embedder) as ollama:
        entry = plugin_entry(qdrant.url, ollama.url)
        yield Run(qdrant, ollama, run_plugin(home, entry, IDENTITIES), entry, home)


def amem_engine(run: Run, fastembed: FastEmbedder | None, who: Identity) -> MemoryEngine:
    """amem-tui as a user runs it: the same openclaw.json entry, the same server.
    Without ``fastembed``, remote embeddings are allowed: queries go to the plugin's
    own embedder."""
    entry = {**run.entry, "userId": who.user, **(who.entry or {})}
    config = run.home / f"openclaw-{who.name.replace(' ', '-').replace(':', '_')}.json"
    config.write_text(json.dumps({"plugins": {"entries": {"openclaw-mem0": {"config": entry}}}}))
    flags: dict[str, Any] = {"config_file": config, "url": run.qdrant.url}
    if fastembed is None:
        flags["remote_embeddings"] = True
    if who.namespace:
        flags["namespace"] = who.namespace
    settings = load_settings(flags, env={})
    if fastembed is None:
        return MemoryEngine(settings)
    return MemoryEngine(settings, embedder=fastembed)


def amem_ids(engine: MemoryEngine, who: Identity, query: str, view: str, first: bool) -> list[str]:
    """amem-tui's answer for one identity, view and query, as memory ids in order."""
    if who.session is not None:
        scope = engine.session_views(who.session)[0 if view == "search" else 1]
    elif view == "search":
        scope = engine.scope()
    else:  # main's recall without a session: what any of main's sessions recalls
        scope = engine.session_views("agent:main:any")[1]
    result = engine.agent(scope, session_key=who.session).search(
        query, limit=who.limit, first_turn=first, exact=True
    )
    return [hit.note.id for hit in result.hits]


def test_the_plugin_wrote_every_memory_through_the_stand_in(parity: Run) -> None:
    answers = parity.answers
    assert [w["ok"] for w in answers["writes"]] == [True] * len(WRITES), answers["writes"]
    assert answers["outside"] == []  # nothing but this machine was asked
    assert parity.qdrant.unknown == []  # the stand-in knew every route the SDK sent
    # and refused no body: what failed is the server's own answer (a collection that
    # already exists when the SDK creates its collections again).
    assert {(line, status) for line, status, _ in parity.qdrant.failed} <= {
        (f"PUT /collections/{name}", 409)
        for name in (COLLECTION, "memory_migrations", f"{COLLECTION}_entities")
    }
    assert parity.ollama.unknown == []  # no model pulled, no LLM asked
    names = {c.name for c in parity.qdrant.client.get_collections().collections}
    assert {COLLECTION, "memory_migrations", f"{COLLECTION}_entities"} <= names


def mismatches(run: Run, engine: MemoryEngine, who: Identity) -> list[Any]:
    """Where amem-tui's answers differ from the plugin's, for every query of ``who``."""
    rows = [r for r in run.answers["reads"] if r["name"] == who.name]
    assert len(rows) == len(QUERIES)
    found = []
    for row in rows:
        query = row["query"]
        theirs = [m["id"] for m in row["search"]]
        ours = amem_ids(engine, who, query, "search", first=False)
        if ours != theirs:
            found.append(("memory_search", query, theirs, ours))
        if not who.recall:
            continue
        for key, first in (("recall_first", True), ("recall_next", False)):
            theirs = row[key]
            assert all(not i.startswith("?") for i in theirs), theirs
            ours = amem_ids(engine, who, query, "recall", first=first)
            if ours != theirs:
                found.append((key, query, theirs, ours))
    return found


@pytest.mark.parametrize("who", IDENTITIES, ids=lambda who: who.name)
def test_memory_search_and_recall_match_the_plugin(
    parity: Run, fastembed_embedder: FastEmbedder, who: Identity
) -> None:
    engine = amem_engine(parity, fastembed_embedder, who)
    try:
        assert mismatches(parity, engine, who) == []
    finally:
        engine.close()


#: The identities asked again with remote embeddings on (one of each kind of scope).
REMOTE = [IDENTITIES[1], IDENTITIES[3], IDENTITIES[7]]


@pytest.mark.parametrize("who", REMOTE, ids=lambda who: who.name)
def test_the_rows_match_with_the_plugin_s_ollama_embedder(parity: Run, who: Identity) -> None:
    """With remote embeddings allowed, the queries go to the plugin's own embedder (the
    Ollama endpoint of its entry), and the answers stay the plugin's."""
    engine = amem_engine(parity, None, who)
    try:
        asked = parity.ollama.requests.count("POST /api/embed")
        embedding = engine.query_embedding()
        assert embedding.verdict == "exact" and embedding.runtime == "ollama", embedding
        assert mismatches(parity, engine, who) == []
        assert parity.ollama.requests.count("POST /api/embed") > asked
    finally:
        engine.close()


OPENAI_KEY = "sk-parity-0123456789abcdef"


@pytest.fixture(scope="module")
def openai_parity(
    fastembed_embedder: FastEmbedder, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Run, OpenAIStandIn]]:
    """The plugin with an OpenAI-compatible embedder (``baseURL`` on this machine)."""
    _node_or_skip()
    home = tmp_path_factory.mktemp("parity-openai")
    with (
        QdrantStandIn() as qdrant,
        OllamaStandIn(fastembed_embedder) as ollama,
        OpenAIStandIn(fastembed_embedder, OPENAI_KEY) as openai,
    ):
        entry = plugin_entry(qdrant.url, ollama.url)
        entry["oss"]["embedder"] = {
            "provider": "openai",
            "config": {
                "apiKey": OPENAI_KEY,
                "baseURL": openai.url,
                "model": openai.model,
                "embeddingDims": 384,
            },
        }
        answers = run_plugin(home, entry, REMOTE)
        assert [w["ok"] for w in answers["writes"]] == [True] * len(WRITES)
        assert answers["outside"] == []
        yield Run(qdrant, ollama, answers, entry, home), openai


@pytest.mark.parametrize("who", REMOTE, ids=lambda who: who.name)
def test_the_rows_match_with_an_openai_compatible_embedder(
    openai_parity: tuple[Run, OpenAIStandIn], who: Identity
) -> None:
    run, openai = openai_parity
    engine = amem_engine(run, None, who)
    try:
        asked = len(openai.requests)
        embedding = engine.query_embedding()
        assert embedding.verdict == "exact", embedding.reason
        assert embedding.key_source == "openclaw.json apiKey"
        assert mismatches(run, engine, who) == []
        assert len(openai.requests) > asked
        assert all(OPENAI_KEY not in str(value) for value in embedding.model_dump().values())
    finally:
        engine.close()


def test_the_runs_are_not_trivial(parity: Run) -> None:
    """The data makes every rule bite: the threshold, half the top score, topK, the
    first turn's query, the namespaces; a test that could not fail proves nothing."""
    reads = {(r["name"], r["query"]): r for r in parity.answers["reads"]}
    main = reads[("main in a session", "coffee")]
    assert 0 < len(main["recall_next"]) < len(main["search"])  # half the top score bites
    assert any(
        reads[(who.name, q)]["recall_first"] != reads[(who.name, q)]["recall_next"]
        for who in IDENTITIES
        if who.recall and who.session
        for q in QUERIES
    )  # the first turn's broad query adds memories
    assert reads[("main", "hi")]["recall_next"] == []  # no recall under 5 characters
    assert len(reads[("main, limit 3", "coffee")]["search"]) <= 3
    assert len(reads[("main", "coffee")]["search"]) == 5  # topK fills
    sub = reads[("subagent", "who is allergic")]
    assert {m["id"] for m in sub["search"]}.isdisjoint(sub["recall_next"])  # two namespaces
    bob = {m["memory"] for m in reads[("second user", "who is allergic")]["search"]}
    assert bob and all(text.startswith("Bob") for text in bob)
    report = {m["memory"] for m in reads[("main", "quarterly report")]["search"]}
    assert "In this session Alice is drafting the quarterly report" in report  # no run_id
    skills = reads[("skills mode", "coffee")]["recall_next"]
    assert 0 < len(skills) <= 4
