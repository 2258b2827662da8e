"""Every route the real clients of a store send, answered by the REST stand-in as the
server answers it.

The clients: openclaw-amem's storage (amem-core ``storage.ts``, which speaks REST with
``fetch``; its migration's snapshot too) and mem0's TypeScript SDK (its Qdrant store,
through the JavaScript Qdrant client 1.18). Each row is one request as the client sends
it; the stand-in must know the route (a route it does not know is answered 404 with an
empty body, as the server's web framework answers it) and give the answer's shape the
client reads.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.qdrant_standin import QdrantStandIn

C = "amem_notes"
NOTE = "00000000-0000-4000-8000-000000000001"
VECTOR = [0.6, 0.8, 0.0, 0.0]
PAYLOAD = {"content": "deploy freeze on fridays", "agent_id": "main", "is_active": True}
AGENT_FILTER = {
    "must": [
        {
            "should": [
                {"key": "agent_id", "match": {"value": "main"}},
                {"key": "agent_id", "match": {"value": "shared"}},
            ]
        }
    ],
    "must_not": [{"key": "is_active", "match": {"value": False}}],
}

#: (client, method, path, body) in the order a client's session sends them.
ROUTES: list[tuple[str, str, str, Any]] = [
    # openclaw-amem: pingQdrant, ensureCollection, write, read, search, count, CRUD.
    ("openclaw-amem", "GET", "/readyz", None),
    ("openclaw-amem", "PUT", f"/collections/{C}", {"vectors": {"size": 4, "distance": "Cosine"}}),
    ("openclaw-amem", "GET", f"/collections/{C}", None),
    ("openclaw-amem", "PATCH", f"/collections/{C}", {"metadata": {"embedding_model": "m"}}),
    (
        "openclaw-amem",
        "PUT",
        f"/collections/{C}/index",
        {"field_name": "agent_id", "field_schema": "keyword"},
    ),
    (
        "openclaw-amem",
        "PUT",
        f"/collections/{C}/points?wait=true",
        {"points": [{"id": NOTE, "vector": VECTOR, "payload": PAYLOAD}]},
    ),
    (
        "openclaw-amem",
        "POST",
        f"/collections/{C}/points",
        {"ids": [NOTE], "with_payload": True, "with_vector": True},
    ),
    (
        "openclaw-amem",
        "POST",
        f"/collections/{C}/points/search",
        {
            "vector": VECTOR,
            "limit": 20,
            "with_payload": True,
            "with_vector": True,
            "score_threshold": 0.0,
            "filter": AGENT_FILTER,
        },
    ),
    (
        "openclaw-amem",
        "POST",
        f"/collections/{C}/points/scroll",
        {"filter": AGENT_FILTER, "with_payload": True, "with_vector": True, "limit": 10000},
    ),
    ("openclaw-amem", "POST", f"/collections/{C}/points/count", {"exact": True}),
    (
        "openclaw-amem",
        "POST",
        f"/collections/{C}/points/count",
        {"exact": True, "filter": AGENT_FILTER},
    ),
    (
        "openclaw-amem",
        "POST",
        f"/collections/{C}/points/payload?wait=false",
        {"payload": {"retrieval_count": 1}, "points": [NOTE]},
    ),
    (
        "openclaw-amem",
        "PUT",
        f"/collections/{C}/points/vectors?wait=true",
        {"points": [{"id": NOTE, "vector": VECTOR}]},
    ),
    ("openclaw-amem", "GET", "/aliases", None),
    # Its migration snapshots the collection it is about to drop, and tells where.
    ("openclaw-amem", "POST", f"/collections/{C}/snapshots", None),
    ("openclaw-amem", "GET", f"/collections/{C}/snapshots", None),
    (
        "openclaw-amem",
        "POST",
        "/collections/aliases",
        {"actions": [{"create_alias": {"collection_name": C, "alias_name": "amem_live"}}]},
    ),
    # mem0's TypeScript SDK: the client's version check, its collections (memories and
    # the telemetry id), writes, searches, reads, listings and deletes.
    ("mem0", "GET", "/", None),
    ("mem0", "PUT", "/collections/mem0_4d", {"vectors": {"size": 4, "distance": "Cosine"}}),
    (
        "mem0",
        "PUT",
        "/collections/memory_migrations",
        {"vectors": {"size": 1, "distance": "Cosine"}},
    ),
    ("mem0", "GET", "/collections/mem0_4d", None),
    (
        "mem0",
        "PUT",
        "/collections/mem0_4d/points?wait=true",
        {"points": [{"id": NOTE, "vector": VECTOR, "payload": {"data": "x", "user_id": "u"}}]},
    ),
    (
        "mem0",
        "POST",
        "/collections/mem0_4d/points/search",
        {
            "vector": VECTOR,
            "limit": 60,
            "offset": 0,
            "filter": {"must": [{"key": "user_id", "match": {"value": "u"}}]},
            "with_payload": True,
            "with_vector": False,
        },
    ),
    ("mem0", "POST", "/collections/mem0_4d/points", {"ids": [NOTE], "with_payload": True}),
    (
        "mem0",
        "POST",
        "/collections/mem0_4d/points/scroll",
        {
            "limit": 100,
            "filter": {"must": [{"key": "user_id", "match": {"value": "u"}}]},
            "with_payload": True,
            "with_vector": False,
        },
    ),
    ("mem0", "POST", "/collections/mem0_4d/points/delete?wait=true", {"points": [NOTE]}),
    ("mem0", "DELETE", "/collections/mem0_4d", None),
    # Searches in a batch: the same request, several at once.
    (
        "batch",
        "POST",
        f"/collections/{C}/points/search/batch",
        {"searches": [{"vector": VECTOR, "limit": 3}, {"vector": VECTOR, "limit": 1}]},
    ),
    ("openclaw-amem", "POST", f"/collections/{C}/points/delete", {"points": [NOTE]}),
    ("openclaw-amem", "DELETE", f"/collections/{C}", None),
]


@pytest.fixture(scope="module")
def standin() -> Iterator[QdrantStandIn]:
    with QdrantStandIn() as served:
        yield served


def send(url: str, method: str, body: Any = None) -> tuple[int, str, bytes]:
    """One request; the status, the content type and the raw body of the answer."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers.get("Content-Type") or "", answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Content-Type") or "", exc.read()


