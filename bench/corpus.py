"""A generated multi-agent note corpus for the benchmark, embedded by the real model.

The texts come from many templates filled from topic vocabularies, so the real
model (all-MiniLM-L6-v2, the offline packaged one) gives them realistic,
clustered vectors. Every note has an owner agent; some are shared, a few are
shared with selected readers, some are soft-deleted, and a few old ones lack
``is_active``. Everything is seeded, so the same size always gives the same notes.

Embeddings are cached under ``bench/.cache`` in chunks keyed by the hash of
their texts: a run that was stopped resumes where it left off, and a change to
the generator only re-embeds the chunks it changed.
"""

from __future__ import annotations

import hashlib
import random
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

CACHE = Path(__file__).resolve().parent / ".cache"
CHUNK = 2000
NAMESPACE = uuid.UUID("0b7e1c52-4a2f-4d8e-9c61-5f3a2d7e8b14")

#: Mode A agents of the corpus; the first one is the agent whose searches are timed.
AGENTS = ("main", "dev", "ops", "research", "writer", "support", "finance", "planner")
AGENT_WEIGHTS = (0.22, 0.2, 0.14, 0.12, 0.1, 0.1, 0.07, 0.05)

SHARED_RATE = 0.12
SELECTIVE_RATE = 0.03
DELETED_RATE = 0.06
LEGACY_RATE = 0.04  # old notes without is_active / owner / readers / writers

PEOPLE = (
    "Alice", "Bob", "Carla", "Deepak", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas",
    "Kemi", "Liam", "Mara", "Nikos", "Olga", "Priya", "Quentin", "Rosa", "Sven", "Tariq",
)  # fmt: skip
SERVICES = (
    "billing-api", "auth service", "search indexer", "payments gateway", "notification worker",
    "reporting dashboard", "user profile service", "image resizer", "webhook relay",
    "feature flag service", "data warehouse loader", "mobile backend", "CDN edge config",
    "ledger service", "inventory sync", "email sender", "chat gateway", "session store",
)  # fmt: skip
ENVS = ("staging", "production", "the EU cluster", "the US-east cluster", "the canary pool",
        "the dev sandbox", "the load-test environment")  # fmt: skip
TOOLS = (
    "Postgres", "Redis", "Kafka", "Terraform", "Kubernetes", "GitHub Actions", "Grafana",
    "Sentry", "pytest", "Docker", "nginx", "Celery", "ClickHouse", "S3", "Vault", "Prometheus",
    "ArgoCD", "Helm", "Elasticsearch", "RabbitMQ", "SQLite", "FastAPI", "React", "Rust",
)  # fmt: skip
FAILURES = (
    "a connection pool exhaustion", "an expired TLS certificate", "a missing environment variable",
    "a schema migration that locked a table", "an out-of-memory kill", "a DNS timeout",
    "a race in the retry loop", "a stale cache entry", "a rate limit from the upstream API",
    "a full disk on the log volume", "clock skew between nodes", "a bad feature flag default",
    "an unpinned dependency upgrade", "a deadlock between two workers", "a wrong IAM policy",
)  # fmt: skip
PREFS = (
    "bullet points instead of long paragraphs", "short answers with code first",
    "metric units", "British spelling", "dark mode screenshots", "meetings before noon",
    "no emoji in summaries", "tables for comparisons", "links to the source for every claim",
    "weekly digests on Friday", "type hints in every Python example", "tabs over spaces",
    "the 24-hour clock", "plain text emails", "a summary line at the top",
)  # fmt: skip
CITIES = ("Lisbon", "Berlin", "Nairobi", "Osaka", "Toronto", "Lyon", "Bogota", "Krakow",
          "Austin", "Melbourne", "Seoul", "Dublin")  # fmt: skip
