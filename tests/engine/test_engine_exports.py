"""The engine's public names: a small library surface (amem_tui.engine) and what the
apps need beyond it (amem_tui.engine.for_apps), each name written once, typed for the
type checker, found at run time as the same object, and loaded only on first use."""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys
from types import ModuleType

import pytest

import amem_tui.engine as library
import amem_tui.engine.for_apps as for_apps
from amem_tui.lazy_exports import typed_imports

EXPORTERS = [library, for_apps]
#: The most names the library surface may export.
LIBRARY_NAMES = 40


@pytest.mark.parametrize("package", EXPORTERS, ids=lambda p: p.__name__)
def test_every_typed_name_is_found_at_run_time(package: ModuleType) -> None:
    typed = typed_imports(inspect.getsource(package), package.__name__)
    assert sorted(typed) == package.__all__
    assert sorted(typed) == [name for name in dir(package) if name in typed]
    for name, (module, attr) in typed.items():
        assert getattr(package, name) is getattr(importlib.import_module(module), attr)


@pytest.mark.parametrize("package", EXPORTERS, ids=lambda p: p.__name__)
def test_an_unknown_name_is_an_attribute_error(package: ModuleType) -> None:
    with pytest.raises(AttributeError, match="no attribute 'CollectionService'"):
        _ = package.CollectionService


def test_the_library_surface_is_small_and_apart_from_the_apps_names() -> None:
    assert len(library.__all__) <= LIBRARY_NAMES
    assert not set(library.__all__) & set(for_apps.__all__)
    assert {"MemoryEngine", "AgentView", "AgentScope", "MemoryNote", "AmemError"} <= set(
        library.__all__
    )


@pytest.mark.parametrize("package", ["amem_tui.engine", "amem_tui.engine.for_apps"])
def test_importing_an_export_module_loads_no_engine_module(package: str) -> None:
    code = (
        f"import sys, {package}; "
        "print(sorted(m for m in sys.modules if m.startswith('amem_tui.engine.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = [m for m in ast.literal_eval(out.stdout) if m != package]
    assert loaded == []


def test_the_export_list_is_the_type_checking_imports_only() -> None:
    with pytest.raises(ValueError, match="only imports"):
        typed_imports("if TYPE_CHECKING:\n    x = 1\n", "pkg")
    with pytest.raises(ValueError, match="absolute"):
        typed_imports("if TYPE_CHECKING:\n    from .a import b\n", "pkg")
    assert typed_imports("if TYPE_CHECKING:\n    from a.b import c as d, e\n", "pkg") == {
        "d": ("a.b", "c"),
        "e": ("a.b", "e"),
    }
