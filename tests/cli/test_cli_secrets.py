"""A server URL's credentials are never shown: a password in its user info and an
``api_key`` query parameter are planted, and every surface that shows the URL is read
for them (CLI errors as text and JSON, ``status``, ``audit``, ``demo``, the TUI header
at a wide size and its start-up error, the ``serve`` banner, the served page, the
browser session's command line). They still authenticate: the stand-in refuses any
request without them."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shlex
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from amem_tui.cli.options import CommonOptions
from amem_tui.config import Settings
from amem_tui.engine import MemoryEngine, StoreUnavailable
from amem_tui.engine.embed import TEST_MODEL
from amem_tui.engine.for_apps import redact_text, redact_url
from amem_tui.tui.app import AmemApp
from tests.support.cli import run
from tests.support.faults import free_port
from tests.support.qdrant_standin import QdrantStandIn
from tests.support.serving import served, session_text
from tests.support.tui import screen_lines, settle, until

PASSWORD = "s3cr3tPW"
KEY = "s3cr3tKEY"
SECRETS = (PASSWORD, KEY)
WIDE = (220, 50)


def planted(port: int) -> str:
    """A server URL carrying both kinds of credentials."""
    return f"http://user:{PASSWORD}@127.0.0.1:{port}?api_key={KEY}"


def assert_clean(text: str | bytes, where: str) -> None:
    shown = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    for secret in SECRETS:
        assert secret not in shown, f"{where} shows {secret}: {shown[-2000:]}"


@pytest.fixture
def guarded() -> Iterator[QdrantStandIn]:
    """A stand-in that answers only requests with the planted credentials: the api key
    as Qdrant's header, the user info as HTTP Basic authentication."""
    with QdrantStandIn() as standin:
        basic = base64.b64encode(f"user:{PASSWORD}".encode()).decode()
        standin.required_headers = {"api-key": KEY, "Authorization": f"Basic {basic}"}
        yield standin


def test_the_redaction_masks_user_info_and_key_like_parameters() -> None:
    url = "https://bob:pw@db.example:6333/base?api_key=k1&apikey=k2&token=t&x=1#access_token=t2"
    assert redact_url(url) == (
        "https://***@db.example:6333/base?api_key=***&apikey=***&token=***&x=1#access_token=***"
    )
    assert redact_url("bob:pw@localhost:6333") == "***@localhost:6333"
    assert redact_url("http://127.0.0.1:6333") == "http://127.0.0.1:6333"
    assert redact_url("http://u:p@[::1") == "http://***@[::1"  # does not parse: still masked
    message = "failed: GET http://u:pw@h:1/collections?password=p&limit=5 (timeout)"
    masked = "failed: GET http://***@h:1/collections?password=***&limit=5 (timeout)"
    assert redact_text(message) == masked


def test_cli_errors_as_text_and_json(tmp_path: Path) -> None:
    url = planted(free_port())  # nothing listens: "cannot reach"
    for args in (["search", "x"], ["--json", "status"]):
        result = run(["--url", url, *args], tmp_path)
        assert result.returncode == 5, result.stderr
        assert_clean(result.stderr + result.stdout, " ".join(args))
        assert b"http://***@127.0.0.1:" in result.stderr
    error = json.loads(result.stderr)["error"]
    assert "***" in error["message"] and error["kind"] == "store_unavailable"


def test_status_audit_and_demo_authenticate_and_show_no_secret(
    guarded: QdrantStandIn, tmp_path: Path
) -> None:
    url = planted(guarded.port)
    demo = run(["--url", url, "demo", "--no-tui"], tmp_path)
    assert demo.returncode == 0, demo.stderr  # the credentials reached the server
    assert_clean(demo.stdout + demo.stderr, "demo")
    for args in (["status"], ["audit"], ["--json", "audit"], ["--json", "status"]):
        result = run(["--url", url, *args], tmp_path)
        assert result.returncode == 0, result.stderr
        assert_clean(result.stdout + result.stderr, " ".join(args))
        assert b"***@127.0.0.1" in result.stdout
    assert json.loads(result.stdout)["exists"]  # status read the demo's collection
    # A wrong key is refused (the stand-in checks), and the refusal shows no secret.
    wrong = url.replace(KEY, "not-the-key")
    refused = run(["--url", wrong, "status"], tmp_path)
    assert refused.returncode == 5 and b"refused access (401)" in refused.stderr
    assert_clean(refused.stderr, "the refusal")
    # Without the URL's key, QDRANT_API_KEY authenticates as it always did.
    without = url.replace(f"?api_key={KEY}", "")
    assert run(["--url", without, "status"], tmp_path, QDRANT_API_KEY=KEY).returncode == 0


