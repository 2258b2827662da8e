"""Stores shaped like the ones openclaw-amem and mem0 write (../shared/reference/payloads.md).

Built straight through qdrant-client, as those systems would, never through our
engine: a bge-m3 collection behind an alias, a legacy-model Mode B collection,
and mem0 collections in both spellings, with legacy and malformed points.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import numpy as np
from qdrant_client import QdrantClient
from qdrant_client import models as qm

from amem_tui.config import AgentConfig, Settings
from amem_tui.engine.embed import TEST_MODEL


def nid(n: int) -> str:
    """A fixed UUID for fixture point ``n``."""
    return str(uuid.UUID(int=0xA0000000000000000000000000000000 + n))


# Ids worth naming in assertions.
MAIN_PRIVATE = nid(1)
MAIN_SHARED = nid(2)
DEV_SHARED = nid(3)
LEGACY = nid(4)
CAMEL = nid(5)
DELETED = nid(6)
DEV_READERS = nid(7)
OPS_PRIVATE = nid(8)
DEV_PRIVATE = nid(9)
BAD_NO_AGENT = nid(20)
BAD_AGENT_LIST = nid(21)
BAD_NO_CONTENT_SHARED = nid(22)
BAD_CONTENT_INT = nid(23)
BAD_READERS_STR = nid(24)
BAD_ACTIVE_STR = nid(25)
SANDBOX_NOTE = nid(30)
MEM0_MAIN = nid(40)
MEM0_DEV = nid(41)
MEM0_OPS = nid(42)
MEM0_CAMEL = nid(43)
MEM0_AGENT_ONLY = nid(44)
MEM0_BAD = nid(45)

MALFORMED = {
    BAD_NO_AGENT,
    BAD_AGENT_LIST,
    BAD_NO_CONTENT_SHARED,
    BAD_CONTENT_INT,
    BAD_READERS_STR,
    BAD_ACTIVE_STR,
}

AMEM_REAL = "amem_notes_v2"  # the real collection behind the alias
AMEM_ALIAS = "amem_notes"
SANDBOX = "amem_notes_sandbox"
MEM0 = "mem0"
MEM0_SMALL = "mem0_small"  # mem0 data with vectors of the test embedder


def _history(*actions: str) -> list[dict[str, Any]]:
    return [
        {
            "triggeredBy": nid(99),
            "triggeredAt": "2026-03-01T10:00:00.000Z",
            "oldContext": "before",
            "newContext": "after",
            "oldTags": ["a"],
            "newTags": ["a", "b"],
            "action": action,
        }
        for action in actions
    ]


def amem_payload(
    content: str,
    agent_id: str,
    owner: str,
    readers: list[str],
    writers: list[str],
    **extra: Any,
) -> dict[str, Any]:
    """A current openclaw-amem note payload (every field of the reference table)."""
    payload: dict[str, Any] = {
        "content": content,
        "keywords": ["deploy", "freeze"],
        "tags": ["ops"],
        "context": "Release management",
        "links": [],
        "timestamp": "2026-02-01T08:00:00.000Z",
        "last_accessed": "2026-02-02T08:00:00.000Z",
        "agent_id": agent_id,
        "hash": "0" * 32,
        "retrieval_count": 3,
        "evolution_history": json.dumps(_history("strengthen"), separators=(",", ":")),
        "category": "Technical",
        "note_type": "memory",
        "topics": [],
        "pending_merge": False,
        "evolution_type": "NEW",
        "conflict": False,
        "conflicts_with": [],
        "conflict_reason": "",
        "conflict_scanned_at": "",
        "subjects": [],
        "ephemeral": False,
        "low_quality": False,
        "is_active": True,
        "owner": owner,
        "readers": readers,
        "writers": writers,
    }
    payload.update(extra)
    return payload


def amem_points() -> dict[str, dict[str, Any]]:
    """The payloads of the openclaw-amem Mode A collection, by id."""
    legacy = {
        "content": "Old note from before access fields: the VPN config lives in the wiki",
        "keywords": ["vpn"],
        "tags": ["infra"],
        "context": "Networking",
        "links": [],
        "timestamp": "2025-01-10T09:00:00.000Z",
        "last_accessed": "2025-01-11T09:00:00.000Z",
        "agent_id": "main",
        "hash": "1" * 32,
        "retrieval_count": 7,
        "evolution_history": _history("update_neighbor"),  # a plain list: legacy
        "category": "Technical",
    }
    camel = {
        "content": "Camel-cased times: the backup job runs at 03:00 UTC nightly",
        "agent_id": "main",
        "owner": "main",
        "readers": ["main"],
        "writers": ["main"],
        "createdAt": "2025-06-01T03:00:00.000Z",
        "lastAccessed": "2025-06-02T03:00:00.000Z",
        "retrievalCount": 2,
    }
    return {
        MAIN_PRIVATE: amem_payload(
            "Vendor account for the cloud bill is under ACME", "main", "main", ["main"], ["main"]
        ),
        MAIN_SHARED: amem_payload(
            "Production deploy is frozen until the year-end audit",
            "shared",
            "main",
            ["*"],
            ["main"],
            links=[MAIN_PRIVATE],  # a shared note pointing at its owner's private note
        ),
        DEV_SHARED: amem_payload(
            "All API endpoints use snake_case JSON keys", "shared", "dev", ["*"], ["dev"]
        ),
        LEGACY: legacy,
        CAMEL: camel,
        DELETED: amem_payload(
            "Soft-deleted: the old staging host was retired",
            "main",
            "main",
            ["main"],
            ["main"],
            is_active=False,
        ),
        DEV_READERS: amem_payload(
            "Staging database credentials rotate every Monday",
            "dev",
            "dev",
            ["dev", "main"],
            ["dev"],
        ),
        OPS_PRIVATE: amem_payload(
            "Ops pager escalation goes to the platform team", "ops", "ops", ["ops"], ["ops"]
        ),
        DEV_PRIVATE: amem_payload(
            "Debugging auth middleware with JWT expiry", "dev", "dev", ["dev"], ["dev"]
        ),
        # Malformed points: never shared, never crash anything.
        BAD_NO_AGENT: {"content": "A point someone wrote without any agent id at all"},
        BAD_AGENT_LIST: {
            "content": "An agent id written as a list, which Qdrant still matches",
            "agent_id": ["shared"],
            "owner": "main",
            "readers": ["*"],
            "writers": ["main"],
        },
        BAD_NO_CONTENT_SHARED: {
            "agent_id": "shared",
            "owner": "main",
            "readers": ["*"],
            "writers": ["main"],
        },
        BAD_CONTENT_INT: {"content": 12345, "agent_id": "dev"},
        BAD_READERS_STR: {
            "content": "Readers written as a string naming main",
            "agent_id": "dev",
            "owner": "dev",
            "readers": "main",
            "writers": ["dev"],
        },
        BAD_ACTIVE_STR: {
            "content": "is_active stored as the string false",
            "agent_id": "main",
            "owner": "main",
            "readers": ["main"],
            "writers": ["main"],
            "is_active": "false",
        },
    }


def mem0_points() -> dict[str, dict[str, Any]]:
    """mem0 memories: the Python library's snake case and the TypeScript camelCase."""
    return {
        MEM0_MAIN: {
            "data": "Alice prefers dark roast coffee",
            "hash": "2" * 32,
            "user_id": "alice",
            "run_id": "run-1",
            "role": "user",
            "created_at": "2026-01-05T10:00:00.000000+00:00",
            "updated_at": "2026-01-06T10:00:00.000000+00:00",
            "category": "Personal",
        },
        MEM0_DEV: {
            "data": "The dev agent uses pnpm for the web workspace",
            "hash": "3" * 32,
            "user_id": "alice:agent:dev",
            "agent_id": "openclaw",
            "created_at": "2026-01-07T10:00:00.000000+00:00",
            "source": "chat",
        },
        MEM0_OPS: {
            "data": "Ops agent keeps the runbook in the ops repository",
            "hash": "4" * 32,
            "user_id": "alice:agent:ops",
            "created_at": "2026-01-08T10:00:00.000000+00:00",
        },
        MEM0_CAMEL: {
            "data": "Alice's standup is at 9:30 every weekday",
            "hash": "5" * 32,
            "user_id": "alice",
            "createdAt": "2026-01-09T10:00:00.000Z",
            "updatedAt": "2026-01-10T10:00:00.000Z",
        },
        MEM0_AGENT_ONLY: {
            "data": "A memory with only mem0's own agent id set for dev",
            "hash": "6" * 32,
            "agent_id": "dev",
            "created_at": "2026-01-11T10:00:00.000000+00:00",
        },
        MEM0_BAD: {"hash": "7" * 32, "user_id": "alice:agent:dev"},
    }