PROJECTS = (
    "Atlas migration", "Q3 pricing review", "onboarding revamp", "mobile app v4",
    "SOC 2 audit", "data retention policy", "search relevance sprint", "partner API launch",
    "cost reduction plan", "accessibility pass", "observability rollout", "support macro cleanup",
)  # fmt: skip
TOPICS = (
    "vector databases", "retrieval augmented generation", "rate limiting algorithms",
    "CRDTs for collaborative editing", "consensus protocols", "columnar storage formats",
    "prompt injection defenses", "embedding model quantization", "zero-downtime migrations",
    "feature store design", "carbon-aware scheduling", "differential privacy",
)  # fmt: skip
AMOUNTS = ("$120", "$450", "$1,200", "$3,800", "$9,500", "$18,000", "$42,000")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "the 1st", "the 15th",
        "end of month", "every second Tuesday")  # fmt: skip
CATEGORIES = ("Technical", "Business", "Personal", "Project", "Research", "System", "General")

TEMPLATES: tuple[tuple[str, str], ...] = (
    ("Technical", "Deploying {service} to {env} failed because of {failure}; fixed by {fix}."),
    ("Technical", "{tool} on {env} needs {n} replicas for {service}, otherwise latency spikes."),
    ("Technical", "The {service} uses {tool} for its queue; retries back off up to {n} seconds."),
    ("Technical", "Incident review: {service} was down {n} minutes in {env} after {failure}."),
    ("Technical", "To debug {service}, tail the {tool} logs and grep for the request id first."),
    ("Technical", "Upgrading {tool} broke {service} tests; pin the previous minor version."),
    ("Technical", "Run the {service} integration tests with {tool} in Docker before merging."),
    ("System", "Backups of {service} run nightly at {hour}:00 UTC and are kept {n} days."),
    ("System", "The on-call rotation for {service} changes on {day}; {person} is primary."),
    ("System", "Alert threshold for {service} error rate is {n} percent over five minutes."),
    ("Personal", "{person} prefers {pref}."),
    ("Personal", "User asked to always get {pref} when writing about {project}."),
    ("Personal", "{person} is travelling to {city} for the {project} kickoff on {day}."),
    (
        "Personal",
        "{person}'s birthday is in {month}; the team usually orders cake from {city} Bakery.",
    ),
    ("Personal", "{person} works remotely from {city} and is online from {hour}:00 local time."),
    ("Business", "The vendor contract for {tool} renews on {day} at {amount} per month."),
    ("Business", "{person} approved a budget of {amount} for the {project}."),
    ("Business", "Invoices for {service} hosting go to finance; last one was {amount}."),
    ("Business", "Customer {company} reported that {service} is slow in {city}; SLA is {n} ms."),
    ("Business", "Sales call with {company} moved to {day}; they care about {topic}."),
    ("Project", "The {project} milestone {n} is due {day}; owner is {person}."),
    ("Project", "Decision: the {project} will use {tool} instead of {tool2} for {reason}."),
    ("Project", "Open question on the {project}: who owns the {service} after launch?"),
    ("Project", "{person} and {person2} split the {project}: backend vs. {service} changes."),
    ("Research", "Paper notes on {topic}: the key trick is {trick}."),
    ("Research", "Benchmark of {tool} vs {tool2} for {topic}: {tool} was {n}x faster."),
    ("Research", "Reading list for {topic}: start with the survey, then the {city} workshop talk."),
    ("Research", "{person} thinks {topic} could cut our {service} costs by {n} percent."),
    ("General", "Remember that {person} handles {project} questions while {person2} is away."),
    ("General", "The shared drive folder for {project} is under Team/{company}/{month}."),
    ("General", "Lunch place near the {city} office that {person} likes: the {company} cafe."),
)
FIXES = ("raising the pool size", "rotating the certificate", "adding the variable to the chart",
         "splitting the migration", "raising the memory limit", "switching resolvers",
         "adding a jittered backoff", "flushing the cache", "batching the calls",
         "rotating the logs daily", "enabling NTP", "reverting the flag")  # fmt: skip
COMPANIES = ("Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Soylent",
             "Tyrell", "Cyberdyne", "Wonka", "Aperture")  # fmt: skip
MONTHS = ("January", "March", "April", "June", "August", "October", "November", "December")
REASONS = ("lower cost", "better tooling", "the team's experience", "licensing",
           "latency", "simpler operations")  # fmt: skip
TRICKS = ("caching the intermediate results", "quantizing to int8", "filtering before ranking",
          "sharding by tenant", "batching small writes", "precomputing the norms")  # fmt: skip

