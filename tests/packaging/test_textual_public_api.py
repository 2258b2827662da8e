"""amem_tui and its tests use Textual's public API only.

A Textual upgrade must not turn into a rewrite: nothing imports one of Textual's private
modules (``textual._compositor``, ``textual.widgets._data_table``, ...) or a private name
of a Textual module, and nothing uses, sets or overrides an underscored member of a
Textual class or object. Read from the source (the AST):

- a class that derives from a Textual class may not define, read or assign ``self._x``
  (or ``super()._x``, or ``cls._x``) where one of its Textual bases defines ``_x``;
- any other ``obj._x``, and ``getattr(obj, "_x")``, is taken for a Textual member when
  ``_x`` is a name Textual's classes define and no class of the project's own (one not
  derived from Textual) defines it.

The import-linter contract "Textual's public API only" in pyproject.toml says the
first rule for amem_tui/ too.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
import textual

REPO = Path(__file__).resolve().parents[2]
CHECKED = ("amem_tui", "tests")
TEXTUAL = Path(textual.__file__).resolve().parent


def private(name: str) -> bool:
    """An underscored name, not a dunder (nor ``_`` alone)."""
    return (
        name.startswith("_") and name != "_" and not (name.startswith("__") and name.endswith("__"))
    )


def defined_members(node: ast.ClassDef) -> set[str]:
    """The underscored names a class body defines, assigns on ``self``/``cls`` or reads
    from them: its own members, as its code knows them."""
    names: set[str] = set()
    for statement in node.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(statement.name)
        targets: list[ast.expr] = []
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)):
            targets = [statement.target]
        names.update(t.id for t in targets if isinstance(t, ast.Name))
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
            names.update([sub.attr] if sub.value.id in ("self", "cls") else [])
    return {name for name in names if private(name)}


@cache
def textual_members() -> dict[tuple[str, str], frozenset[str]]:
    """Each Textual class (module, qualified name): the underscored names it defines."""
    found: dict[tuple[str, str], frozenset[str]] = {}
    for path in TEXTUAL.rglob("*.py"):
        module = ".".join(("textual", *path.relative_to(TEXTUAL).with_suffix("").parts))
        module = module.removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                found[(module, node.name)] = frozenset(defined_members(node))
    return found


@cache
def all_textual_members() -> frozenset[str]:
    return frozenset().union(*textual_members().values())


def textual_bases_members(cls: type) -> frozenset[str]:
    """The underscored names the Textual classes in ``cls``'s MRO define."""
    names: set[str] = set()
    for base in cls.__mro__:
        module = getattr(base, "__module__", "") or ""
        if module == "textual" or module.startswith("textual."):
            names |= textual_members().get((module, base.__qualname__), frozenset())
            names |= {name for name in vars(base) if private(name)}
    return frozenset(names)


@dataclass
class Source:
    path: Path
    tree: ast.Module

    @property
    def where(self) -> str:
        return str(self.path.relative_to(REPO))


@cache
def sources() -> tuple[Source, ...]:
    """Every module of amem_tui/ and tests/, parsed."""
    found = []
    for folder in CHECKED:
        for path in sorted((REPO / folder).rglob("*.py")):
            if "__snapshots__" not in path.parts:
                tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
                found.append(Source(path, tree))
    return tuple(found)


def textual_module(name: str) -> bool:
    return name == "textual" or name.startswith("textual.")


def private_imports(source: Source) -> Iterator[str]:
    """Imports of a private Textual module, or of a private name of a Textual module."""
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if textual_module(alias.name) and any(map(private, alias.name.split("."))):
                    yield f"{source.where}:{node.lineno}: import {alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.module and textual_module(node.module):
            if any(map(private, node.module.split("."))):
                yield f"{source.where}:{node.lineno}: from {node.module} import ..."
            for alias in node.names:
                if private(alias.name):
                    yield f"{source.where}:{node.lineno}: from {node.module} import {alias.name}"


class Resolver:
    """Finds the class a base-class expression names, through the module's imports and
    its own classes (so a test's subclass of a project widget is known as one)."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.imported: dict[str, str] = {}  # local name -> "module:attribute" or "module"
        self.local: dict[str, ast.ClassDef] = {}
        for node in ast.walk(source.tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    self.imported[alias.asname or alias.name] = f"{node.module}:{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    self.imported[alias.asname or alias.name.split(".")[0]] = (
                        alias.name if alias.asname else alias.name.split(".")[0]
                    )
            elif isinstance(node, ast.ClassDef):
                self.local.setdefault(node.name, node)

    def classes(self, expression: ast.expr, seen: frozenset[str] = frozenset()) -> list[type]:
        """The run-time classes behind a base expression (a local class: its bases')."""
        if isinstance(expression, ast.Subscript):  # DataTable[Text]
            return self.classes(expression.value, seen)
        if isinstance(expression, ast.Name):
            if expression.id in self.local and expression.id not in seen:
                node = self.local[expression.id]
                found: list[type] = []
                for base in node.bases:
                    found += self.classes(base, seen | {expression.id})
                return found
            target = self.imported.get(expression.id)
            if target is None:
                value = getattr(builtins, expression.id, None)
                return [value] if isinstance(value, type) else []
            return self._load(target)
        if isinstance(expression, ast.Attribute) and isinstance(expression.value, ast.Name):
            target = self.imported.get(expression.value.id)
            if target is not None:
                value = self._value(target)
                found = getattr(value, expression.attr, None)
                return [found] if isinstance(found, type) else []
        return []

    def _load(self, target: str) -> list[type]:
        value = self._value(target)
        return [value] if isinstance(value, type) else []

    @staticmethod
    def _value(target: str) -> object:
        """What ``module`` or ``module:attribute`` names (None if it cannot be loaded)."""
        module, _, attribute = target.partition(":")
        try:
            value: object = importlib.import_module(module)
        except ImportError:
            return None
        if attribute:
            try:
                return importlib.import_module(f"{module}.{attribute}")
            except ImportError:
                return getattr(value, attribute, None)
        return value


def receiver_is_own(node: ast.Attribute) -> bool:
    """``self._x``, ``cls._x`` or ``super()._x``: the class's own member."""
    value = node.value
    if isinstance(value, ast.Name):
        return value.id in ("self", "cls")
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "super"
    )


