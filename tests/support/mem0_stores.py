"""mem0 stores as the OpenClaw mem0 plugin and the mem0 SDKs leave them.

Built straight through qdrant-client from the facts in
../shared/reference/payloads.md, never with our own writer:

- ``mem0_384d`` in the TypeScript SDK's shape (``data``, ``hash``, ``textLemmatized``,
  ``createdAt``, ``updatedAt`` after an update, metadata spread flat), named by vector
  size as the plugin's set-up names it, beside the SDK's 1-dimensional
  ``memory_migrations`` collection;
- ``mem0`` in the Python SDK's shape (``created_at``/``updated_at``, ``role``,
  ``actor_id``, ``text_lemmatized``) with a sparse ``bm25`` vector slot.

Both hold two users (alice, bob), three agents (main, dev, research), a subagent's
namespace, alice's ``:agent:main`` namespace, a run-scoped memory, an updated one,
and a deleted one (mem0 removes the point, so it is simply absent).
"""

from __future__ import annotations

import uuid
from typing import Any

from qdrant_client import QdrantClient
from qdrant_client import models as qm

from amem_tui.config import Settings
from amem_tui.engine.embed import Embedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine

TS_COLLECTION = "mem0_384d"
PY_COLLECTION = "mem0"
MIGRATIONS = "memory_migrations"
SESSION = "agent:main:b3f1"  # a main session's key, written as run_id by the plugin
SUBAGENT_SESSION = "agent:main:b3f1:subagent:helper"


def mid(n: int) -> str:
    """A fixed UUID for memory ``n``."""
    return str(uuid.UUID(int=0xB0000000000000000000000000000000 + n))


ALICE_COFFEE = mid(1)
ALICE_STANDUP = mid(2)
ALICE_RUN = mid(3)
ALICE_DEV = mid(4)
ALICE_RESEARCH = mid(5)
ALICE_SUBAGENT = mid(6)
ALICE_EXPLICIT_MAIN = mid(7)
BOB_TEA = mid(8)
BOB_DEV = mid(9)
DELETED = mid(10)  # never written: mem0 deletes points for good

#: user_id -> the memories in that namespace (the expected views, worked out by hand).
NAMESPACES: dict[str, set[str]] = {
    "alice": {ALICE_COFFEE, ALICE_STANDUP, ALICE_RUN},
    "alice:agent:dev": {ALICE_DEV},
    "alice:agent:research": {ALICE_RESEARCH},
    "alice:agent:subagent-helper": {ALICE_SUBAGENT},
    "alice:agent:main": {ALICE_EXPLICIT_MAIN},
    "bob": {BOB_TEA},
    "bob:agent:dev": {BOB_DEV},
}

TEXTS = {
    ALICE_COFFEE: "Alice drinks a dark roast coffee every morning before work",
    ALICE_STANDUP: "Alice's team standup is at 9:30 on weekdays",
    ALICE_RUN: "In this session Alice is drafting the quarterly report",
    ALICE_DEV: "The web workspace uses pnpm and Node 20",
    ALICE_RESEARCH: "Research notes: vector databases compared for recall",
    ALICE_SUBAGENT: "The helper subagent summarised the release checklist",
    ALICE_EXPLICIT_MAIN: "Saved with an explicit agentId of main: the travel budget",
    BOB_TEA: "Bob prefers green tea over coffee",
    BOB_DEV: "Bob's dev agent deploys with a Makefile",
}
USER_OF = {m: ns.partition(":")[0] for ns, ms in NAMESPACES.items() for m in ms}
NAMESPACE_OF = {m: ns for ns, ms in NAMESPACES.items() for m in ms}


def typescript_payload(memory: str) -> dict[str, Any]:
    """A memory as the TypeScript SDK writes it for the plugin (open-source mode)."""
    payload: dict[str, Any] = {
        "data": TEXTS[memory],
        "hash": uuid.uuid5(uuid.NAMESPACE_OID, TEXTS[memory]).hex,
        "textLemmatized": TEXTS[memory].lower(),
        "createdAt": "2026-02-01T08:00:00.000Z",
        "source": "OPENCLAW",
        "user_id": NAMESPACE_OF[memory],
    }
    if memory == ALICE_RUN:
        payload["run_id"] = SESSION
    if memory == ALICE_STANDUP:  # updated once: updatedAt appears
        payload["updatedAt"] = "2026-02-03T09:15:00.000Z"
    if memory == ALICE_COFFEE:  # skills mode spreads its metadata flat
        payload["category"] = "preference"
        payload["importance"] = 0.8
    return payload


