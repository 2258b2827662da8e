"""``amem-tui serve``: the inspector in a browser. The options reach every session, a
non-loopback address needs saying so, a missing extra says how to install it, and a
served page shows the app: over its websocket as the page reads it, and in headless
Chromium where one is installed."""

from __future__ import annotations

import asyncio
import os
import shlex
import sys
import urllib.request
from pathlib import Path
from typing import Any, ClassVar

import pytest

from amem_tui.cli import main
from tests.support.browser import chromium_page, find_chromium
from tests.support.cli import run
from tests.support.faults import free_port
from tests.support.serving import served, session_text

UNREACHABLE = "http://127.0.0.1:9"  # serve never opens the store: this is never asked


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
    RecordingServer.made = []
    monkeypatch.setattr(server_module, "Server", RecordingServer)
    return RecordingServer.made


def test_each_session_runs_with_the_same_options(
    recording: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "--url",
            UNREACHABLE,
            "--agent",
            "dev",
            "--read-only",
            "serve",
            "--port",
            "9123",
            "--follow",
        ]
    )
    assert code == 0, capsys.readouterr().err
    [made] = recording
    assert made["host"] == "127.0.0.1" and made["port"] == 9123
    assert made["public_url"] == "http://127.0.0.1:9123"
    argv = [sys.executable, "-m", "amem_tui", "--agent", "dev"]
    assert made["command"] == shlex.join([*argv, "--read-only", "--follow"])
    assert made["environment"]["AMEM_URL"] == UNREACHABLE  # never on a command line
    assert "WARNING" not in capsys.readouterr().err


def test_a_writable_view_says_read_only_shares_one(
    recording: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--url", UNREACHABLE, "serve"]) == 0
    assert "--read-only shares a view" in capsys.readouterr().err
    assert recording[0]["port"] == 8000


def test_a_non_loopback_address_needs_saying_so(
    recording: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--url", UNREACHABLE, "serve", "--host", "0.0.0.0"]) == 2
    err = capsys.readouterr().err
    assert "--allow-remote" in err and "private data" in err
    assert recording == []
    code = main(
        ["--url", UNREACHABLE, "--read-only", "serve", "--host", "0.0.0.0", "--allow-remote"]
    )
    assert code == 0
    err = capsys.readouterr().err
    assert "WARNING: serving on 0.0.0.0" in err and "private data" in err
    assert "--public-url" in err
    assert recording[0]["host"] == "0.0.0.0"


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
    with served(["--store", str(store), "--agent", "dev", "--read-only"], home, port):
        with urllib.request.urlopen(url + "/", timeout=30) as answer:
            page = answer.read().decode()
        assert answer.status == 200
        assert f"ws://127.0.0.1:{port}/ws" in page and "amem-tui" in page
        text = asyncio.run(session_text(url, ["agent dev", "READ-ONLY", "Mode A"]))
        assert "amem-tui" in text and "Mode A" in text


@pytest.mark.skipif(find_chromium() is None, reason="no Chromium installed")
def test_the_served_inspector_in_headless_chromium(
    demo_store: tuple[Path, Path], tmp_path: Path
) -> None:
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
