"""``leaks``, ``check FILE`` and ``--dry-run --checks FILE``, as CI and users run them:
the findings of a planted store, the exit statuses, a bad checks file's line and key,
and previews that say what a change would flip while the store's files stay the same."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from amem_tui.demo import demo_id
from amem_tui.engine.embed import TEST_MODEL
from amem_tui.engine.for_apps import LEAK_KINDS
from amem_tui.engine.store.edge import EdgeStore
from tests.support.cli import answer, demo_like_config, inert, one_error_line, run
from tests.support.engines import demo_like_settings, make_engine
from tests.support.leak_store import (
    C_COPY,
    C_SECRET,
    EXPECTED,
    L_GRANT,
    P_COPY,
    P_LINK,
    plant_leaks,
)

CHECKS = f"""\
[[check]]
name = "dev never recalls main's VPN key rotation"
agent = "dev"
query = "staging VPN pre-shared key rotation"
forbid = ["pre-shared key rotation happens"]

[[check]]
name = "main's offsite booking stays hidden from dev"
agent = "dev"
query = "offsite hotel booking reference Lisbon"
forbid = ["{P_LINK}"]
hidden_because = "private"
"""


class Store:
    """A planted Edge store, its configuration, and the CLI run on them."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.folder = home / "store"
        self.config = demo_like_config(home)
        settings = demo_like_settings(model=TEST_MODEL, store_path=self.folder)
        with make_engine(EdgeStore(self.folder), settings=settings) as engine:
            plant_leaks(engine)

    def __call__(self, *args: str) -> Any:
        return run(["--store", str(self.folder), "--config", str(self.config), *args], self.home)

    def checks(self, text: str = CHECKS) -> str:
        path = self.home / "ci.toml"
        path.write_text(text, encoding="utf-8")
        return str(path)

    def record(self, *queries: tuple[str, str]) -> None:
        """Recent queries, as the inspector's search box records them."""
        settings = demo_like_settings(model=TEST_MODEL, store_path=self.folder)
        with make_engine(EdgeStore(self.folder), settings=settings) as engine:
            history = engine.query_history(self.home / "data" / "query_history.json")
            for agent, query in queries:
                history.record(agent, query)

    def files(self) -> dict[str, str]:
        """Every file of the store folder, by its bytes' hash, once a read has opened
        both collections (a first open of a collection writes its own files); the lock
        file, which holds the process id of whoever opened it, is left out."""
        for read in (["list"], ["--agent", "sandbox", "list"]):
            assert self(*read).returncode == 0
        return {
            str(path.relative_to(self.folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(self.folder.rglob("*"))
            if path.is_file() and path.name != "edge.lock"
        }


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path)


def test_leaks_reports_every_planted_case_and_fails_on_a_leak(store: Store) -> None:
    report = answer(store("leaks", "--json"), 1)
    found = {
        (f["kind"], f["from_agent"], f["to_agent"], tuple(f["notes"])) for f in report["findings"]
    }
    assert found == EXPECTED
    assert (report["pairs_checked"], report["notes_checked"]) == (12, 18)
    first = report["findings"][0]
    assert list(first)[:6] == ["kind", "severity", "from_agent", "to_agent", "notes", "why"]
    text = store("leaks")
    assert text.returncode == 1
    shown = inert(text.stdout)
    assert "main -> dev" in shown and f"content-copied   {C_COPY}" in shown
    assert "AKIA" not in shown + inert(text.stderr) + json.dumps(report)
    assert "at or above 'leak'" in inert(text.stderr)


def test_leaks_fail_on_gates_the_exit_status(tmp_path: Path) -> None:
    folder, config = tmp_path / "store", demo_like_config(tmp_path)
    args = ["--store", str(folder), "--config", str(config)]
    assert run([*args, "add", "Main's own notes on the roadmap"], tmp_path).returncode == 0
    # A note of an agent nobody configured: a warning, not a leak.
    assert (
        run([*args, "--agent", "ops", "add", "Ops runbook", "--new-agent"], tmp_path).returncode
        == 0
    )
    clean = answer(run([*args, "leaks", "--json"], tmp_path))
    assert [f["kind"] for f in clean["findings"]] == ["unknown-agent"]
    strict = run([*args, "leaks", "--fail-on", "warning"], tmp_path)
    assert strict.returncode == 1
    bad = run([*args, "leaks", "--fail-on", "never"], tmp_path)
    assert "invalid choice" in one_error_line(bad, 2)


def test_check_fails_naming_the_check_until_the_store_is_fixed(store: Store) -> None:
    checks = store.checks()
    run_ = answer(store("check", checks, "--json"), 1)
    assert [v["passed"] for v in run_["verdicts"]] == [False, True]
    assert C_COPY in {hit["id"] for hit in run_["verdicts"][0]["hits"]}
    failed = store("check", checks)
    assert failed.returncode == 1
    assert "FAIL  #1 (line 1) dev never recalls main's VPN key rotation" in inert(failed.stdout)
    assert "1 check of 2 failed: #1" in inert(failed.stderr)
    assert store("unpublish", C_COPY).returncode == 0
    fixed = answer(store("check", checks, "--json"))
    assert [v["passed"] for v in fixed["verdicts"]] == [True, True]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('[[check]]\nagent = "dev"\nquery = x\n', "ci.toml:3"),
        (
            '[[check]]\nagent = "dev"\nquery = "x"\n\n[[check]]\nagent = "dev"\nquerry = "y"\n',
            "ci.toml:7: querry",
        ),
        (
            '[[check]]\nagent = "dev"\nquery = "x"\n\n[[check]]\nagent = "deev"\nquery = "y"\n',
            "ci.toml:6: agent",
        ),
    ],
    ids=["syntax", "unknown-key", "unknown-agent"],
)
def test_a_bad_checks_file_exits_2_naming_line_and_key(store: Store, text: str, where: str) -> None:
    line = one_error_line(store("check", store.checks(text)), 2)
    assert where in line
    as_json = store("check", store.checks(text), "--json")
    assert as_json.returncode == 2
    error = json.loads(as_json.stderr)["error"]
    assert where.split(": ")[0].split(":")[1] == str(error["line"])


