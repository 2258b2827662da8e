"""Options that cannot be right are refused as bad input (exit 2) with a message that
says what is accepted: a malformed ``--url`` is not an unreachable server (exit 5), and
a ``--session-key`` of no known shape does not silently act as main."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from amem_tui.engine.embed import TEST_MODEL
from tests.support.cli import in_this_process as cli
from tests.support.cli import one_error_line, run

MALFORMED_URLS = {
    "ftp://x": "the scheme 'ftp' is not http or https",
    "http://127.0.0.1:99999": "its port is not a number from 1 to 65535",
    "http://[::1": "an IPv6 address goes in brackets",
    "http://": "it names no host",
    "localhost:6333": "it has no scheme",
    "notaurl": "it has no scheme",
}


@pytest.mark.parametrize("url", sorted(MALFORMED_URLS))
def test_a_malformed_url_is_bad_input_not_an_unreachable_server(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    started = time.perf_counter()
    code, out, err = cli(capsys, "--url", url, "list")
    assert (code, out) == (2, "")
    assert time.perf_counter() - started < 5  # refused before any connection is tried
    assert MALFORMED_URLS[url] in err and "option --url: not a Qdrant server URL" in err
    assert "e.g. http://localhost:6333" in err and "cannot reach" not in err

    code, out, err = cli(capsys, "--url", url, "list", "--json")
    error = json.loads(err)["error"]
    assert (code, out, error["exit_code"], error["kind"]) == (2, "", 2, "config_error")


def test_a_malformed_url_from_the_environment_names_the_variable(tmp_path: Path) -> None:
    result = run(["list"], tmp_path, AMEM_URL="ftp://x")
    line = one_error_line(result, 2)
    assert "environment AMEM_URL/QDRANT_URL: not a Qdrant server URL" in line


def test_a_url_with_a_password_is_never_quoted_when_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = cli(capsys, "--url", "ftp://user:hunter2@host", "list")
    assert code == 2 and "hunter2" not in err


@pytest.mark.parametrize(
    "url", ["http://localhost:6333", "http://[::1]:6333", "https://host/qdrant"]
)
def test_well_formed_urls_pass_the_check(url: str) -> None:
    from amem_tui.config import load_settings

    assert load_settings({"url": url}, env={}).url == url


@pytest.mark.parametrize("key", ["garbage", "agent:dev", "agent::main", "dev:main"])
def test_a_session_key_of_no_known_shape_is_refused_with_the_shapes(
    key: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = ["--store", str(tmp_path / "store"), "--model", TEST_MODEL]
    code, out, err = cli(capsys, *store, "--session-key", key, "list")
    assert (code, out) == (2, "")
    assert f"option --session-key: {key!r} is not a session key" in err
    assert "agent:<id>:<rest>" in err and "main (the primary session)" in err

    code, out, err = cli(capsys, *store, "--session-key", key, "list", "--json")
    assert (code, json.loads(err)["error"]["kind"]) == (2, "config_error")


def test_a_session_key_from_the_environment_is_checked_too(tmp_path: Path) -> None:
    result = run(["list", "--store", str(tmp_path / "s")], tmp_path, AMEM_SESSION_KEY="oops")
    assert "environment AMEM_SESSION_KEY: 'oops' is not a session key" in one_error_line(result, 2)


@pytest.mark.parametrize(
    ("key", "agent"),
    [("agent:dev:main", "dev"), ("agent:main:subagent:x1", "main"), ("main", "main")],
)
def test_session_keys_of_the_accepted_shapes_act_as_their_agent(
    key: str, agent: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "store").mkdir()  # an empty store: no agent is in it, none configured
    store = ["--store", str(tmp_path / "store"), "--model", TEST_MODEL, "--new-agent"]
    code, out, _ = cli(capsys, *store, "--session-key", key, "list", "--json")
    assert code == 0 and json.loads(out)["agent"] == agent
