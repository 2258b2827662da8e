"""The engine is a library: importing it never loads the UI toolkit, and no module
imports itself back."""

from __future__ import annotations

import subprocess
import sys


def test_engine_import_does_not_load_textual() -> None:
    code = (
        "import sys, amem_tui.engine.engine, amem_tui.engine.scope, amem_tui.config;"
        "import amem_tui.engine as e; e.MemoryEngine;"
        "bad = [m for m in ('textual', 'rich') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_module_imports_itself_back() -> None:
    # A cycle makes the import order matter and hides which module owns what; the
    # layers contract cannot see one inside a layer, so look for any cycle here.
    import grimp

    graph = grimp.build_graph("amem_tui")
    modules = set(graph.modules)
    cycles = sorted(
        (module, other)
        for module in modules
        for other in graph.find_modules_directly_imported_by(module)
        if other in modules
        and other != module
        and graph.chain_exists(importer=other, imported=module)
    )
    assert cycles == []
