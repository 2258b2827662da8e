"""The scoped memory engine: a library with no UI dependencies.

Public names are imported lazily so that submodules (errors, scope) can be
used by the settings module without loading the whole engine.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "MemoryEngine": "amem_tui.engine.engine",
    "open_store": "amem_tui.engine.engine",
    "AmemError": "amem_tui.engine.errors",
    "ConfigError": "amem_tui.engine.errors",
    "InvalidInput": "amem_tui.engine.errors",
    "ModelMismatch": "amem_tui.engine.errors",
    "ModelUnavailable": "amem_tui.engine.errors",
    "NotFound": "amem_tui.engine.errors",
    "PermissionDenied": "amem_tui.engine.errors",
    "ReadOnlyStore": "amem_tui.engine.errors",
    "SearchStopped": "amem_tui.engine.errors",
    "StoreLocked": "amem_tui.engine.errors",
    "StoreUnavailable": "amem_tui.engine.errors",
    "MemoryNote": "amem_tui.engine.models",
    "NotePage": "amem_tui.engine.models",
    "SearchHit": "amem_tui.engine.models",
    "SearchResult": "amem_tui.engine.models",
    "AgentScope": "amem_tui.engine.scope",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'amem_tui.engine' has no attribute {name!r}")
