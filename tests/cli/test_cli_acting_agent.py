"""Who the CLI acts as: a mistyped agent is named on reads and refused on writes
(``--new-agent`` creates one), a non-owner meets the write rule before any content
check, and output acting as an agent never names a note it may not read."""

from __future__ import annotations

import json
from typing import Any

import pytest

from amem_tui.demo import demo_id
from tests.support.cli import in_this_process as cli

FREEZE = demo_id("shared-freeze")  # main's shared note: links to main's private trip note
TRIP = demo_id("main-trip")  # main's private note (also the freeze note's conflict)
SNAKE = demo_id("shared-snake")  # a shared note the freeze note also links to
KNOWN = ["dev", "main", "monitor", "sandbox"]


def one_line(err: str) -> str:
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, err
    return lines[0]


def total(capsys: pytest.CaptureFixture[str], demo: list[str]) -> int:
    """How many notes main and dev see between them (to check nothing was written)."""
    counts = []
    for agent in ("main", "dev"):
        code, out, _ = cli(capsys, *demo, "--agent", agent, "list", "--json")
        assert code == 0
        counts.append(json.loads(out)["total"])
    return sum(counts)


# ------------------------------------------------------------ unknown agents
READS = [
    ["list"],
    ["show", FREEZE],
    ["search", "deploy freeze"],
    ["status"],
    ["consolidate", "--dry-run"],
    ["history"],
]


@pytest.mark.parametrize("read", READS, ids=lambda argv: argv[0])
def test_a_read_as_a_mistyped_agent_is_refused_with_the_known_agents(
    demo: list[str], capsys: pytest.CaptureFixture[str], read: list[str]
) -> None:
    # Refused, not answered: a stranger finds the shared notes, a believable answer.
    code, out, err = cli(capsys, *demo, "--agent", "mian", *read)
    assert (code, out) == (4, "")
    line = one_line(err)
    assert line.startswith("amem-tui: agent 'mian' is neither configured nor in the store")
    assert "did you mean 'main'?" in line and "known agents: dev, main, monitor, sandbox" in line
    assert "nothing was read" in line and "--new-agent" in line

    code, _, err = cli(capsys, *demo, "--agent", "mian", "--json", *read)
    error = json.loads(one_line(err))["error"]
    assert (error["kind"], error["exit_code"], error["agent"], error["known_agents"]) == (
        "unknown_agent",
        4,
        "mian",
        KNOWN,
    )

    code, _, err = cli(capsys, *demo, "--agent", "mian", "--new-agent", *read)
    assert (code, err) == (0, "")  # what a new agent would find


