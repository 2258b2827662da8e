"""A Qdrant REST stand-in: a test double that answers what qdrant-client's remote mode
asks, and runs each call on a qdrant-client local-mode store.

No Qdrant server binary can be installed here, so the engine's ``--url`` path is
exercised end to end against this instead. Requests are parsed with qdrant-client's
own REST models (``qdrant_client.http.models``), so a request the real server would
reject as malformed is rejected here too; each call then runs on a local-mode client
(``:memory:`` or a folder) under one lock, because local mode is not thread-safe.

What it answers: collections (list, get, exists, create with metadata and sparse
vectors, update, delete), aliases (list, per collection, change), payload indexes
(create, delete; recorded and reported in the collection's ``payload_schema``, though
local mode filters without them), points (upsert as a list or a batch, retrieve,
get one, scroll with filters and ``order_by``, query and query batches with filters,
search and search batches (what openclaw-amem and mem0's TypeScript SDK send), count,
facets, set, overwrite, delete and clear payload, update and delete vectors, delete points,
batched updates), snapshots (create and list: descriptions only, local mode writes none),
the service root (its version, in bare JSON) and the health checks
``/healthz``, ``/livez`` and ``/readyz`` (plain text). Errors come back as the
server's envelope with its status codes (404 for a missing collection, 409 for an
existing one, 400 for a malformed body); a route the server does not have gets a 404
with an empty body, as the server's web framework answers it, and is recorded in
``QdrantStandIn.unknown``.

What only a real server proves: HNSW (approximate) search and its recall, payload
indexes doing their work (local mode scans in Python), strict mode, API keys and TLS,
gRPC, sharding and replication, snapshot files and their restore, write ordering and
consistency across replicas, and speed.

Faults: ``QdrantStandIn.stop`` closes the port (clients see "connection refused")
and ``QdrantStandIn.start`` opens the same port again on the same store;
``failing`` set to a status code answers every request with it.

Run it as a script to share one store between processes (the TUI and a CLI writing
at once)::

    python -m tests.support.qdrant_standin --port 6333 --path /tmp/standin-store
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import socket
import sys
import threading
import time
import warnings
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from qdrant_client import QdrantClient
from qdrant_client.http import models as rest

from tests.support.qdrant_standin_api import (
    ROUTES,
    Call,
    Handler,
    PlainText,
    RequestFailed,
    to_json,
)


class QdrantStandIn:
    """The stand-in server: a local-mode store behind Qdrant's REST API on 127.0.0.1.

    Use as a context manager, or call ``start`` and ``stop``. ``path`` None
    keeps the store in memory; it outlives ``stop``, so a restarted stand-in
    serves the same points (as a real server restarting on its storage would).
    """

    def __init__(self, path: str | None = None, port: int = 0, host: str = "127.0.0.1") -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.client = QdrantClient(path=path) if path else QdrantClient(location=":memory:")
        self.host = host
        self.port = port
        #: Payload indexes asked for, by collection (local mode filters without them).
        self.indexes: dict[str, dict[str, rest.PayloadSchemaType]] = {}
        #: An HTTP status to answer every request with (None: answer normally).
        self.failing: int | None = None
        #: Requests answered, as ``"METHOD /path"``.
        self.requests: list[str] = []
        #: Requests for routes the stand-in does not know (answered 404, as the server does).
        self.unknown: list[str] = []
        #: Requests answered with a client or server error, as ``(request, status, error)``:
        #: some are the server's own answers (a collection that exists), a 400 is a body
        #: the server would refuse too.
        self.failed: list[tuple[str, int, str]] = []
        #: Headers every request must carry, exactly (an ``api-key``, a proxy's Basic
        #: ``Authorization``): a request without them is answered 401, as the server
        #: answers one without its API key. Empty: nothing is checked.
        self.required_headers: dict[str, str] = {}
        #: Snapshots asked for, by collection (descriptions only: local mode takes none).
        self.snapshots: dict[str, list[rest.SnapshotDescription]] = {}
        #: While set, a request it matches (method, path, parsed body) waits until
        #: ``release`` (see ``hold``); the ones waiting are in ``held``.
        self._hold: Callable[[str, str, Any], bool] | None = None
        self._released = threading.Event()
        self.held: list[str] = []
        self._lock = threading.RLock()
        self._connections: set[socket.socket] = set()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The URL a client connects to."""
        return f"http://{self.host}:{self.port}"

    @property
    def running(self) -> bool:
        """True while the port is open."""
        return self._server is not None

    def __enter__(self) -> QdrantStandIn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------- lifecycle
    def start(self) -> QdrantStandIn:
        """Open the port (the one used before, after a ``stop``) and serve."""
        if self._server is not None:
            return self
        standin = self

        class RequestHandler(BaseHTTPRequestHandler):
            # Kept-alive connections, as the server's; stop() cuts them all.
            protocol_version = "HTTP/1.1"
            # Headers and body leave in one write (the handler flushes after each
            # request), and small answers are not held back waiting for ACKs.
            wbufsize = 1 << 16
            disable_nagle_algorithm = True

            def setup(self) -> None:
                super().setup()
                with standin._lock:
                    standin._connections.add(self.connection)

            def finish(self) -> None:
                with standin._lock:
                    standin._connections.discard(self.connection)
                super().finish()

            def log_message(self, *args: object) -> None:
                """Quiet: tests read ``QdrantStandIn.requests`` instead."""

            def handle_one(self) -> None:
                standin.answer(self)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = handle_one

        server = ThreadingHTTPServer((self.host, self.port), RequestHandler)
        server.daemon_threads = True
        self.port = server.server_address[1]
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Close the port: clients are refused until ``start`` (the store stays)."""
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        with self._lock:
            connections, self._connections = self._connections, set()
        for connection in connections:  # a kept-alive client must not outlive the stop
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def close(self) -> None:
        """Stop serving and release the store (and its folder lock)."""
        self.stop()
        with self._lock:
            self.client.close()

    # ----------------------------------------------------------------- gates
    def hold(self, matches: Callable[[str, str, Any], bool]) -> None:
        """Make the requests ``matches(method, path, body)`` picks wait until
        ``release`` (others are answered meanwhile): a client stopped at a known
        point, so another one can be run against it without any sleep."""
        self._released.clear()
        self._hold = matches

    def release(self) -> None:
        """Let held requests (and every later one) through."""
        self._hold = None
        self._released.set()

    # -------------------------------------------------------------- requests
    def require(self, collection: str) -> None:
        """Answer 404, as the server does, for a collection that does not exist."""
        if not self.client.collection_exists(collection):
            raise RequestFailed(404, f"Not found: Collection `{collection}` doesn't exist!")

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        """Parse one request, run it on the local store and write the server's envelope."""
        started = time.perf_counter()
        split = urlsplit(handler.path)
        path = split.path.rstrip("/") or "/"
        self.requests.append(f"{handler.command} {path}")
        status, payload = 200, None
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        missing = [k for k, v in self.required_headers.items() if handler.headers.get(k) != v]
        if missing:
            refusal = "Must provide an API key or an Authorization bearer token"
            error = {"status": {"error": refusal}}
            self.failed.append((f"{handler.command} {path}", 401, str(error["status"])))
            self._send(handler, 401, json.dumps(error).encode(), "application/json")
            return
        route = self._route(handler.command, path)
        if route is None and self.failing is None:
            # The server has no handler of its own for an unknown route: its web
            # framework answers 404 with an empty body, not the JSON envelope.
            self.unknown.append(f"{handler.command} {path}")
            self._send(handler, 404, b"", None)
            return
        try:
            if self.failing is not None:
                raise RequestFailed(self.failing, f"injected {self.failing}")
            try:
                body = json.loads(raw) if raw.strip() else None
            except ValueError as exc:
                raise RequestFailed(400, f"Format error in JSON body: {exc}") from exc
            query = {key: values[-1] for key, values in parse_qs(split.query).items()}
            hold = self._hold
            if hold is not None and hold(handler.command, path, body):
                self.held.append(f"{handler.command} {path}")
                self._released.wait(timeout=120)  # never forever: a failed test must end
            assert route is not None
            run, parts = route
            with self._lock, warnings.catch_warnings():
                warnings.simplefilter("ignore")  # local mode warns about indexes
                result = run(self, Call(parts, query, body))
            if isinstance(result, PlainText):  # health checks answer in plain text
                self._send(handler, 200, str(result).encode(), "text/plain")
                return
            if isinstance(result, rest.VersionInfo):  # so does the root, in bare JSON
                self._send(handler, 200, json.dumps(to_json(result)).encode(), "application/json")
                return
            payload = {"result": to_json(result), "status": "ok"}
        except RequestFailed as exc:
            status, payload = exc.status, {"status": {"error": str(exc)}}
        except (ValueError, KeyError) as exc:  # local mode's own refusals
            text = str(exc)
            status = 404 if "not found" in text.lower() else 400
            payload = {"status": {"error": f"Bad request: {text}"}}
        except Exception as exc:  # a bug here must reach the client, not hang it
            status, payload = 500, {"status": {"error": f"Service internal error: {exc}"}}
        payload["time"] = time.perf_counter() - started
        if status >= 400:
            self.failed.append((f"{handler.command} {path}", status, str(payload["status"])))
        self._send(handler, status, json.dumps(payload).encode(), "application/json")

    @staticmethod
    def _send(
        handler: BaseHTTPRequestHandler, status: int, data: bytes, content_type: str | None
    ) -> None:
        handler.send_response(status)
        if content_type is not None:
            handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    @staticmethod
    def _route(method: str, path: str) -> tuple[Handler, dict[str, str]] | None:
        for verb, pattern, run in ROUTES:
            if verb != method:
                continue
            found = pattern.match(path)
            if found is not None:
                return run, found.groupdict()
        return None


def main(argv: list[str] | None = None) -> int:
    """Serve a store until interrupted: ``--port N --path DIR`` (``--path`` omitted: memory)."""
    parser = argparse.ArgumentParser(
        prog="python -m tests.support.qdrant_standin",
        description="A Qdrant REST stand-in for tests (a test double, never a product store).",
    )
    parser.add_argument("--port", type=int, default=6333, help="port on 127.0.0.1 (0: any)")
    parser.add_argument("--path", default=None, help="local-mode folder (default: in memory)")
    args = parser.parse_args(argv)
    standin = QdrantStandIn(path=args.path, port=args.port).start()
    print(f"qdrant stand-in listening on {standin.url}", flush=True)
    stopped = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stopped.set())
    stopped.wait()
    standin.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
