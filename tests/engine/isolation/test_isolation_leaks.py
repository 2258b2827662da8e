"""The leak audit on a store that plants one case of each finding beside clean
look-alikes: every planted case is reported with its kind, agents and notes, nothing
else is, on every backend."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from amem_tui.engine import MemoryEngine
from amem_tui.engine.isolation import SEVERITY_OF
from tests.support.leak_store import (
    C_COPY,
    C_NEAR,
    C_SECRET,
    EXPECTED,
    found,
    near_cosine,
    plant_leaks,
)


@pytest.fixture
def planted(engine: MemoryEngine) -> MemoryEngine:
    plant_leaks(engine)
    return engine


def test_every_planted_case_is_reported_and_nothing_else(planted: MemoryEngine) -> None:
    report = planted.leaks()
    assert found(report) == EXPECTED
    assert report.agents == ["dev", "main", "ops", "sandbox"]
    assert report.pairs_checked == 12
    assert report.notes_checked == 18
    assert report.sampled == []
    for finding in report.findings:
        assert finding.severity == SEVERITY_OF[finding.kind]


def test_each_finding_says_the_path_and_how_sure(planted: MemoryEngine) -> None:
    report = planted.leaks()
    by = {(f.kind, f.to_agent, f.notes[0]): f for f in report.findings}
    copied = by[("content-copied", "dev", C_COPY)]
    assert (copied.path, copied.certainty) == ("search", "likely")
    assert "run of 27 words" in copied.why
    near = by[("content-copied", "main", C_NEAR)]
    assert near.certainty == "likely" and "cosine 0.97" in near.why
    assert near_cosine(planted) >= 0.95  # the plant itself: near-verbatim by the model
    secret = by[("secret", "main", C_SECRET)]
    assert secret.secret_type == "AWS Access Key"
    assert "AKIA" not in secret.why  # the kind of secret, never its value
    assert "AKIA" not in report.model_dump_json()


def test_severity_gates_the_exit_status(planted: MemoryEngine) -> None:
    report = planted.leaks()
    assert report.counts() == {"leak": 9, "warning": 3, "info": 2}
    assert report.exit_code() == 1
    assert report.exit_code("warning") == 1
    only_info = report.model_copy(
        update={"findings": [f for f in report.findings if f.severity == "info"]}
    )
    assert only_info.exit_code() == 0
    assert only_info.exit_code("info") == 1


def test_fixing_the_store_clears_the_findings(planted: MemoryEngine) -> None:
    main, dev = planted.agent("main"), planted.agent("dev")
    main.unpublish(C_COPY)
    dev.delete(C_SECRET)
    left = {
        (kind, to)
        for kind, _, to, notes in found(planted.leaks())
        if notes[0] in (C_COPY, C_SECRET)
    }
    assert left == set()


def test_the_audit_loads_no_check_or_what_if_module() -> None:
    code = (
        "import sys; from amem_tui.engine.isolation import audit_store; "
        "print(sorted(m for m in sys.modules if m.startswith('amem_tui.engine.isolation.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = {m.rsplit(".", 1)[-1] for m in ast.literal_eval(out.stdout)}
    assert "leaks" in loaded
    assert loaded.isdisjoint({"checkfile", "checks", "history", "overlay", "whatif"})
