"""The built wheel holds the bundled themes and the model's tokenizer files, and an
installed amem-tui reads its own.

The wheel is built from a copy of the files a clean clone has (never from the working
tree itself, which a build would write into), without build isolation so that no
package index is needed; tests/packaging needs setuptools from the test extras.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from amem_tui.engine.embed import TOKENIZER_FILES
from amem_tui.tui.themes import BUNDLED_THEMES
from tests.support.paths import REPO_ROOT

#: What a build reads: the metadata (with the package list) and the two package folders.
SOURCES = ("pyproject.toml", "README.md", "amem_tui", "themes")

#: The test venv's pip, quiet (each command also gets --no-index: nothing is downloaded).
PIP = (sys.executable, "-m", "pip", "--quiet", "--no-input")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from a copy of the sources."""
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        origin = REPO_ROOT / name
        if origin.is_dir():
            shutil.copytree(origin, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(origin, source / name)
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run(
        [
            *PIP,
            "wheel",
            "--no-index",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(out),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    (built,) = out.glob("amem_tui-*.whl")
    return built


def test_the_wheel_holds_the_bundled_themes_inside_the_package(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for theme in BUNDLED_THEMES:
        assert f"amem_tui/themes/{theme}.toml" in names
    assert "amem_tui/themes/__init__.py" in names
    assert not any(name.startswith("themes/") for name in names)  # nothing outside amem_tui/
    assert "amem_tui/tui/app.tcss" in names and "amem_tui/py.typed" in names


def test_the_wheel_holds_the_models_tokenizer_files_with_their_license(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    folder = "amem_tui/engine/all-MiniLM-L6-v2"
    for name in (*TOKENIZER_FILES, "LICENSE", "NOTICE"):
        assert f"{folder}/{name}" in names


def test_the_wheel_holds_every_module_of_the_package(wheel: Path) -> None:
    # pyproject.toml lists the packages by hand: a new subpackage left out of that list
    # would work in an editable install and be missing from every wheel.
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = sorted(
        path.relative_to(REPO_ROOT).as_posix()
        for path in (REPO_ROOT / "amem_tui").rglob("*.py")
        if "__pycache__" not in path.parts
    )
    missing = [module for module in modules if module not in names]
    assert modules and not missing, f"add their packages to pyproject.toml: {missing}"


# Runs in the fresh venv, from a folder outside the checkout: which amem_tui it imported,
# where its themes and the model's files came from, and the default theme loaded by name.
CHECK = """
import json, amem_tui
from amem_tui.engine.embed import packaged_model_files
from amem_tui.tui.themes import bundled_theme, bundled_theme_dir
theme = bundled_theme("amem-dark")
print(json.dumps({"package": amem_tui.__file__, "themes": str(bundled_theme_dir()),
                  "tokenizer": str(packaged_model_files()[1]),
                  "name": theme.name, "dark": theme.dark}))
"""


def test_an_installed_wheel_reads_its_own_files(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(target)
    python = target / "bin" / "python"
    install = subprocess.run(
        [*PIP, "--python", str(python), "install", "--no-index", "--no-deps", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    # The dependencies (textual, pydantic, ...) come from the test venv, after the
    # fresh venv's own site-packages: the amem_tui imported is the one just installed.
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "test-venv-dependencies.pth").write_text(sysconfig.get_paths()["purelib"])
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    check = subprocess.run(
        [str(python), "-I", "-c", CHECK],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert check.returncode == 0, check.stderr
    seen = json.loads(check.stdout)
    assert Path(seen["package"]).is_relative_to(target)
    assert Path(seen["themes"]).is_relative_to(target)
    assert Path(seen["tokenizer"]).is_relative_to(target)
    assert (seen["name"], seen["dark"]) == ("amem-dark", True)