async def test_the_tui_header_at_a_wide_size(guarded: QdrantStandIn) -> None:
    url = planted(guarded.port)
    seeded = run(["--url", url, "demo", "--no-tui"], Path(os.environ["HOME"]))
    assert seeded.returncode == 0, seeded.stderr
    engine = MemoryEngine(Settings(url=url, model=TEST_MODEL))
    app = AmemApp(engine, user_config=False)
    try:
        async with app.run_test(size=WIDE) as pilot:
            await settle(pilot)
            screen = "\n".join(screen_lines(app))
            assert f"store http://***@127.0.0.1:{guarded.port}?api_key=***" in screen
            assert_clean(screen, "the header")
    finally:
        engine.close()


async def test_the_tui_start_up_error() -> None:
    url = planted(free_port())
    shown = threading.Event()

    def open_engine() -> MemoryEngine:
        shown.wait(30)  # the opening screen is read first
        return MemoryEngine(Settings(url=url, model=TEST_MODEL))

    label = CommonOptions(url=url).store_hint  # what the CLI hands the first frame
    app = AmemApp(opener=open_engine, store_label=label, user_config=False)
    async with app.run_test(size=WIDE) as pilot:
        await until(pilot, lambda: any("Opening" in line for line in screen_lines(app)))
        screen = "\n".join(screen_lines(app))
        assert "***@127.0.0.1" in screen
        assert_clean(screen, "the opening screen")
        shown.set()
        await until(pilot, lambda: app.start_error is not None)
    assert isinstance(app.start_error, StoreUnavailable)
    assert "***@127.0.0.1" in str(app.start_error)
    assert_clean(str(app.start_error), "the start-up error")


def _descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def test_the_demo_try_line_can_be_pasted_back(guarded: QdrantStandIn, tmp_path: Path) -> None:
    url = planted(guarded.port)
    demo = run(["--url", url, "demo", "--no-tui"], tmp_path, AMEM_URL=url)
    assert demo.returncode == 0, demo.stderr
    said = demo.stdout.decode()
    assert_clean(said, "demo")
    # Not the masked URL (http://***@host cannot be pasted): the variable, and why.
    assert 'amem-tui --url "$AMEM_URL" --config ' in said and "***@" not in said.split("try:")[1]
    assert "holds credentials" in said
    # As a shell would run it: "$AMEM_URL" is the URL.
    pasted = shlex.split(said.split("try:")[1].splitlines()[1])[1:]
    tried = run([url if arg == "$AMEM_URL" else arg for arg in pasted], tmp_path)
    assert tried.returncode == 0 and b" hits (" in tried.stdout, tried.stderr

    with QdrantStandIn() as open_server:  # no credentials: the URL itself is pasted
        plain_url = f"http://127.0.0.1:{open_server.port}"
        said = run(["--url", plain_url, "demo", "--no-tui"], tmp_path).stdout.decode()
        assert f"amem-tui --url {plain_url} --config " in said and "AMEM_URL" not in said


def test_serve_banner_page_and_session_command_line(guarded: QdrantStandIn, tmp_path: Path) -> None:
    pytest.importorskip("textual_serve")
    url = planted(guarded.port)
    assert run(["--url", url, "demo", "--no-tui"], tmp_path).returncode == 0
    port = free_port()
    page_url = f"http://127.0.0.1:{port}"
    command_lines: list[bytes] = []

    async def session() -> str:
        with urllib.request.urlopen(page_url + "/", timeout=30) as answer:
            page = answer.read()
        assert_clean(page, "the served page")
        # The session is running once its header arrives; read its command line then.
        text = await session_text(page_url, ["agent main", "***@127.0.0.1"], width=WIDE[0])
        for pid in _descendants(process.pid):
            with_args = Path(f"/proc/{pid}/cmdline")
            if with_args.exists():
                command_lines.append(with_args.read_bytes().replace(b"\0", b" "))
        return text

    with served(["--url", url], tmp_path, port) as process:
        text = asyncio.run(session())
    assert "***@127.0.0.1" in text  # the session authenticated and shows the URL masked
    assert_clean(text, "the served header")
    assert any(b"amem_tui" in line for line in command_lines), command_lines
    for line in command_lines:
        assert_clean(line, "a session's command line")
    assert process.stdout is not None
    banner = process.stdout.read()
    assert f"serving on {page_url}".encode() in banner
    assert_clean(banner, "the serve banner")
