"""A package's public names, listed once and imported on first use.

A package that uses this lists its public names once, as the imports of its
``if TYPE_CHECKING:`` block: that is what a type checker reads. At run time the block
does not run; instead the package's ``__getattr__`` (PEP 562), made here, reads the
block's imports from the package's source the first time a name is asked for, and
imports that one name's module then. Importing the package therefore loads none of
what it exports, and no second list can drift from the first.

::

    if TYPE_CHECKING:
        from amem_tui.engine.engine import MemoryEngine
    else:
        __getattr__, __dir__ = lazy_exports(globals())
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

#: Each public name: the module that defines it, and its name there.
Exports = dict[str, tuple[str, str]]


def typed_imports(source: str, package: str) -> Exports:
    """The names the ``if TYPE_CHECKING:`` block of ``source`` (a module of ``package``)
    imports, each with its module and its name there."""
    import ast  # here: only the first name asked for pays for it

    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            found: Exports = {}
            for statement in node.body:
                if not isinstance(statement, ast.ImportFrom) or statement.module is None:
                    raise ValueError(f"{package}: its TYPE_CHECKING block holds only imports")
                if statement.level:
                    raise ValueError(f"{package}: its TYPE_CHECKING imports are absolute")
                for alias in statement.names:
                    found[alias.asname or alias.name] = (statement.module, alias.name)
            return found
    raise ValueError(f"{package} has no TYPE_CHECKING block of exports")


def lazy_exports(
    namespace: MutableMapping[str, Any],
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for the module whose ``globals()`` is ``namespace``:
    each name of its ``TYPE_CHECKING`` imports is imported when first asked for, and kept
    in the module, so the next use is a plain lookup. ``__all__`` is every such name."""
    package = str(namespace["__name__"])
    source_file = Path(str(namespace["__file__"]))
    table: Exports | None = None
    lock = threading.Lock()

    def exports() -> Exports:
        nonlocal table
        with lock:
            if table is None:
                table = typed_imports(source_file.read_text(encoding="utf-8"), package)
            return table

    def __getattr__(name: str) -> Any:
        if name == "__all__":
            value: Any = sorted(exports())
        elif name.startswith("__"):  # probes for module attributes (__wrapped__, ...)
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        else:
            try:
                module, original = exports()[name]
            except KeyError:
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
            value = getattr(importlib.import_module(module), original)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *exports()})

    return __getattr__, __dir__
