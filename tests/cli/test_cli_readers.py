"""``add --readers`` and ``update --readers / --no-readers``, as users run them."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import answer, inert, one_error_line, run

CONFIG = {
    "plugins": {
        "entries": {
            "openclaw-amem": {
                "enabled": True,
                "config": {
                    "agentId": "main",
                    "agents": {
                        "dev": {"agentId": "dev"},
                        "ops": {"agentId": "ops"},
                        "sandbox": {"agentId": "sandbox", "collection": "amem_notes_sandbox"},
                    },
                },
            }
        }
    }
}

Cli = Callable[..., Any]


@pytest.fixture
def cli(tmp_path: Path) -> Iterator[Cli]:
    """The CLI on a fresh embedded store: main, dev and ops in Mode A, sandbox in Mode B."""
    config = tmp_path / "openclaw.json"
    config.write_text(json.dumps(CONFIG))

    def call(*args: str) -> Any:
        return run(["--config", str(config), *args], tmp_path)

    yield call


def test_add_with_readers_says_what_openclaw_amem_gives_them(cli: Cli) -> None:
    added = cli("add", "The staging VPN profile is in the team vault", "--readers", "dev,ops")
    assert added.returncode == 0, added.stderr.decode()
    text = inert(added.stdout)
    assert "readers=['main', 'dev', 'ops']" in text
    assert "openclaw-amem: getNote returns it to dev, ops" in text
    assert "memory_search" in text
    note = answer(cli("list", "--scope", "private", "--json"))["notes"][0]
    assert (note["agent_id"], note["readers"]) == ("main", ["main", "dev", "ops"])
    dev = answer(cli("--agent", "dev", "list", "--scope", "get-only", "--json"))
    assert [n["id"] for n in dev["notes"]] == [note["id"]]
    assert answer(cli("--agent", "dev", "list", "--json"))["total"] == 0


def test_update_readers_then_clear_them(cli: Cli) -> None:
    note = answer(cli("add", "Deploy keys are rotated every quarter", "--json"))
    changed = answer(cli("update", note["id"], "--readers", "dev", "--json"))
    assert changed["readers"] == ["main", "dev"]
    cleared = answer(cli("update", note["id"], "--no-readers", "--json"))
    assert cleared["readers"] == ["main"]
    both = cli("update", note["id"], "--readers", "dev", "--no-readers")
    assert "not allowed with" in one_error_line(both, 2)


def test_a_non_owner_is_denied_and_nothing_changes(cli: Cli) -> None:
    note = answer(cli("add", "Incident review every Friday at noon", "--shared", "--json"))
    answer(cli("unpublish", note["id"], "--json"))
    before = answer(cli("show", note["id"], "--json"))
    denied = cli("--agent", "dev", "update", note["id"], "--readers", "dev")
    line = one_error_line(denied, 4)  # private to main now: dev cannot even read it
    assert note["id"] in line
    answer(cli("update", note["id"], "--readers", "dev", "--json"))
    denied = cli("--agent", "dev", "update", note["id"], "--readers", "dev,ops", "--json")
    assert denied.returncode == 3
    error = json.loads(denied.stderr)["error"]
    assert error["kind"] == "permission_denied" and error["agent"] == "dev"
    assert "PERMISSION_DENIED" in error["message"]
    after = answer(cli("show", note["id"], "--json"))
    assert after["readers"] == ["main", "dev"]
    assert {k: v for k, v in after.items() if k != "readers"} == {
        k: v for k, v in before.items() if k != "readers"
    }


@pytest.mark.parametrize(
    "args, code, fragment",
    [
        (["add", "A note for the whole team to see", "--readers", "*"], 2, "publish"),
        (["add", "A note for the sandbox agent", "--readers", "sandbox"], 2, "Mode B"),
        (["add", "Everyone gets this one", "--shared", "--readers", "dev"], 2, "shared note"),
        (["--agent", "sandbox", "add", "Sandbox notes stay home", "--readers", "dev"], 2, "Mode B"),
    ],
)
def test_meaningless_readers_are_refused(
    cli: Cli, args: list[str], code: int, fragment: str
) -> None:
    assert fragment in one_error_line(cli(*args), code)
    assert answer(cli("list", "--json"))["total"] == 0


def test_an_unknown_reader_is_named_on_stderr(cli: Cli) -> None:
    added = cli("add", "Ask the new agent about the data lake", "--readers", "analyst", "--json")
    note = answer(added)
    assert note["readers"] == ["main", "analyst"]
    warning = json.loads(added.stderr)["warning"]
    assert (warning["kind"], warning["agent"]) == ("unknown_reader", "analyst")
    assert "dev" in warning["known_agents"]


def test_publish_says_what_becomes_of_the_readers_and_unpublish_gives_them_back(
    cli: Cli,
) -> None:
    note = answer(
        cli("add", "The staging VPN profile is in the vault", "--readers", "dev", "--json")
    )
    published = cli("publish", note["id"])
    assert published.returncode == 0, published.stderr.decode()
    said = " ".join(published.stdout.decode().split())
    assert "readers become everyone (*) instead of main, dev" in said
    assert "Unpublish gives them back" in said
    as_json = answer(cli("unpublish", note["id"], "--json"))
    assert as_json["readers"] == ["main", "dev"]
    again = answer(cli("publish", note["id"], "--json"))
    assert again["access_change"].startswith("Its readers become everyone (*) instead of main, dev")