QUERY_TEMPLATES = (
    "why did the {service} deploy fail",
    "what does {person} prefer",
    "{tool} settings for {service}",
    "budget for the {project}",
    "who is on call for {service}",
    "notes about {topic}",
    "{person} travel to {city}",
    "incident in {env}",
    "vendor contract renewal {tool}",
    "deadline of the {project}",
)


@dataclass
class Corpus:
    """Texts, access fields and vectors of ``n`` generated notes, plus queries."""

    ids: list[str]
    texts: list[str]
    categories: list[str]
    agent_id: list[str]
    owner: list[str]
    readers: list[list[str] | None]
    active: list[bool | None]
    vectors: np.ndarray
    queries: list[str]
    query_vectors: np.ndarray


def _fill(rng: random.Random, template: str) -> str:
    return template.format(
        service=rng.choice(SERVICES),
        env=rng.choice(ENVS),
        failure=rng.choice(FAILURES),
        fix=rng.choice(FIXES),
        tool=rng.choice(TOOLS),
        tool2=rng.choice(TOOLS),
        n=rng.choice((2, 3, 5, 8, 10, 12, 15, 20, 30, 45, 60, 90, 120, 250)),
        hour=rng.randrange(24),
        day=rng.choice(DAYS),
        person=rng.choice(PEOPLE),
        person2=rng.choice(PEOPLE),
        pref=rng.choice(PREFS),
        project=rng.choice(PROJECTS),
        city=rng.choice(CITIES),
        month=rng.choice(MONTHS),
        amount=rng.choice(AMOUNTS),
        company=rng.choice(COMPANIES),
        topic=rng.choice(TOPICS),
        reason=rng.choice(REASONS),
        trick=rng.choice(TRICKS),
    )


def generate(n: int, seed: int = 7) -> Corpus:
    """The first ``n`` notes of the corpus (a prefix of any larger corpus), without vectors."""
    rng = random.Random(seed)
    ids, texts, cats, agent_ids, owners, readers, active = [], [], [], [], [], [], []
    for i in range(n):
        category, template = rng.choice(TEMPLATES)
        text = _fill(rng, template)
        if rng.random() < 0.35:  # a second sentence, as real notes often have
            text += " " + _fill(rng, rng.choice(TEMPLATES)[1])
        author = rng.choices(AGENTS, AGENT_WEIGHTS)[0]
        roll = rng.random()
        legacy = rng.random() < LEGACY_RATE
        if roll < SHARED_RATE:
            agent_ids.append("shared")
            readers.append(["*"])
        elif roll < SHARED_RATE + SELECTIVE_RATE:
            agent_ids.append(author)
            readers.append(sorted({author, rng.choice(AGENTS)}))
        else:
            agent_ids.append(author)
            readers.append([author])
        owners.append(author)
        if legacy:
            readers[-1] = None
            active.append(None)
        else:
            active.append(rng.random() >= DELETED_RATE)
        ids.append(str(uuid.uuid5(NAMESPACE, str(i))))
        texts.append(text)
        cats.append(category)
    qrng = random.Random(seed + 1)
    queries = [_fill(qrng, qrng.choice(QUERY_TEMPLATES)) for _ in range(200)]
    return Corpus(
        ids, texts, cats, agent_ids, owners, readers, active, np.zeros((0, 0)), queries,
        np.zeros((0, 0)),
    )  # fmt: skip


def _embedder():  # type: ignore[no-untyped-def]
    from amem_tui.engine.embed import FastEmbedder
    from amem_tui.paths import cache_dir

    embedder = FastEmbedder(cache_dir=cache_dir())
    embedder.load()
    return embedder


