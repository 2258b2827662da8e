"""The hostile-input corpus through ``python -m amem_tui``: one clear stderr line, the
right exit code, never a traceback; text output inert on a terminal; JSON valid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amem_tui import cli
from amem_tui.config import Settings
from amem_tui.engine.bookkeeping import is_own_bookkeeping
from amem_tui.engine.embed import TEST_MODEL
from amem_tui.engine.engine import open_store
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.cli import inert, one_error_line, run
from tests.support.engines import demo_like_settings, make_engine
from tests.support.hostile_corpus import BAD_CONFIGS, STORED, readers_list


def stored_contents(folder: Path) -> list[str]:
    """The content of every point in a store folder (read after the CLI process ended)."""
    if not folder.exists():
        return []
    store = open_store(Settings(store_path=folder))  # whichever backend wrote it
    try:
        return [
            p.payload.get("content")
            for name in store.list_collections()
            if not is_own_bookkeeping(name)  # the versions kept beside the notes
            for p in store.scroll(name, None, limit=10_000)
        ]
    finally:
        store.close()


@pytest.fixture(scope="module")
def hostile_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store folder holding every STORED case: private to main, plus shared copies."""
    folder = tmp_path_factory.mktemp("hostile") / "store"
    with make_engine(
        QdrantStore(path=str(folder)), settings=demo_like_settings(model=TEST_MODEL)
    ) as engine:
        for text in STORED.values():
            engine.agent("main").add(text)
        for case in ("rich-link", "osc-title", "bidi-override"):
            engine.agent("dev").add(STORED[case], shared=True)
        note = engine.agent("main").add("A note with a huge readers list for the CLI")
        engine.put_notes("amem_notes", [note.model_copy(update={"readers": readers_list()})])
    return folder


def test_list_text_is_inert(hostile_store: Path, tmp_path: Path) -> None:
    result = run(["list", "--store", str(hostile_store), "--limit", "100"], tmp_path)
    assert result.returncode == 0, result.stderr
    text = inert(result.stdout)
    assert f"{len(STORED) + 4} of {len(STORED) + 4} visible notes" in text
    assert "\\x1b[31mred" in text  # shown as an escape, not as colour
    assert "[link=https://example.invalid/x]here[/link]" in text  # markup shown literally
    assert "owner=dev" in text  # shared notes say who wrote them
    assert "more]" in text  # the huge readers list is cut short
    assert max(len(line) for line in text.splitlines()) < 400
    assert result.stderr == b""


