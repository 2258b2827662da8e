"""What the CLI reports is what happened: both hashes of a note changed elsewhere, what
a refused import really did, counts with their nouns agreeing, undo by the short ids
that history shows, and a first-run hint on an empty default store."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from amem_tui.demo import demo_id, seed_demo
from amem_tui.engine.embed import TEST_MODEL
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.cli import in_this_process as cli
from tests.support.cli import run
from tests.support.engines import demo_like_settings, make_engine


# ------------------------------------------------------------ --expect-hash
def test_an_expect_hash_mismatch_shows_both_hashes(
    demo: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    note = demo_id("main-vendor")
    code, out, _ = cli(capsys, *demo, "show", note, "--json")
    actual = json.loads(out)["hash"]
    stale = "0" * 32
    update = ["update", note, "--content", "The vendor account moved", "--expect-hash", stale]
    code, out, err = cli(capsys, *demo, *update)
    assert (code, out) == (2, "")
    assert f"expected hash {stale}, it now has {actual}" in err and "nothing was written" in err
    code, out, err = cli(capsys, *demo, *update, "--json")
    error = json.loads(err)["error"]
    assert (error["kind"], error["expected_hash"], error["actual_hash"]) == (
        "stale_note",
        stale,
        actual,
    )
    assert json.loads(cli(capsys, *demo, "show", note, "--json")[1])["hash"] == actual


# ------------------------------------------------------------------- import
def test_a_refused_import_reports_nothing_re_embedded(
    demo: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    exported = tmp_path / "all.jsonl"
    assert cli(capsys, *demo, "export", "-o", str(exported))[0] == 0
    good = json.loads(exported.read_text().splitlines()[0])  # no vector: it is re-embedded
    good["id"] = "00000000-0000-4000-8000-000000000123"
    lines = tmp_path / "two.jsonl"
    lines.write_text(json.dumps(good) + '\n{"id": "not-a-uuid"}\n', encoding="utf-8")
    code, out, err = cli(capsys, *demo, "import", str(lines))
    assert code == 2 and "import refused: 1 of 2 lines rejected" in err
    assert "wrote nothing to amem_notes" in out and "re-embedded" not in out
    code, out, _ = cli(capsys, *demo, "import", str(lines), "--json")
    report = json.loads(out)
    assert (report["written"], report["vectors_kept"], report["reembedded"]) == (0, 0, 0)
    # A dry run says what a write would do; a write what it did.
    code, out, _ = cli(capsys, *demo, "import", str(lines), "--dry-run")
    assert "would write 1 note to amem_notes (0 with their vectors, 1 to re-embed)" in out
    code, out, _ = cli(capsys, *demo, "import", str(lines), "--skip-invalid")
    assert "wrote 1 note to amem_notes (0 with their vectors, 1 re-embedded)" in out


# ------------------------------------------------------------------ plurals
PLURAL_MISTAKES = re.compile(
    r"\b1 (notes|points|hits|merges|lines|runs|groups|results)\b|\(s\)"
    r"|\b(0|[2-9]|\d\d+) (note|point|hit|merge|line|run|group)\b(?! was)"
)


def test_counted_nouns_agree_with_their_counts(
    demo: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    one = tmp_path / "one"
    outputs = []
    for argv in (
        ["consolidate", "--dry-run", "--threshold", "0.65"],
        ["--agent", "dev", "consolidate", "--threshold", "0.65"],
        ["history"],
        ["stats"],
        ["collections"],
        ["audit"],
        ["--agent", "dev", "search", "deploy freeze", "--limit", "1"],
        ["compare", "main", "dev", "--query", "deploy freeze", "--limit", "1"],
        ["--agent", "sandbox", "list", "--limit", "1"],
    ):
        code, out, err = cli(capsys, *demo, *argv)
        assert code == 0, (argv, err)
        outputs.append(out)
    assert cli(capsys, "--store", str(one), "--model", TEST_MODEL, "add", "A single note")[0] == 0
    for argv in (["list"], ["stats"], ["collections"], ["export", "-o", str(tmp_path / "x")]):
        code, out, err = cli(capsys, "--store", str(one), "--model", TEST_MODEL, *argv)
        assert code == 0, (argv, err)
        outputs.append(out)
    text = "\n".join(outputs)
    for singular in ("1 merge", "1 point", "1 hit"):  # the singulars are there
        assert re.search(rf"\b{singular}\b", text), singular
    assert "exported 1 point from" in text and "1 of 1 visible note\n" in text
    assert PLURAL_MISTAKES.findall(text) == []


# ---------------------------------------------------------------------- undo
def store_with_two_runs(folder: Path) -> None:
    """The demo notes, consolidated as main and as dev: two runs whose ids start alike
    (``ab000001-…``, ``ab000002-…``)."""
    counter = itertools.count(1)
    engine = make_engine(
        QdrantStore(path=str(folder)),
        settings=demo_like_settings(model=TEST_MODEL),
        new_id=lambda: f"ab{next(counter):06d}-0000-4000-8000-000000000000",
    )
    with engine:
        seed_demo(engine)
        for agent in ("main", "dev"):
            assert engine.agent(agent).consolidate(threshold=0.65).merges


def test_undo_takes_the_start_of_a_run_id_and_names_the_runs_it_could_mean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "store"
    store_with_two_runs(folder)
    options = ["--store", str(folder), "--model", TEST_MODEL]
    runs = json.loads(cli(capsys, *options, "history", "--json")[1])
    ids = [run["id"] for run in runs]
    assert len(ids) == 2 and all(run_id.startswith("ab") for run_id in ids)

    code, out, err = cli(capsys, *options, "undo", "ab")
    assert (code, out) == (2, "")
    assert "run id 'ab' is the start of 2 runs" in err and all(i in err for i in ids)
    code, _, err = cli(capsys, *options, "undo", "AB", "--json")
    assert (code, sorted(json.loads(err)["error"]["matches"])) == (2, sorted(ids))

    short = ids[0][:8]
    code, out, err = cli(capsys, *options, "undo", short, "--json")
    assert code == 0, err
    undone = json.loads(out)
    assert undone["undoes"] == ids[0] and undone["agent"] == runs[0]["agent"]

    keeper = runs[1]["merges"][0]["keeper"]
    code, out, err = cli(capsys, *options, "undo", ids[1][:8], "--merge", keeper[:13], "--json")
    assert code == 0, err
    assert [m["keeper"] for m in json.loads(out)["merges"]] == [keeper]


def test_undo_of_a_blank_run_id_is_bad_input(
    demo: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, *demo, "undo", " ")
    assert (code, out) == (2, "") and "undo needs a run id" in err


# --------------------------------------------------------- an empty store
def test_an_empty_default_store_says_how_to_start(tmp_path: Path) -> None:
    for argv in (["list"], ["search", "deploy"], ["agents"], ["status"]):
        result = run(argv, tmp_path)
        assert result.returncode == 0, result.stderr
        err = result.stderr.decode()
        assert "warning: the default store" in err and "holds no notes yet" in err, argv
        assert "amem-tui demo" in err and "--url http://localhost:6333" in err
    result = run(["list", "--json"], tmp_path)
    warning = json.loads(result.stderr)["warning"]
    assert warning["kind"] == "empty_store" and warning["store"].endswith("store")
    assert json.loads(result.stdout)["total"] == 0


def test_no_hint_once_the_store_has_notes_or_is_named(tmp_path: Path) -> None:
    assert run(["add", "The first note of this store"], tmp_path).stderr == b""
    assert run(["list"], tmp_path).stderr == b""
    (tmp_path / "elsewhere").mkdir()  # an empty store folder (a missing one is refused)
    named = run(["list", "--store", str(tmp_path / "elsewhere")], tmp_path)
    assert named.returncode == 0 and named.stderr == b""


# --------------------------------------------------------- after the demo
def test_after_the_demo_the_readme_examples_reach_its_notes(tmp_path: Path) -> None:
    assert run(["demo", "--no-tui"], tmp_path).returncode == 0
    result = run(["--agent", "dev", "search", "deploy freeze", "--explain", "--hidden"], tmp_path)
    assert result.returncode == 0, result.stderr
    err = result.stderr.decode()
    assert "no store of your own yet" in err and "using the demo store" in err
    assert ": 0 hits" not in result.stdout.decode() and "deploy" in result.stdout.decode().lower()
    # sandbox is a demo agent (Mode B): the demo's configuration came with its store.
    sandbox = run(["--agent", "sandbox", "list", "--json"], tmp_path)
    assert sandbox.returncode == 0 and json.loads(sandbox.stdout)["total"] > 0
    warning = json.loads(sandbox.stderr)["warning"]
    assert warning["kind"] == "demo_store" and warning["store"].endswith("demo")


def test_a_store_of_ones_own_wins_over_the_demo(tmp_path: Path) -> None:
    assert run(["demo", "--no-tui"], tmp_path).returncode == 0
    own = tmp_path / "data" / "store"
    assert (
        run(["--store", str(own), "add", "The first note of my own store"], tmp_path).returncode
        == 0
    )
    result = run(["list", "--json"], tmp_path)
    assert result.returncode == 0 and b"demo" not in result.stderr
    assert [n["content"] for n in json.loads(result.stdout)["notes"]] == [
        "The first note of my own store"
    ]
