"""Folders the tests need: the repository root and the shared model cache."""

from __future__ import annotations

from pathlib import Path

#: The repository checkout (the CLI runs from here in a subprocess).
REPO_ROOT = Path(__file__).resolve().parents[2]

#: The assembled embedding model folder, shared between tests (it is only a cache).
MODEL_CACHE = REPO_ROOT / ".pytest_cache" / "amem"