def test_every_route_the_clients_send_is_answered(standin: QdrantStandIn) -> None:
    for client, method, path, body in ROUTES:
        status, _, raw = send(standin.url + path, method, body)
        assert status == 200, (client, method, path, status, raw[:300])
    assert standin.unknown == []


def test_searches_answer_as_the_server_does(standin: QdrantStandIn) -> None:
    send(standin.url + "/collections/s", "PUT", {"vectors": {"size": 4, "distance": "Cosine"}})
    points = [
        {"id": 1, "vector": [1.0, 0.0, 0.0, 0.0], "payload": {"user_id": "u", "data": "one"}},
        {"id": 2, "vector": [0.6, 0.8, 0.0, 0.0], "payload": {"user_id": "v", "data": "two"}},
        {"id": 3, "vector": [0.0, 1.0, 0.0, 0.0], "payload": {"user_id": "u", "data": "three"}},
    ]
    send(standin.url + "/collections/s/points?wait=true", "PUT", {"points": points})
    search = standin.url + "/collections/s/points/search"
    _, _, raw = send(search, "POST", {"vector": [1.0, 0.0, 0.0, 0.0], "limit": 3})
    found = json.loads(raw)["result"]
    assert [p["id"] for p in found] == [1, 2, 3]
    assert found[0]["score"] == pytest.approx(1.0) and found[1]["score"] == pytest.approx(0.6)
    assert found[0].get("payload") is None  # the server's default: no payload
    only_u = {"must": [{"key": "user_id", "match": {"value": "u"}}]}
    body = {"vector": [1.0, 0.0, 0.0, 0.0], "limit": 5, "filter": only_u, "with_payload": True}
    _, _, raw = send(search, "POST", body)
    found = json.loads(raw)["result"]
    assert [(p["id"], p["payload"]["data"]) for p in found] == [(1, "one"), (3, "three")]
    body = {"vector": [1.0, 0.0, 0.0, 0.0], "limit": 5, "score_threshold": 0.5}
    _, _, raw = send(search, "POST", body)
    assert [p["id"] for p in json.loads(raw)["result"]] == [1, 2]
    status, _, raw = send(search, "POST", {"vector": [1.0, 0.0, 0.0, 0.0]})
    assert status == 400 and "limit" in json.loads(raw)["status"]["error"]
    status, _, raw = send(standin.url + "/collections/nope/points/search", "POST", body)
    assert status == 404 and "doesn't exist" in json.loads(raw)["status"]["error"]


def test_the_root_and_the_health_checks_have_the_servers_shape(standin: QdrantStandIn) -> None:
    status, kind, raw = send(standin.url + "/", "GET")
    root = json.loads(raw)
    assert status == 200 and kind.startswith("application/json")
    assert root["title"] == "qdrant - vector search engine" and root["version"]
    assert "result" not in root and "status" not in root  # no envelope around the root
    for path, text in (
        ("/healthz", "healthz check passed"),
        ("/livez", "healthz check passed"),
        ("/readyz", "all shards are ready"),
    ):
        status, kind, raw = send(standin.url + path, "GET")
        assert (status, kind, raw.decode()) == (200, "text/plain", text)


def test_a_snapshot_is_described_as_the_server_describes_it(standin: QdrantStandIn) -> None:
    send(standin.url + "/collections/snap", "PUT", {"vectors": {"size": 4, "distance": "Cosine"}})
    status, _, raw = send(standin.url + "/collections/snap/snapshots", "POST")
    taken = json.loads(raw)["result"]
    assert (
        status == 200 and taken["name"].startswith("snap-") and taken["name"].endswith(".snapshot")
    )
    assert isinstance(taken["size"], int) and taken["creation_time"]
    _, _, raw = send(standin.url + "/collections/snap/snapshots", "GET")
    assert [s["name"] for s in json.loads(raw)["result"]] == [taken["name"]]
    status, _, _ = send(standin.url + "/collections/nope/snapshots", "POST")
    assert status == 404


def test_an_unknown_route_gets_the_servers_bare_404(standin: QdrantStandIn) -> None:
    before = len(standin.unknown)
    status, _, raw = send(standin.url + "/collections/x/points/discover/nothing", "POST", {})
    assert (status, raw) == (404, b"")
    assert standin.unknown[before:] == ["POST /collections/x/points/discover/nothing"]
