"""Docstrings and docs are read as they are written: no Sphinx roles, and a short
performance page.

Nothing renders a role such as ``:func:`name``` (there is no API page), so a reader
would see its markup: a name is written as a plain code span instead, double
backticks in a docstring, single ones in Markdown.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHECKED = ("amem_tui", "tests", "bench", "scripts", "docs")
ROLE = re.compile(r":(?:py:)?(?:func|class|mod|meth|attr|data|obj|exc|const|ref):`")


def checked_files() -> list[Path]:
    """Every Python and Markdown file of the project's own."""
    files = list(REPO.glob("*.md"))
    for top in CHECKED:
        files += [p for p in (REPO / top).rglob("*") if p.suffix in (".py", ".md")]
    return sorted(p for p in files if "node_modules" not in p.parts and p.is_file())


def test_no_sphinx_role_in_docstrings_or_docs() -> None:
    found = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in checked_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if ROLE.search(line) and path.name != Path(__file__).name
    ]
    assert not found, "Sphinx roles (write a plain code span):\n" + "\n".join(found)


def test_performance_page_holds_todays_figures_only() -> None:
    """docs/performance.md keeps today's figures with their commands, not the rounds
    that led to them (git keeps those): it stays short enough to read."""
    lines = (REPO / "docs" / "performance.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, f"docs/performance.md has {len(lines)} lines (at most 250)"