def test_publish_dry_run_names_the_check_it_breaks_and_writes_nothing(store: Store) -> None:
    store.record(("dev", "offsite hotel booking reference Lisbon"), ("dev", "mobile app"))
    before = store.files()
    preview = answer(store("publish", P_LINK, "--dry-run", "--checks", store.checks(), "--json"))
    assert [(f["number"], f["before"], f["after"]) for f in preview["flips"]] == [(2, True, False)]
    moved = {d["query"]: d for d in preview["deltas"] if d["entered"] or d["left"]}
    assert P_LINK in moved["offsite hotel booking reference Lisbon"]["entered"]
    text = store("publish", P_LINK, "--dry-run", "--checks", store.checks())
    shown = inert(text.stdout)
    assert "#2 main's offsite booking stays hidden from dev: holds -> fails" in shown
    assert f"enters: {P_LINK}" in shown and "nothing was written" in shown
    assert store.files() == before
    note = answer(store("show", P_LINK, "--json"))
    assert note["agent_id"] == "main"


def test_a_search_is_recorded_so_a_dry_run_shows_its_top_5_delta(store: Store) -> None:
    query = "offsite hotel booking reference Lisbon"
    quiet = answer(store("publish", P_LINK, "--dry-run", "--json"))
    assert quiet["deltas"] == []  # nobody has searched yet
    assert store("--agent", "dev", "search", query).returncode == 0
    assert store("--agent", "dev", "search", query, "--json").returncode == 0  # kept once
    preview = answer(store("publish", P_LINK, "--dry-run", "--json"))
    assert [(d["agent"], d["query"]) for d in preview["deltas"]] == [("dev", query)]
    assert P_LINK in preview["deltas"][0]["entered"]
    shown = inert(store("publish", P_LINK, "--dry-run").stdout)
    assert f"dev searches {query!r}" in shown and f"enters: {P_LINK}" in shown


def test_a_search_is_previewed_with_the_filters_it_was_asked_with(store: Store) -> None:
    """``search --subject`` keeps its subject with the query: the dry run searches the
    notes about that person or nobody, as the search did, so publishing a note about
    someone else moves nothing, and one about nobody still enters."""
    settings = demo_like_settings(model=TEST_MODEL, store_path=store.folder)
    with make_engine(EdgeStore(store.folder), settings=settings) as engine:
        bob = engine.agent("main").add(
            "Offsite hotel booking reference for Bob in Lisbon", extra={"subjects": ["Bob"]}
        )
    query = "offsite hotel booking reference Lisbon"
    assert store("--agent", "dev", "search", query, "--subject", "Alice").returncode == 0
    about_bob = answer(store("publish", bob.id, "--dry-run", "--checks", store.checks(), "--json"))
    [delta] = about_bob["deltas"]
    assert bob.id not in delta["after"] and not delta["entered"] and not delta["left"]
    assert (delta["agent"], delta["query"], delta["subject"]) == ("dev", query, "Alice")
    about_nobody = answer(store("publish", P_LINK, "--dry-run", "--json"))
    assert P_LINK in about_nobody["deltas"][0]["entered"]
    shown = inert(store("publish", P_LINK, "--dry-run").stdout)
    assert f"dev searches {query!r} (subject Alice)" in shown