def string_attribute(node: ast.Call) -> str | None:
    """``getattr(obj, "_x")`` (and setattr, hasattr, delattr): the name, if private."""
    if not (isinstance(node.func, ast.Name) and node.func.id in ("getattr", "setattr", "hasattr")):
        return None
    if len(node.args) < 2:
        return None
    name = node.args[1]
    if isinstance(name, ast.Constant) and isinstance(name.value, str) and private(name.value):
        return name.value
    return None


def project_own_members() -> frozenset[str]:
    """Underscored names defined by the project's classes that Textual does not derive."""
    names: set[str] = set()
    for source in sources():
        resolver = Resolver(source)
        for node in ast.walk(source.tree):
            if isinstance(node, ast.ClassDef) and not textual_ancestry(resolver, node):
                names |= defined_members(node)
    return frozenset(names)


def textual_ancestry(resolver: Resolver, node: ast.ClassDef) -> frozenset[str]:
    """The underscored names the Textual classes a class derives from define."""
    names: set[str] = set()
    for base in node.bases:
        for cls in resolver.classes(base):
            names |= textual_bases_members(cls)
    return frozenset(names)


def member_uses(source: Source, own: frozenset[str]) -> Iterator[str]:
    """Underscored Textual members used, set or overridden in ``source``."""
    resolver = Resolver(source)
    textual_names = all_textual_members()
    inside: dict[int, frozenset[str]] = {}  # node id -> the Textual names its class inherits
    for node in ast.walk(source.tree):
        if isinstance(node, ast.ClassDef):
            inherited = textual_ancestry(resolver, node)
            if not inherited:
                continue
            for name in defined_members(node) & inherited:
                overridden = any(
                    isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == name
                    for s in node.body
                )
                what = "overrides" if overridden else "uses"
                yield f"{source.where}:{node.lineno}: class {node.name} {what} Textual's {name}"
            for sub in ast.walk(node):
                inside[id(sub)] = inherited
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            if receiver_is_own(node):
                if not isinstance(node.value, ast.Name) and node.attr in inside.get(
                    id(node), frozenset()
                ):
                    yield f"{source.where}:{node.lineno}: super().{node.attr}"
                continue
            if node.attr in textual_names and node.attr not in own:
                yield f"{source.where}:{node.lineno}: {ast.unparse(node)}"
        elif isinstance(node, ast.Call):
            name = string_attribute(node)
            if name is not None and name in textual_names and name not in own:
                yield f"{source.where}:{node.lineno}: {ast.unparse(node)}"


def violations() -> list[str]:
    own = project_own_members()
    found: list[str] = []
    for source in sources():
        found += private_imports(source)
        found += member_uses(source, own)
    return sorted(set(found))


def test_only_textuals_public_api_is_used() -> None:
    assert violations() == []


PLANTED = {
    "a private module": "from textual.widgets._footer import FooterKey",
    "a private module, imported whole": "import textual._compositor",
    "a private module, from its package": "from textual.widgets import _data_table",
    "a private name": "from textual.app import _init_mode",
    "an override": """
        from textual.widgets import DataTable
        class T(DataTable):
            def _render_cell(self): ...
    """,
    "an override of a handler": """
        from textual.widgets import Input
        class I(Input):
            async def _on_key(self, event): ...
    """,
    "an override, two classes down": """
        from textual.widgets import Footer
        class F(Footer): ...
        class G(F):
            def _on_mount(self, event): ...
    """,
    "a private reactive read": """
        from textual.widgets import Footer
        class F(Footer):
            def f(self): return self._bindings_ready
    """,
    "a private attribute set": """
        from textual import widgets
        class W(widgets.Static):
            def f(self): self._dirty_regions = None
    """,
    "super()'s private method": """
        from textual.widgets import DataTable
        class T(DataTable):
            def f(self): super()._clear_caches()
    """,
    "another object's private member": """
        def f(app):
            return app.screen._compositor
    """,
    "a private member by name": """
        def f(app):
            return getattr(app, "_keymap", {})
    """,
}


@pytest.mark.parametrize("code", PLANTED.values(), ids=PLANTED.keys())
def test_the_check_finds_each_kind_of_private_use(code: str) -> None:
    source = Source(REPO / "tests" / "planted.py", ast.parse(textwrap.dedent(code)))
    found = [*private_imports(source), *member_uses(source, frozenset())]
    assert found, code


def test_the_projects_own_underscored_names_are_not_taken_for_textuals() -> None:
    code = """
        from textual.widgets import Static
        class Bar(Static):
            def _tick(self): self._timer_of_ours = 1
        class Plain:
            def __init__(self): self._compositor = None
        def f(plain): return plain._compositor
    """
    source = Source(REPO / "tests" / "planted.py", ast.parse(textwrap.dedent(code)))
    own = frozenset({"_compositor"})
    assert [*private_imports(source), *member_uses(source, own)] == []