def test_list_json_is_valid_and_literal(hostile_store: Path, tmp_path: Path) -> None:
    result = run(["list", "--store", str(hostile_store), "--limit", "100", "--json"], tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(inert(result.stdout))
    contents = [n["content"] for n in data["notes"]]
    for case, text in STORED.items():
        assert text in contents, case
    huge = [n for n in data["notes"] if len(n["readers"]) > 1000]
    assert huge and huge[0]["readers"] == readers_list()


@pytest.mark.parametrize("as_json", [False, True])
def test_search_output_is_inert(hostile_store: Path, tmp_path: Path, as_json: bool) -> None:
    args = ["search", "link title markup controls", "--store", str(hostile_store)]
    as_dev = ["--agent", "dev", "--new-agent"]  # dev wrote nothing here and is not configured
    result = run([*args, *as_dev, *(["--json"] if as_json else [])], tmp_path)
    assert result.returncode == 0, result.stderr
    text = inert(result.stdout)
    if as_json:
        hits = json.loads(text)["hits"]
        # dev finds the shared notes, nothing else (the one naming it in readers is read
        # by id only, as openclaw-amem's agent filter has it)
        assert {h["because"] for h in hits} == {"shared"}
        assert STORED["osc-title"] in {h["content"] for h in hits}


@pytest.mark.parametrize("case", ["rich-stray-close", "osc-title", "bidi-override", "emoji"])
def test_add_from_the_command_line_is_literal(tmp_path: Path, case: str) -> None:
    result = run(["add", STORED[case], "--store", str(tmp_path / "store")], tmp_path)
    assert result.returncode == 0, result.stderr
    inert(result.stdout)
    assert stored_contents(tmp_path / "store") == [STORED[case]]


@pytest.mark.parametrize("case", ["huge-1mb", "nul-bytes", "c0-controls"])
def test_add_from_stdin_is_literal(tmp_path: Path, case: str) -> None:
    store = str(tmp_path / "store")
    result = run(["add", "-", "--store", store], tmp_path, STORED[case].encode())
    assert result.returncode == 0, result.stderr
    assert len(inert(result.stdout)) < 2000  # one line of content, not a megabyte
    assert stored_contents(tmp_path / "store") == [STORED[case]]


@pytest.mark.parametrize(
    "args, stdin",
    [
        (["add", b"\xff\xfe bytes that are not UTF-8"], None),
        (["add", "-"], b"\xff\xfe bytes that are not UTF-8 at all"),
        (["add", ""], None),
        (["add", "   \t  \n   "], None),
        (["add", "\u200b" * 20], None),
        (["add", "Valid content but bad tags", "--tags", b"a,\xff"], None),
        (["add", "Valid content for a bad agent", "--agent", "a:b"], None),
        (["add", "Valid content for a bad agent", "--agent", "shared"], None),
        (["add", "Valid content for a bad agent", "--session-key", "agent:a b:x"], None),
        (["list", "--limit", "0"], None),
        (["list", "--limit", "many"], None),
    ],
)
def test_rejected_input_exits_2_and_stores_nothing(
    tmp_path: Path, args: list[str | bytes], stdin: bytes | None
) -> None:
    one_error_line(run([*args, "--store", str(tmp_path / "store")], tmp_path, stdin), 2)
    assert stored_contents(tmp_path / "store") == []


@pytest.mark.parametrize(
    "variable, value", [("AMEM_AGENT", "*"), ("AMEM_SESSION_KEY", "agent:a b:x")]
)
def test_bad_agent_from_the_environment(tmp_path: Path, variable: str, value: str) -> None:
    line = one_error_line(
        run(["list", "--store", str(tmp_path / "s")], tmp_path, **{variable: value}), 2
    )
    assert variable in line


# ---------------------------------------------------------------- configuration
def _write_config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "openclaw.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    return path


@pytest.mark.parametrize("case", sorted(BAD_CONFIGS))
def test_bad_configuration_one_message_naming_file_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    path = _write_config(tmp_path, BAD_CONFIGS[case].text)
    code = cli.main(["agents", "--config", str(path), "--store", str(tmp_path / "store")])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0].startswith(f"amem-tui: {path}"), err
    for word in BAD_CONFIGS[case].must_mention:
        assert word in lines[0], (word, lines[0])
    assert len(lines[0]) < 600
    assert not (tmp_path / "store").exists()  # nothing was opened, let alone written


@pytest.mark.parametrize("case", ["not-json", "agent-entry-list", "mode-b-on-mode-a-collection"])
def test_bad_configuration_in_a_real_process(tmp_path: Path, case: str) -> None:
    path = _write_config(tmp_path, BAD_CONFIGS[case].text)
    line = one_error_line(run(["agents", "--config", str(path)], tmp_path), 2)
    assert str(path) in line


@pytest.mark.parametrize("kind, words", [("directory", "directory"), ("missing", "not found")])
def test_configuration_file_that_is_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, words: str
) -> None:
    path = tmp_path / "openclaw.json"
    if kind == "directory":
        path.mkdir()
    assert cli.main(["agents", "--config", str(path)]) == 2
    line = capsys.readouterr().err.strip()
    assert "\n" not in line and str(path) in line and words in line.lower()


def test_configuration_from_the_environment(tmp_path: Path) -> None:
    path = _write_config(tmp_path, BAD_CONFIGS["topk-string"].text)
    line = one_error_line(run(["agents"], tmp_path, AMEM_CONFIG=str(path)), 2)
    assert "topK" in line and str(path) in line


def test_reserved_agent_names_in_the_default_configuration(tmp_path: Path) -> None:
    """~/.openclaw/openclaw.json is read when present: its errors name it too."""
    config = tmp_path / ".openclaw" / "openclaw.json"
    config.parent.mkdir()
    config.write_text(BAD_CONFIGS["agent-key-shared"].text)
    line = one_error_line(run(["agents"], tmp_path), 2)
    assert str(config) in line and "shared" in line
