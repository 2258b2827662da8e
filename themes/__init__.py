"""The Textual themes that ship with amem-tui, one TOML file each.

Installed as the data package ``amem_tui.themes`` (pyproject.toml maps it onto this folder);
``amem_tui.tui.themes`` reads the files from there with ``importlib.resources``.
"""