def test_known_agents_read_without_a_warning(
    demo: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    for agent in KNOWN:
        code, _, err = cli(capsys, *demo, "--agent", agent, "list")
        assert (code, err) == (0, "")
    code, _, err = cli(capsys, *demo, "--session-key", "agent:dev:7f3a", "list")
    assert (code, err) == (0, "")
    code, _, err = cli(capsys, *demo, "--session-key", "agent:deb:7f3a", "list")
    assert code == 4 and "agent 'deb'" in one_line(err) and "did you mean 'dev'?" in err


WRITES = [
    ["add", "A note written under a mistyped agent name"],
    ["update", FREEZE, "--content", "Changed under a mistyped agent name"],
    ["publish", TRIP],
    ["unpublish", FREEZE],
    ["delete", FREEZE],
    ["restore", FREEZE],
    ["consolidate"],
    ["undo", "00000000-0000-0000-0000-000000000001"],
]


@pytest.mark.parametrize("write", WRITES, ids=lambda argv: argv[0])
def test_a_write_as_an_unknown_agent_is_refused_with_exit_2(
    demo: list[str], capsys: pytest.CaptureFixture[str], write: list[str]
) -> None:
    before = total(capsys, demo)
    code, out, err = cli(capsys, *demo, "--agent", "mian", *write)
    assert (code, out) == (2, "")
    line = one_line(err)
    assert line.startswith("amem-tui: agent 'mian' is neither configured nor in the store")
    assert "nothing was written" in line and "--new-agent" in line
    code, _, err = cli(capsys, *demo, "--json", "--agent", "mian", *write)
    error = json.loads(one_line(err))["error"]
    assert (code, error["exit_code"], error["kind"]) == (2, 2, "unknown_agent")
    assert (error["agent"], error["known_agents"]) == ("mian", KNOWN)
    assert total(capsys, demo) == before


def test_new_agent_creates_the_agent_and_then_it_is_known(
    demo: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AMEM_AGENT", "ops")  # the environment names agents too
    code, _, err = cli(capsys, *demo, "add", "The ops agent keeps the runbook links")
    assert code == 2 and "agent 'ops'" in err
    code, out, err = cli(
        capsys, *demo, "add", "The ops agent keeps the runbook links", "--new-agent", "--json"
    )
    assert (code, err) == (0, "")
    assert json.loads(out)["owner"] == "ops"
    code, _, err = cli(capsys, *demo, "add", "Ops writes again without the flag")
    assert (code, err) == (0, "")  # in the store now: known
    code, _, err = cli(capsys, *demo, "list")
    assert (code, err) == (0, "")


def test_the_session_key_of_an_unknown_agent_is_refused_for_writes(
    demo: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(capsys, *demo, "--session-key", "agent:mian:1", "add", "A note via a key")
    assert code == 2 and "agent 'mian'" in one_line(err)


def test_read_only_is_said_before_the_unknown_agent(
    demo: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(capsys, *demo, "--read-only", "--agent", "mian", "add", "Not written")
    assert code == 3 and "read-only" in one_line(err)


# ------------------------------------------------------------- the write rule
@pytest.mark.parametrize("content", ["hacked", "x", "A long enough replacement text"])
def test_a_non_owner_update_is_permission_denied_whatever_the_content(
    demo: list[str], capsys: pytest.CaptureFixture[str], content: str
) -> None:
    code, out, err = cli(capsys, *demo, "--agent", "dev", "update", FREEZE, "--content", content)
    assert (code, out) == (3, "")
    assert one_line(err).startswith(
        f"amem-tui: PERMISSION_DENIED: agent 'dev' may not update note {FREEZE}"
    )
    code, _, err = cli(
        capsys, *demo, "--agent", "dev", "update", FREEZE, "--content", content, "--json"
    )
    error = json.loads(one_line(err))["error"]
    assert code == 3 and error["kind"] == "permission_denied" and error["exit_code"] == 3
    assert (error["agent"], error["note_id"], error["action"]) == ("dev", FREEZE, "update")


def test_the_owner_still_meets_the_quality_gate(
    demo: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(capsys, *demo, "--agent", "main", "update", FREEZE, "--content", "hacked")
    assert code == 2 and "quality gate" in one_line(err)


# ------------------------------------------------------------------ redaction
def assert_redacted_for_dev(note: dict[str, Any]) -> None:
    assert note["id"] == FREEZE
    assert note["links"] == [SNAKE] and note["unreadable_links"] == 1
    assert note["conflicts_with"] == [] and note["unreadable_conflicts"] == 1


AGENT_SCOPED = [
    (["show", FREEZE], lambda data: data),
    (
        ["list", "--scope", "shared"],
        lambda data: next(n for n in data["notes"] if n["id"] == FREEZE),
    ),
    (["search", "deploy freeze"], lambda data: next(h for h in data["hits"] if h["id"] == FREEZE)),
    (
        ["search", "deploy freeze", "--explain", "--limit", "3"],
        lambda data: next(h for h in data["hits"] if h["id"] == FREEZE),
    ),
]


@pytest.mark.parametrize(
    ("argv", "pick"), AGENT_SCOPED, ids=["show", "list", "search", "search-explain"]
)
def test_agent_scoped_output_never_names_a_note_the_agent_cannot_read(
    demo: list[str], capsys: pytest.CaptureFixture[str], argv: list[str], pick: Any
) -> None:
    code, out, err = cli(capsys, *demo, "--agent", "dev", *argv, "--json")
    assert (code, err) == (0, "")
    assert TRIP not in out
    assert_redacted_for_dev(pick(json.loads(out)))
    code, text, _ = cli(capsys, *demo, "--agent", "dev", *argv)
    assert code == 0 and TRIP not in text
    if argv[0] != "search":  # the note block shows links; search lines show content
        assert f"links: {SNAKE}, 1 this agent cannot read" in text
        assert "conflicts with: 1 this agent cannot read" in text
    # main may read its own note: the same output names it, with nothing counted.
    code, out, _ = cli(capsys, *demo, "--agent", "main", *argv, "--json")
    note = pick(json.loads(out))
    assert note["links"] == [TRIP, SNAKE] and note["conflicts_with"] == [TRIP]
    assert "unreadable_links" not in note and "unreadable_conflicts" not in note


def test_export_and_audit_stay_raw(demo: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, *demo, "--agent", "dev", "export")
    assert code == 0
    freeze = next(json.loads(line) for line in out.splitlines() if FREEZE in line)
    assert freeze["payload"]["links"] == [TRIP, SNAKE]
    assert "unreadable_links" not in freeze["payload"]
    code, out, _ = cli(capsys, *demo, "--agent", "dev", "audit", "--json")
    assert code == 0
    links = json.loads(out)["cross_scope_links"]
    assert {"source": FREEZE, "target": TRIP} in [
        {"source": link["source"], "target": link["target"]} for link in links
    ]
