"""The engine package's public names: each typed for the type checker and found at run
time, the same object either way, and importing the package loads none of them."""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys

import amem_tui.engine as engine_package


def typed_names() -> dict[str, tuple[str, str]]:
    """What the package's ``if TYPE_CHECKING:`` block imports: name -> (module, name)."""
    tree = ast.parse(inspect.getsource(engine_package))
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
    )
    out: dict[str, tuple[str, str]] = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names:
            out[alias.asname or alias.name] = (node.module, alias.name)
    return out


def test_every_public_name_is_typed_and_found_at_run_time() -> None:
    typed = typed_names()
    assert sorted(typed) == sorted(engine_package.__all__)
    for name, (module, attr) in typed.items():
        assert getattr(engine_package, name) is getattr(importlib.import_module(module), attr)


def test_importing_the_package_loads_no_engine_module() -> None:
    code = (
        "import sys, amem_tui.engine; "
        "print(sorted(m for m in sys.modules if m.startswith('amem_tui.engine.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
