"""``conflicts``: the flagged pairs an agent reads (every one with ``--all-agents``), and
``conflicts resolve A B --keep A|B|both`` / ``conflicts clear ID``: recorded, undone by
``undo``, refused with nothing written on bad input or a note the agent may not modify."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from amem_tui.demo import demo_config
from amem_tui.engine.embed import TEST_MODEL
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.cli import in_this_process as cli
from tests.support.conflict_store import MISSING, plant_conflicts
from tests.support.consolidation_data import nid
from tests.support.engines import make_engine


@pytest.fixture
def store(tmp_path: Path) -> list[str]:
    """The planted conflicts (tests.support.conflict_store) in a store on disk, main and
    dev in Mode A and sandbox in Mode B; the common options to reach it."""
    folder = tmp_path / "store"
    with make_engine(QdrantStore(path=str(folder))) as engine:
        plant_conflicts(engine)
    config = tmp_path / "openclaw.json"
    config.write_text(demo_config(), encoding="utf-8")
    return ["--store", str(folder), "--config", str(config), "--model", TEST_MODEL]


def answer(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = cli(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def pair_ids(listing: dict[str, Any]) -> set[frozenset[str]]:
    return {frozenset((p["a"]["id"], p["b"]["id"])) for p in listing["pairs"]}


def pair(*keys: str) -> frozenset[str]:
    return frozenset(nid(k) for k in keys)


def shown(capsys: pytest.CaptureFixture[str], store: list[str], key: str) -> Any:
    return answer(capsys, *store, "--agent", "main", "show", nid(key))


def test_an_agent_lists_the_pairs_it_reads_and_the_store_every_pair(
    store: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    listing = answer(capsys, *store, "--agent", "main", "conflicts")
    assert pair_ids(listing) == {pair("cross-main", "cross-dev"), pair("inside-new", "inside-old")}
    cross = next(p for p in listing["pairs"] if p["a"]["id"] == nid("cross-main"))
    assert {"a", "b", "reason", "owners", "scanned_at"} <= set(cross)
    assert cross["owners"] == ["main", "dev"]
    assert cross["reason"] == "two schedules for the staging rebuild"
    assert (cross["a"]["scope"], cross["b"]["scope"]) == ("private", "shared")
    dangling = {d["note"]["id"]: d for d in listing["dangling"]}
    assert set(dangling) == {nid("gone-missing"), nid("gone-retired"), nid("unpaired")}
    assert MISSING not in json.dumps(listing)  # as an agent, a missing partner is not named

    everything = answer(capsys, *store, "conflicts", "--all-agents")
    assert pair_ids(everything) == pair_ids(listing) | {
        pair("dev-a", "dev-b"),
        pair("sb-a", "sb-b"),
    }
    code, out, err = cli(capsys, *store, "--agent", "main", "conflicts")
    assert code == 0, err
    assert out.startswith("2 flagged pairs (agent main), newer note as A\n")
    assert "two home cities" in out and "diff B -> A: " in out and "[-" in out
    assert "3 dangling flags (its partner is gone)" in out


def test_keep_a_retires_b_and_undo_brings_it_back_exactly(
    store: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    old = shown(capsys, store, "inside-old")
    main_ = [*store, "--agent", "main"]
    resolve = ["conflicts", "resolve", nid("inside-new"), nid("inside-old"), "--keep", "A"]
    planned = answer(capsys, *main_, *resolve, "--dry-run")
    assert planned["dry_run"] and planned["retired"] == nid("inside-old")
    assert shown(capsys, store, "inside-old") == old  # a dry run writes nothing
    assert answer(capsys, *main_, "history") == []

    done = answer(capsys, *main_, *resolve, "--reason", "she moved")
    assert not done["dry_run"] and done["retired"] == nid("inside-old")
    assert shown(capsys, store, "inside-old")["is_active"] is False
    kept = shown(capsys, store, "inside-new")
    assert kept["conflict"] is False and kept["conflicts_with"] == []
    [run] = answer(capsys, *main_, "history")
    assert run["id"] == done["run"]["id"] and run["trigger"] == "resolve"
    assert run["settles"]["keep"] == "A" and run["settles"]["reason"] == "she moved"
    code, out, _ = cli(capsys, *main_, *resolve)
    assert code == 2  # settled: the retired note is no pair any more

    code, out, err = cli(capsys, *main_, "history")
    assert f"keep {nid('inside-new')}, retire {nid('inside-old')}\n" in out
    assert "    flagged: two home cities\n    decided: she moved" in out

    code, out, err = cli(capsys, *main_, "undo", done["run"]["id"])
    assert code == 0, err
    assert f"undoes {done['run']['id']}\n  taken back: keep {nid('inside-new')}" in out
    assert shown(capsys, store, "inside-old") == old  # byte for byte
    assert pair("inside-new", "inside-old") in pair_ids(answer(capsys, *main_, "conflicts"))


def test_keep_both_leaves_the_flags_as_the_sweep_treats_settled(
    store: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    dev = [*store, "--agent", "dev"]
    code, out, err = cli(
        capsys, *dev, "conflicts", "resolve", nid("dev-a"), nid("dev-b"), "--keep", "both"
    )
    assert code == 0, err
    assert out.startswith(f"keep both {nid('dev-a')} and {nid('dev-b')}: not a contradiction")
    assert "take it back: amem-tui --agent dev undo " in out
    for key in ("dev-a", "dev-b"):
        note = answer(capsys, *dev, "show", nid(key))
        assert note["is_active"] is True
        assert (note["conflict"], note["conflicts_with"]) == (False, [])
        # The sweep skips a batch whose every note has a conflict_scanned_at.
        assert note["conflict_scanned_at"]
    assert answer(capsys, *dev, "conflicts")["pairs"] == []


def test_clear_takes_a_dangling_flag_away(
    store: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    main_ = [*store, "--agent", "main"]
    done = answer(capsys, *main_, "conflicts", "clear", nid("gone-missing"))
    assert done["action"] == "clear" and done["retired"] is None
    dangling = answer(capsys, *main_, "conflicts")["dangling"]
    assert nid("gone-missing") not in {d["note"]["id"] for d in dangling}
    assert shown(capsys, store, "gone-missing")["conflicts_with"] == []


@pytest.mark.parametrize(
    ("agent", "words", "code", "said"),
    [
        ("main", ["resolve", "inside-new", "plain", "--keep", "A"], 2, "not flagged as"),
        ("main", ["resolve", "inside-new", "inside-new", "--keep", "A"], 2, "itself"),
        ("main", ["resolve", "inside-new", "never-written", "--keep", "B"], 2, "never-written"),
        ("dev", ["resolve", "cross-dev", "cross-main", "--keep", "A"], 2, "cross-main"),
        ("main", ["resolve", "cross-main", "cross-dev", "--keep", "A"], 3, "only its owner (dev)"),
        ("main", ["resolve", "inside-new", "inside-old"], 2, "--keep A, B or both"),
        ("main", ["resolve", "inside-new", "inside-old", "--keep", "C"], 2, "invalid choice"),
        ("main", ["resolve", "inside-new"], 2, "name both notes"),
        ("main", ["clear", "inside-new"], 2, "no dangling conflict flag"),
        ("main", ["--keep", "A"], 2, "go with resolve or clear"),
        ("main", ["swap", "inside-new"], 2, "invalid choice"),
    ],
)
def test_bad_input_is_refused_and_nothing_is_written(
    store: list[str],
    capsys: pytest.CaptureFixture[str],
    agent: str,
    words: list[str],
    code: int,
    said: str,
) -> None:
    argv = [nid(w) if w in KEYS else w for w in words]
    before = answer(capsys, *store, "conflicts", "--all-agents")
    got, out, err = cli(capsys, *store, "--agent", agent, "conflicts", *argv)
    assert (got, out) == (code, "")
    assert (nid(said) if said in KEYS else said) in err
    assert answer(capsys, *store, "conflicts", "--all-agents") == before
    assert answer(capsys, *store, "history") == []


KEYS = {"inside-new", "inside-old", "plain", "never-written", "cross-dev", "cross-main"}


def test_a_read_only_store_refuses_a_decision_but_shows_a_dry_run(
    store: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    resolve = ["conflicts", "resolve", nid("inside-new"), nid("inside-old"), "--keep", "B"]
    code, _, err = cli(capsys, *store, "--read-only", "--agent", "main", *resolve)
    assert code == 3, err
    code, out, err = cli(capsys, *store, "--read-only", "--agent", "main", *resolve, "--dry-run")
    assert code == 0, err
    assert out.startswith(f"keep {nid('inside-old')}, retire {nid('inside-new')} (dry run")
    assert shown(capsys, store, "inside-new")["is_active"] is True