def embed_cached(texts: list[str], label: str, progress: bool = True) -> np.ndarray:
    """Real-model embeddings of ``texts``, cached in chunks under ``bench/.cache``."""
    CACHE.mkdir(parents=True, exist_ok=True)
    embedder = None
    parts: list[np.ndarray] = []
    # The templates repeat texts (a quarter of them at 100,000 notes): each distinct text
    # is embedded once, and a repeat takes the vector already made.
    known: dict[str, np.ndarray] = {}
    started = time.perf_counter()
    for start in range(0, len(texts), CHUNK):
        chunk = texts[start : start + CHUNK]
        digest = hashlib.sha1("\x00".join(chunk).encode()).hexdigest()[:16]
        path = CACHE / f"emb-{label}-{digest}.npy"
        if path.exists():
            parts.append(np.load(path))
            known.update(zip(chunk, parts[-1], strict=True))
            continue
        if embedder is None:
            embedder = _embedder()
        fresh = sorted({text for text in chunk if text not in known}, key=len)
        # Embedded in length order: batches of similar length waste less time on padding.
        if fresh:
            known.update(zip(fresh, embedder.embed_documents(fresh), strict=True))
        vectors = np.stack([known[text] for text in chunk]).astype(np.float32)
        tmp = path.with_suffix(".tmp.npy")
        np.save(tmp, vectors)
        tmp.rename(path)
        parts.append(vectors)
        if progress:
            done = start + len(chunk)
            rate = (time.perf_counter() - started) / max(done, 1)
            print(
                f"  embedded {done}/{len(texts)} {label} texts ({rate * 1000:.1f} ms each so far)",
                file=sys.stderr,
                flush=True,
            )
    if not parts:
        return np.zeros((0, 384), dtype=np.float32)
    return np.concatenate(parts)


#: Notes embedded by the real model; past them, notes reuse those texts and vectors.
EMBEDDED = 100_000
#: The spread of the noise added to a reused vector (before it is normalised again).
REUSE_JITTER = 0.02


def load(n: int, progress: bool = True) -> Corpus:
    """The corpus of ``n`` notes with its real-model vectors (embedding what is not cached).

    Past ``EMBEDDED`` notes (the million-note tier), note ``i`` takes the text of
    note ``i % EMBEDDED`` and that note's real-model vector with a little seeded noise,
    normalised again: embedding half a million more unique texts would take hours on
    a two-core machine, and the noise keeps the vectors from being exact copies (which
    no real store holds, and which an HNSW graph handles worse than near-copies).
    The access fields (agent, shared, readers, deleted, legacy) stay the generator's.
    """
    corpus = generate(n)
    prefix = min(n, EMBEDDED)
    embedded = embed_cached(corpus.texts[:prefix], "note", progress)
    if n > prefix:
        rng = np.random.default_rng(20261130)
        source = np.arange(prefix, n) % prefix
        extra = embedded[source] + rng.normal(0.0, REUSE_JITTER, (n - prefix, embedded.shape[1]))
        extra /= np.linalg.norm(extra, axis=1, keepdims=True)
        corpus.texts[prefix:] = [corpus.texts[i] for i in source.tolist()]
        embedded = np.concatenate([embedded, extra.astype(np.float32)])
    corpus.vectors = embedded
    corpus.query_vectors = embed_cached(corpus.queries, "query", progress)
    return corpus


def note_payload(c: Corpus, i: int) -> dict[str, Any]:
    """The stored payload of note ``i``, shaped as openclaw-amem writes notes."""
    payload: dict[str, Any] = {
        "content": c.texts[i],
        "keywords": [],
        "tags": [c.categories[i].lower()],
        "context": "",
        "links": [],
        "timestamp": "2026-11-01T09:00:00.000Z",
        "last_accessed": "2026-11-01T09:00:00.000Z",
        "agent_id": c.agent_id[i],
        "hash": hashlib.md5(c.texts[i].encode("utf-8")).hexdigest(),
        "retrieval_count": 0,
        "category": c.categories[i],
        "note_type": "memory",
    }
    if c.readers[i] is not None:  # legacy notes have no access fields at all
        payload["owner"] = c.owner[i]
        payload["readers"] = c.readers[i]
        payload["writers"] = [c.owner[i]]
    if c.active[i] is not None:
        payload["is_active"] = c.active[i]
    return payload


if __name__ == "__main__":  # warm the cache: python bench/corpus.py 100000
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    loaded = load(size)
    print(f"{len(loaded.texts)} notes, vectors {loaded.vectors.shape}")
