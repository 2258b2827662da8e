"""Which packages the distribution holds; everything else is in pyproject.toml.

Setuptools cannot express this part in pyproject.toml alone: the package list comes
from discovery (``amem_tui`` and every subpackage, found anew at each build), plus one
data package that lives outside ``amem_tui/``. The bundled Textual themes stay in the
repository's top-level ``themes/`` folder, where the project documents them, and the
distribution installs that folder as the package ``amem_tui.themes``, so a wheel, a
regular install and an editable install all read them with ``importlib.resources``.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["amem_tui", "amem_tui.*"]), "amem_tui.themes"],
    package_dir={"amem_tui.themes": "themes"},
)