def test_a_configured_checks_file_is_what_a_dry_run_runs(store: Store) -> None:
    """``AMEM_CHECKS`` names the checks a dry run runs when ``--checks`` names none (and
    ``consolidate --dry-run`` runs them too); ``--checks`` wins; the lines say which."""
    checks = store.checks()
    common = ["--store", str(store.folder), "--config", str(store.config)]
    publish = [*common, "publish", P_LINK, "--dry-run"]
    preview = answer(run([*publish, "--json"], store.home, AMEM_CHECKS=checks))
    assert [(f["number"], f["before"], f["after"]) for f in preview["flips"]] == [(2, True, False)]
    shown = inert(run(publish, store.home, AMEM_CHECKS=checks).stdout)
    assert f"checks in {checks} that would flip: 1 of 2" in shown
    plan = answer(
        run([*common, "consolidate", "--dry-run", "--json"], store.home, AMEM_CHECKS=checks)
    )
    assert plan["what_if"]["checks_after"]["source"] == checks
    first = store.home / "first.toml"
    first.write_text(CHECKS.split("\n\n")[0] + "\n", encoding="utf-8")
    named = run([*publish, "--checks", str(first)], store.home, AMEM_CHECKS=checks)
    assert f"checks in {first} that would flip: 0 of 1" in inert(named.stdout)


def test_each_change_previews_without_writing(store: Store) -> None:
    store.record(
        ("dev", "staging VPN pre-shared key rotation"), ("main", "mobile app release checklist")
    )
    checks = store.checks()
    before = store.files()
    unpublish = answer(store("unpublish", C_COPY, "--dry-run", "--checks", checks, "--json"))
    assert [(f["number"], f["after"]) for f in unpublish["flips"]] == [(1, True)]
    delete = answer(store("delete", C_COPY, "--dry-run", "--checks", checks, "--json"))
    assert [(f["number"], f["after"]) for f in delete["flips"]] == [(1, True)]
    assert C_COPY in delete["deltas"][0]["left"]
    readers = answer(
        store("--agent", "dev", "update", L_GRANT, "--no-readers", "--dry-run", "--json")
    )
    assert readers["change"].startswith(f"dev sets the readers of {L_GRANT}")
    plan = answer(store("consolidate", "--dry-run", "--checks", checks, "--json"))
    assert plan["id"] is None and plan["what_if"]["checks_after"] is not None
    assert store.files() == before
    # A change nobody may make is refused the same way in a preview.
    denied = store("--agent", "dev", "unpublish", C_COPY, "--dry-run")
    assert "PERMISSION_DENIED" in one_error_line(denied, 3)
    # --checks alone, or a dry run of a content edit, is a usage error.
    assert "--dry-run" in one_error_line(store("publish", P_COPY, "--checks", checks), 2)
    edit = store("update", P_COPY, "--content", "New words here", "--dry-run")
    assert "previews a change of readers" in one_error_line(edit, 2)
    assert store.files() == before
    assert answer(store("show", C_SECRET, "--json"))["agent_id"] == "shared"


def test_consolidate_dry_run_without_checks_answers_as_before(store: Store) -> None:
    plan = answer(store("consolidate", "--dry-run", "--json"))
    assert "what_if" not in plan
    assert "--dry-run" in one_error_line(store("consolidate", "--checks", "x.toml"), 2)


def test_the_demo_with_leaks_plants_one_case_of_each_finding(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    args = ["--store", str(folder)]
    assert run([*args, "demo", "--no-tui", "--leaks"], tmp_path).returncode == 0
    config = ["--config", str(folder / "openclaw.json")]
    report = answer(run([*args, *config, "leaks", "--json"], tmp_path), 1)
    kinds = {f["kind"] for f in report["findings"]}
    assert kinds == set(LEAK_KINDS) - {"orphan-namespace"}  # a mem0 store's alone
    named = {n for f in report["findings"] for n in f["notes"]}
    # The look-alikes: a readers grant used as meant, shared notes on private topics.
    assert demo_id("dev-selective") not in named
    planted = {demo_id(key) for key in ("leak-copied", "leak-secret", "leak-misplaced")}
    assert planted <= named
    # Without --leaks the demo holds no leak and no warning (its link is only an id).
    plain = tmp_path / "plain"
    assert run(["--store", str(plain), "demo", "--no-tui"], tmp_path).returncode == 0
    clean = run(
        ["--store", str(plain), "--config", str(plain / "openclaw.json"), "leaks"], tmp_path
    )
    assert clean.returncode == 0
    # Its text: counts agree with their nouns, a reason is never cut, and a long list
    # of exposed notes ends by saying how many more --json has.
    shown = inert(clean.stdout)
    assert ": 0 leaks, 1 warning, 3 info" in shown.splitlines()[0]
    assert not [line for line in shown.splitlines() if line.endswith("…")]
    assert re.search(r"and \d+ more \(--json lists every one\)", shown)
