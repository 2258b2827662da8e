"""``amem-tui search``: flags, JSON shape, hidden matches, session keys."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from amem_tui.cli import main
from amem_tui.engine.embed import TEST_MODEL
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support import cli
from tests.support.engines import demo_like_settings, make_engine
from tests.support.paths import REPO_ROOT

CONFIG = {
    "plugins": {
        "entries": {
            "openclaw-amem": {
                "config": {
                    "agentId": "main",
                    "agents": {
                        "dev": {"agentId": "dev"},
                        "sandbox": {"agentId": "sandbox", "collection": "amem_notes_sandbox"},
                    },
                }
            }
        }
    }
}


@pytest.fixture
def filled(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """A store folder with notes of main, dev, the shared scope and the sandbox."""
    folder = tmp_path / "store"
    store = QdrantStore(path=str(folder))
    engine = make_engine(store, settings=demo_like_settings(model=TEST_MODEL))
    trip = engine.agent("main").add("deploy freeze means the offsite trip is fixed")
    shared = engine.agent("main").add("deploy freeze until Friday", links=[trip.id], shared=True)
    ids = {
        "trip": trip.id,
        "shared": shared.id,
        "dev": engine.agent("dev").add("deploy freeze notes kept by dev").id,
        "sandbox": engine.agent("sandbox").add("deploy freeze seen from the sandbox").id,
    }
    engine.close()
    config = tmp_path / "openclaw.json"
    config.write_text(json.dumps(CONFIG))
    return folder, config, ids


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def base(filled: tuple[Path, Path, dict[str, str]]) -> list[str]:
    folder, config, _ = filled
    return ["--store", str(folder), "--config", str(config), "--model", TEST_MODEL]


def test_search_json_lean_by_default(
    filled: tuple[Path, Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(capsys, *base(filled), "--agent", "dev", "search", "deploy freeze", "--json")
    assert code == 0
    data = json.loads(out)
    ids = filled[2]
    assert data["agent"] == "dev" and data["search_mode"] == "hybrid" and data["exact"] is True
    assert {h["id"] for h in data["hits"]} == {ids["shared"], ids["dev"]}
    hit = data["hits"][0]
    assert {"id", "score", "content", "agent_id", "owner", "because"} <= set(hit)
    assert not {"similarity", "bm25_rank", "rrf", "via"} & set(hit)
    assert "hidden" not in data


def test_search_exact_or_approximate_on_request(
    filled: tuple[Path, Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*base(filled), "--agent", "dev", "search", "deploy freeze"]
    found = {}
    for flag in ("--exact", "--approximate"):
        code, out = run(capsys, *argv, flag, "--json")
        assert code == 0
        found[flag] = json.loads(out)
    assert found["--exact"]["exact"] is True and found["--approximate"]["exact"] is False
    assert [h["id"] for h in found["--approximate"]["hits"]] == [
        h["id"] for h in found["--exact"]["hits"]
    ]
    code, out = run(capsys, *argv, "--approximate")
    assert code == 0 and "openclaw-amem's memory_search" in out and ", approximate)" in out
    assert main([*argv, "--exact", "--approximate"]) == 2
    assert "not allowed with argument --exact" in capsys.readouterr().err


def test_search_explain_and_hidden(
    filled: tuple[Path, Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*base(filled), "--agent", "dev", "search", "deploy freeze", "--json"]
    code, out = run(capsys, *argv, "--explain", "--hidden", "--limit", "5")
    assert code == 0
    data = json.loads(out)
    ids = filled[2]
    for hit in data["hits"]:
        assert {"similarity", "bm25_rank", "rrf", "via", "via_note"} <= set(hit)
        assert hit["via"] == "match" and hit["via_note"] is None
        assert hit["explanation"].startswith("via match; similarity ")
        assert hit["rrf"] == hit["score"]  # openclaw-amem's rrf: its heat boost included
    hidden = {h["id"]: h for h in data["hidden"]}
    assert set(hidden) == {ids["trip"], ids["sandbox"]}
    for h in hidden.values():
        assert {"id", "reason", "owner", "agent_id", "collection", "score"} <= set(h)
    assert "private to agent 'main'" in hidden[ids["trip"]]["reason"]
    assert hidden[ids["sandbox"]]["collection"] == "amem_notes_sandbox"
    assert "Mode B" in hidden[ids["sandbox"]]["reason"]


def test_search_link_hit_and_dense_mode(
    filled: tuple[Path, Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    ids = filled[2]
    argv = [*base(filled), "--agent", "main", "search", "deploy freeze until Friday", "--json"]
    code, out = run(capsys, *argv, "--explain", "--limit", "1", "--mode", "dense")
    assert code == 0
    data = json.loads(out)
    assert data["search_mode"] == "dense"
    assert [(h["id"], h["via"], h["via_note"]) for h in data["hits"]] == [
        (ids["shared"], "match", None),
        (ids["trip"], "link", ids["shared"]),
    ]
    assert data["hits"][1]["explanation"].startswith(f"via link from {ids['shared']} (1 hop")
    assert data["hits"][1]["explanation"].endswith("visible: its own private note")


def test_search_text_output(
    filled: tuple[Path, Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*base(filled), "--agent", "sandbox", "search", "deploy freeze", "--hidden"]
    code, out = run(capsys, *argv, "--explain")
    assert code == 0
    assert "agent sandbox (Mode B, amem_notes_sandbox)" in out
    assert "hidden from sandbox" in out and "outside this agent's collection" in out


def test_search_rejects_bad_flags(
    filled: tuple[Path, Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*base(filled), "search", "x", "--mode", "fuzzy"]) == 2
    assert main([*base(filled), "search", "x", "--limit", "0"]) == 2


def test_search_as_session_key_in_a_subprocess(
    filled: tuple[Path, Path, dict[str, str]],
) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    argv = [*base(filled), "--session-key", "agent:dev:3b5c", "search", "deploy freeze"]
    proc = subprocess.run(
        [sys.executable, "-m", "amem_tui", *argv, "--json", "--hidden"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["agent"] == "dev" and data["session_key"] == "agent:dev:3b5c"
    assert {h["id"] for h in data["hits"]} == {filled[2]["shared"], filled[2]["dev"]}
    assert filled[2]["trip"] in {h["id"] for h in data["hidden"]}


#: Searches on the demo whose hits past the decisive ones tie (the test embedder gives
#: unrelated notes cosine 0, and notes sharing one word of the query one cosine).
TIED_SEARCHES = [("dev", "deploy freeze"), ("main", "standup"), ("main", "deploy freeze")]


def test_search_answers_alike_in_every_process(tmp_path: Path) -> None:
    """Two demo stores, each filled and searched in processes of their own hash seed,
    answer every search alike: notes of equal score rank in id order, not in the order
    the store's layout (which differs from one filling to the next) hands them back."""
    answers = []
    for seed in ("1", "2"):
        options = cli.demo_store(tmp_path / f"store-{seed}")
        hits = []
        for agent, query in TIED_SEARCHES:
            args = [*options, "--agent", agent, "--json", "search", query, "--explain"]
            found = cli.answer(cli.run(args, tmp_path / f"home-{seed}", PYTHONHASHSEED=seed))
            hits.append([(h["id"], h["dense_rank"], h["bm25_rank"]) for h in found["hits"]])
        answers.append(hits)
    assert answers[0] == answers[1]