def python_payload(memory: str) -> dict[str, Any]:
    """A memory as Python mem0 writes it."""
    payload: dict[str, Any] = {
        "data": TEXTS[memory],
        "hash": uuid.uuid5(uuid.NAMESPACE_OID, TEXTS[memory]).hex,
        "text_lemmatized": TEXTS[memory].lower(),
        "created_at": "2026-02-01T08:00:00.000000-08:00",
        "updated_at": "2026-02-01T08:00:00.000000-08:00",
        "role": "user",
        "actor_id": "alice" if USER_OF[memory] == "alice" else "bob",
        "user_id": NAMESPACE_OF[memory],
    }
    if memory == ALICE_RUN:
        payload["run_id"] = SESSION
    if memory == ALICE_STANDUP:
        payload["updated_at"] = "2026-02-03T09:15:00.000000-08:00"
    return payload


def build_mem0_stores(client: QdrantClient, embedder: Embedder) -> None:
    """Both collections (vectors from ``embedder``) and the SDK's bookkeeping one."""
    memories = list(TEXTS)
    vectors = embedder.embed_documents([TEXTS[m] for m in memories])
    client.create_collection(
        TS_COLLECTION,
        vectors_config=qm.VectorParams(size=embedder.dim, distance=qm.Distance.COSINE),
    )
    client.upsert(
        TS_COLLECTION,
        points=[
            qm.PointStruct(id=m, vector=v.tolist(), payload=typescript_payload(m))
            for m, v in zip(memories, vectors, strict=True)
        ],
        wait=True,
    )
    client.create_collection(
        PY_COLLECTION,
        vectors_config=qm.VectorParams(size=embedder.dim, distance=qm.Distance.COSINE),
        sparse_vectors_config={"bm25": qm.SparseVectorParams(modifier=qm.Modifier.IDF)},
    )
    client.upsert(
        PY_COLLECTION,
        points=[
            qm.PointStruct(
                id=m,
                vector={
                    "": v.tolist(),
                    "bm25": qm.SparseVector(indices=[i + 1, 100 + i], values=[0.5, 0.25]),
                },
                payload=python_payload(m),
            )
            for i, (m, v) in enumerate(zip(memories, vectors, strict=True))
        ],
        wait=True,
    )
    client.create_collection(
        MIGRATIONS, vectors_config=qm.VectorParams(size=1, distance=qm.Distance.COSINE)
    )
    client.upsert(
        MIGRATIONS,
        points=[qm.PointStruct(id=mid(99), vector=[0.0], payload={"user_id": "x7q2k9w1m3"})],
        wait=True,
    )


def openclaw_json(user: str | None = "alice", model: str | None = "all-minilm") -> dict[str, Any]:
    """The plugin's entry in openclaw.json, as its set-up writes it (Ollama embedder)."""
    config: dict[str, Any] = {
        "mode": "open-source",
        "oss": {
            "embedder": {"provider": "ollama", "config": {"model": model}},
            "vectorStore": {
                "provider": "qdrant",
                "config": {"url": "http://localhost:6333", "dimension": 384},
            },
        },
    }
    if user is not None:
        config["userId"] = user
    if model is None:
        del config["oss"]["embedder"]
    return {"plugins": {"entries": {"openclaw-mem0": {"enabled": True, "config": config}}}}


def mem0_engine(collection: str = TS_COLLECTION, **settings: Any) -> MemoryEngine:
    """An engine on both collections, in memory, with the test embedder (for the TUI
    and the views; search quality is tested with the real model elsewhere)."""
    store = QdrantStore(path=":memory:")
    engine = make_engine(store, settings=Settings(collection=collection, **settings))
    build_mem0_stores(store.client, engine.embedder)
    return engine