def _vectors(ids: list[str], dim: int, seed: int) -> list[list[float]]:
    rng = np.random.default_rng(seed)
    rows = rng.normal(size=(len(ids), dim)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return rows.tolist()


def _create(
    client: QdrantClient,
    name: str,
    dim: int,
    points: dict[str, dict[str, Any]],
    metadata: dict[str, Any] | None,
    seed: int,
) -> None:
    client.create_collection(
        name,
        vectors_config=qm.VectorParams(size=dim, distance=qm.Distance.COSINE),
        metadata=metadata,
    )
    ids = list(points)
    client.upsert(
        name,
        points=[
            qm.PointStruct(id=pid, vector=vec, payload=points[pid])
            for pid, vec in zip(ids, _vectors(ids, dim, seed), strict=True)
        ],
        wait=True,
    )


def build_real_store(client: QdrantClient, small_dim: int = 64) -> None:
    """Fill a qdrant-client with the openclaw-amem and mem0 collections above."""
    _create(client, AMEM_REAL, 1024, amem_points(), {"embedding_model": "Xenova/bge-m3"}, 1)
    client.update_collection_aliases(
        change_aliases_operations=[
            qm.CreateAliasOperation(
                create_alias=qm.CreateAlias(collection_name=AMEM_REAL, alias_name=AMEM_ALIAS)
            )
        ]
    )
    sandbox = {
        SANDBOX_NOTE: amem_payload(
            "Sandbox experiments use a throwaway database",
            "sandbox",
            "sandbox",
            ["sandbox"],
            ["sandbox"],
        )
    }
    _create(
        client,
        SANDBOX,
        384,
        sandbox,
        {"embedding_model": "Xenova/paraphrase-multilingual-MiniLM-L12-v2"},
        2,
    )
    _create(client, MEM0, 1536, mem0_points(), None, 3)
    # mem0 writes no metadata; this copy names the test embedder so that the
    # vector path of search can be tested on mem0 views too.
    _create(client, MEM0_SMALL, small_dim, mem0_points(), {"embedding_model": TEST_MODEL}, 4)


def real_settings(**extra: Any) -> Settings:
    """main (default) and dev in Mode A on the alias, sandbox in Mode B."""
    fields: dict[str, Any] = {
        "collection": AMEM_ALIAS,
        "agents": [AgentConfig(agent="dev"), AgentConfig(agent="sandbox", collection=SANDBOX)],
    }
    fields.update(extra)
    return Settings(**fields)


def snapshot(client: QdrantClient) -> dict[str, list[tuple[str, str, list[float] | None]]]:
    """Every point of every collection: id, canonical payload JSON and vector."""
    out: dict[str, list[tuple[str, str, list[float] | None]]] = {}
    for col in sorted(c.name for c in client.get_collections().collections):
        records, _ = client.scroll(col, limit=10_000, with_payload=True, with_vectors=True)
        out[col] = sorted(
            (str(r.id), json.dumps(r.payload, sort_keys=True), r.vector)  # type: ignore[misc]
            for r in records
        )
    return out
