"""``amem-tui serve``: the inspector in a browser. The options reach every session, a
non-loopback address needs saying so, a missing extra says how to install it, and a
served page shows the app: over its websocket as the page reads it, and in headless
Chromium where one is installed."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, ClassVar

import pytest

from amem_tui.cli import main
from amem_tui.engine.embed import TEST_MODEL, HashEmbedder
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support import browser
from tests.support.browser import chromium_page, required_chromium
from tests.support.cli import run
from tests.support.faults import free_port
from tests.support.mem0_stores import (
    PY_COLLECTION,
    SUBAGENT_SESSION,
    TS_COLLECTION,
    build_mem0_stores,
    openclaw_json,
)
from tests.support.serving import plain, served, session_text

UNREACHABLE = "http://127.0.0.1:9"  # serve never opens the store: this is never asked
#: A model other than the test embedder (status names it; nothing loads it).
OTHER_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


class RecordingServer:
    """Stands in for textual-serve's Server: records what it was given, serves nothing."""

    made: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, command: str, **options: Any) -> None:
        RecordingServer.made.append({"command": command, **options})

    def serve(self) -> None:
        """Record the environment sessions would start with; return, as after Ctrl+C."""
        RecordingServer.made[-1]["environment"] = dict(os.environ)


@pytest.fixture
def recording(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    server_module = pytest.importorskip("textual_serve.server")
    access = pytest.importorskip("amem_tui.web.access")  # before Server is replaced
    RecordingServer.made = []
    monkeypatch.setattr(server_module, "Server", RecordingServer)
    monkeypatch.setattr(access, "TokenServer", RecordingServer)
    monkeypatch.setattr(access, "QuietServer", RecordingServer)
    return RecordingServer.made


def session_argv(made: dict[str, Any]) -> list[str]:
    """The session's command line, without the interpreter and ``-m amem_tui``."""
    argv = shlex.split(made["command"])
    assert argv[:3] == [sys.executable, "-m", "amem_tui"]
    return argv[3:]


def test_each_session_runs_with_the_same_options(
    recording: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["--url", UNREACHABLE, "--agent", "dev", "serve", "--port", "9123", "--follow"])
    assert code == 0, capsys.readouterr().err
    [made] = recording
    assert made["host"] == "127.0.0.1" and made["port"] == 9123
    assert made["public_url"] == "http://127.0.0.1:9123"
    assert session_argv(made) == ["--agent", "dev", "--read-only", "--follow"]
    assert made["environment"]["AMEM_URL"] == UNREACHABLE  # never on a command line
    assert "token" not in made  # loopback without --allow-remote: no token
    err = capsys.readouterr().err
    assert "warning:" not in err
    # Where it listens, said once by us (textual-serve's banner is quiet).
    assert "serving on http://127.0.0.1:9123; open http://127.0.0.1:9123 (" in err


def test_sessions_are_read_only_unless_writable(
    recording: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--url", UNREACHABLE, "serve"]) == 0
    assert "--read-only" in session_argv(recording[-1])
    assert recording[-1]["port"] == 8000
    assert "can change memory" not in capsys.readouterr().err
    # The old spelling still works and changes nothing: sessions were read-only anyway.
    assert main(["--url", UNREACHABLE, "serve", "--read-only"]) == 0
    assert session_argv(recording[-1]) == ["--read-only"]
    assert main(["--url", UNREACHABLE, "--new-agent", "serve", "--writable"]) == 0
    assert session_argv(recording[-1]) == ["--new-agent"]
    assert "--writable: browsers can change memory here" in capsys.readouterr().err
    assert main(["--url", UNREACHABLE, "--read-only", "serve", "--writable"]) == 2
    assert "contradicts --read-only" in capsys.readouterr().err
    assert len(recording) == 3


def test_a_non_loopback_address_needs_saying_so_and_a_token(
    recording: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--url", UNREACHABLE, "serve", "--host", "0.0.0.0"]) == 2
    err = capsys.readouterr().err
    assert "--allow-remote" in err and "private data" in err
    assert recording == []
    assert main(["--url", UNREACHABLE, "serve", "--host", "0.0.0.0", "--allow-remote"]) == 0
    out, err = capsys.readouterr()
    assert "warning: serving on 0.0.0.0" in err and "private data" in err
    assert "serving on http://0.0.0.0:8000; open http://127.0.0.1:8000/?token=" in err
    assert "--public-url" in err
    [made] = recording
    assert made["host"] == "0.0.0.0" and "--read-only" in session_argv(made)
    token = made["token"]
    assert len(token) >= 32
    assert f"open http://127.0.0.1:8000/?token={token} " in err
    assert (out + err).count(token) == 1  # printed once, and only here
    assert token not in made["command"] and token not in str(made["environment"])
    # A fresh token every time.
    assert main(["--url", UNREACHABLE, "serve", "--allow-remote"]) == 0
    assert recording[-1]["token"] != token


def test_serve_json_says_everything_on_stderr_as_json_objects(
    recording: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--url", UNREACHABLE, "serve", "--host", "0.0.0.0", "--allow-remote", "--writable"]
    assert main([*argv, "--json"]) == 0
    out, err = capsys.readouterr()
    said = [json.loads(line) for line in err.splitlines()]
    kinds = [one["warning"]["kind"] for one in said if "warning" in one]
    assert kinds == ["remote_access", "public_url_needed", "writable_sessions"]
    [serving] = [one["serving"] for one in said if "serving" in one]
    token = recording[-1]["token"]
    assert serving == {
        "listening": "http://0.0.0.0:8000",
        "open": f"http://127.0.0.1:8000/?token={token}",
        "token_required": True,
    }
    assert json.loads(out)["url"] == "http://127.0.0.1:8000" and token not in out


@pytest.fixture(scope="module")
def mem0_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with the mem0 plugin's collections (test-embedder vectors): users alice
    and bob, several agents, a subagent's namespace."""
    folder = tmp_path_factory.mktemp("serve-mem0") / "store"
    store = QdrantStore(path=str(folder))
    build_mem0_stores(store.client, HashEmbedder())
    store.close()
    return folder


def _openclaw_json(tmp_path: Path) -> str:
    path = tmp_path / "openclaw.json"
    path.write_text(json.dumps(openclaw_json("bob", None)), encoding="utf-8")
    return str(path)


#: Each scope option: the value given to ``serve``, and what the session's ``status``
#: must then say (its own command line, read by the CLI's parser as the session reads it).
SCOPE_OPTIONS: dict[str, tuple[str, dict[str, str]]] = {
    "--store": ("{store}", {"store": "{store}"}),
    "--config": ("{config}", {"config_file": "{config}", "user": "bob"}),
    "--collection": (PY_COLLECTION, {"collection": PY_COLLECTION}),
    "--agent": ("dev", {"agent": "dev", "namespace": "alice:agent:dev"}),
    "--session-key": (SUBAGENT_SESSION, {"agent": "subagent-helper"}),
    "--user": ("bob", {"user": "bob", "namespace": "bob"}),
    "--namespace": ("alice:agent:research", {"namespace": "alice:agent:research"}),
    "--view": ("recall", {"view": "recall"}),
    "--model": (OTHER_MODEL, {"model": OTHER_MODEL}),
}


@pytest.mark.parametrize("option", list(SCOPE_OPTIONS))
def test_every_scope_option_reaches_the_sessions(
    option: str,
    mem0_folder: Path,
    tmp_path: Path,
    recording: list[dict[str, Any]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    where = {"store": str(mem0_folder), "config": _openclaw_json(tmp_path)}
    raw, expected = SCOPE_OPTIONS[option]
    value = raw.format(**where)
    base = {"--store": str(mem0_folder), "--collection": TS_COLLECTION, "--model": TEST_MODEL}
    base |= {"--user": "alice"} if option not in ("--config", "--namespace") else {}
    base[option] = value
    given = [part for pair in base.items() for part in pair]
    assert main([*given, "serve"]) == 0, capsys.readouterr().err
    argv = session_argv(recording[-1])
    at = argv.index(option)
    assert argv[at + 1] == value
    # The session, started with that command line, reads that scope.
    capsys.readouterr()
    assert main([*argv, "--json", "status"]) == 0, capsys.readouterr().err
    status = json.loads(capsys.readouterr().out)
    assert {key: status[key] for key in expected} == {
        key: shown.format(**where) for key, shown in expected.items()
    }


def test_without_the_extra_serve_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "textual_serve", None)
    monkeypatch.setitem(sys.modules, "textual_serve.server", None)
    assert main(["--url", UNREACHABLE, "serve"]) == 1
    err = capsys.readouterr().err
    assert 'pip install "amem-tui[serve]"' in err and "Traceback" not in err


@pytest.fixture
def demo_store(tmp_path: Path) -> tuple[Path, Path]:
    """A demo store written by the CLI (test embedder), and the home it ran in."""
    pytest.importorskip("textual_serve")
    home = tmp_path / "home"
    store = tmp_path / "store"
    result = run(["demo", "--no-tui", "--store", str(store)], home)
    assert result.returncode == 0, result.stderr.decode()
    return store, home


def test_the_served_page_runs_the_app(demo_store: tuple[Path, Path]) -> None:
    store, home = demo_store
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with served(["--store", str(store), "--agent", "dev", "--read-only"], home, port) as process:
        with urllib.request.urlopen(url + "/", timeout=30) as answer:
            page = answer.read().decode()
        assert answer.status == 200
        assert f"ws://127.0.0.1:{port}/ws" in page and "amem-tui" in page
        text = asyncio.run(session_text(url, ["agent dev", "READ-ONLY", "Mode A"]))
        assert "amem-tui" in text and "Mode A" in text
    assert process.stdout is not None
    said = plain(process.stdout.read().decode())
    assert f"amem-tui: serving on {url}; open {url} (Ctrl+C stops it)" in said
    assert "Serving '" not in said  # textual-serve's own banner stays quiet


def test_the_served_inspector_in_headless_chromium(
    demo_store: tuple[Path, Path], tmp_path: Path
) -> None:
    required_chromium()
    store, home = demo_store
    port = free_port()
    url = f"http://127.0.0.1:{port}/"

    async def look() -> tuple[str, bool, bytes]:
        async with chromium_page(url) as page:
            text = await page.wait_for_text(["agent dev", "READ-ONLY"])
            started = await page.evaluate("document.body.classList.contains('-first-byte')")
            return text, started, await page.screenshot()

    with served(["--store", str(store), "--agent", "dev", "--read-only"], home, port):
        text, started, png = asyncio.run(look())
    assert "amem-tui" in text and started
    assert png.startswith(b"\x89PNG") and len(png) > 10_000
    (tmp_path / "served.png").write_bytes(png)


def _printed_token(process: subprocess.Popen[bytes]) -> str:
    """The token ``serve --allow-remote`` printed (before it started listening)."""
    assert process.stdout is not None
    for _ in range(200):
        line = process.stdout.readline().decode()
        if "?token=" in line:
            return line.split("?token=", 1)[1].split()[0]
    raise AssertionError("serve printed no token")


def _status(url: str, headers: dict[str, str] | None = None) -> int:
    request = urllib.request.Request(url, headers=headers or {})
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return refused.code


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any) -> None:
        return None


def test_allow_remote_answers_only_with_the_token(demo_store: tuple[Path, Path]) -> None:
    import aiohttp

    store, home = demo_store
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    given = ["--store", str(store), "--agent", "dev"]
    with served(given, home, port, ("--allow-remote",)) as process:
        token = _printed_token(process)
        for path in ("/", "/ws?width=80&height=24", "/static/js/textual.js", "/?token=wrong"):
            assert _status(url + path) == 401, path
        assert _status(url + "/", {"Cookie": f"amem_tui_token_{port}=wrong"}) == 401
        assert _status(url + "/", {"Authorization": f"Bearer {token}"}) == 200

        async def browse() -> str:
            async with aiohttp.ClientSession() as session:
                async with session.get(f"{url}/?token={token}", allow_redirects=False) as answer:
                    assert answer.status == 303 and answer.headers["Location"] == "/"
                    cookie = answer.cookies[f"amem_tui_token_{port}"]
                    assert cookie.value == token and cookie["httponly"]
                    assert cookie["samesite"] == "Strict"
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await session_text(url, ["never"], timeout=10)
                assert refused.value.status == 401
            headers = {"Cookie": f"amem_tui_token_{port}={token}"}
            return await session_text(url, ["agent dev", "READ-ONLY", "Mode A"], headers=headers)

        text = asyncio.run(browse())
    assert "Mode A" in text
    assert process.stdout is not None
    assert token not in process.stdout.read().decode()  # printed once, at the start


def test_a_served_session_shows_the_user_it_was_given(mem0_folder: Path, tmp_path: Path) -> None:
    pytest.importorskip("textual_serve")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    given = ["--store", str(mem0_folder), "--collection", TS_COLLECTION, "--user", "bob"]
    with served(given, tmp_path, port):
        text = asyncio.run(session_text(url, ["user bob", "READ-ONLY", "green tea"], width=160))
    assert "dark roast" not in text and "standup" not in text  # alice's memories


def test_a_browser_with_the_token_gets_the_app_and_one_without_gets_401(
    demo_store: tuple[Path, Path],
) -> None:
    required_chromium()
    store, home = demo_store
    port = free_port()
    url = f"http://127.0.0.1:{port}/"

    async def look(token: str) -> tuple[str, str, str]:
        async with chromium_page(url) as refused:
            for _ in range(300):
                body = await refused.evaluate("document.body ? document.body.innerText : ''")
                if body:
                    break
                await asyncio.sleep(0.1)
        async with chromium_page(f"{url}?token={token}") as page:
            text = await page.wait_for_text(["agent dev", "READ-ONLY", "Mode A"])
            return body, text, await page.evaluate("window.location.href")

    given = ["--store", str(store), "--agent", "dev"]
    with served(given, home, port, ("--allow-remote",)) as process:
        body, text, address = asyncio.run(look(_printed_token(process)))
    assert "needs its token" in body
    assert "amem-tui" in text
    assert address == url  # the token left the address bar


def test_a_missing_chromium_fails_where_the_browser_tests_are_required(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(browser, "find_chromium", lambda: None)
    for name in browser.REQUIRED_BY:
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(pytest.skip.Exception):
        required_chromium()
    monkeypatch.setenv("AMEM_REQUIRE_BROWSER", "1")  # as .ci/run sets it
    with pytest.raises(pytest.fail.Exception, match="no Chromium installed"):
        required_chromium()
