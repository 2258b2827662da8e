"""README.md's two commands: the test command is the one CI runs, on the same pins.

A new user copies the README's commands; CI (.ci/run) must install and test exactly as
the second one does, or a green CI says nothing about what the user gets.
"""

from __future__ import annotations

import re
import shlex

from tests.support.paths import REPO_ROOT

README = REPO_ROOT / "README.md"
CI = REPO_ROOT / ".ci" / "run"


def readme_commands() -> list[list[list[str]]]:
    """The README's first two bash blocks, each split into its `&&` steps."""
    blocks = re.findall(r"```bash\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    return [[shlex.split(step) for step in block.strip().split("&&")] for block in blocks[:2]]


def ci_commands() -> list[list[str]]:
    """Every command line of .ci/run, split into words, comments left out."""
    lines = CI.read_text(encoding="utf-8").splitlines()
    return [shlex.split(line) for line in lines if line.strip() and not line.startswith("#")]


def without_quiet(words: list[str]) -> list[str]:
    return [word for word in words if word != "--quiet"]


def test_the_readme_opens_with_an_install_and_demo_command_and_an_install_and_test_one() -> None:
    demo, tests = readme_commands()
    assert demo[0] == tests[0] == ["python3", "-m", "venv", ".venv"]
    assert demo[-1] == [".venv/bin/amem-tui", "demo"]
    assert tests[-1][:3] == [".venv/bin/python", "-m", "pytest"]
    for install in (demo[1], tests[1]):
        assert install[:4] == [".venv/bin/pip", "install", "-c", "constraints.txt"]


def test_ci_installs_and_tests_exactly_as_the_readme_test_command() -> None:
    _, (_, install, pytest) = readme_commands()
    ci = [without_quiet(words) for words in ci_commands()]
    assert install in ci, f"no line of .ci/run installs as README does: {shlex.join(install)}"
    assert pytest in ci, f"no line of .ci/run tests as README does: {shlex.join(pytest)}"
