"""The collections amem-tui keeps beside a collection of notes: never notes themselves.

Each is named after the collection it serves, so a second machine on the same Qdrant
server finds it, and neither openclaw-amem nor the mem0 plugin ever reads it (they
read only the collection of notes they are configured with).
"""

from __future__ import annotations

#: The consolidation run log of ``<collection>`` (runs, merges, the nightly pass's lock).
RUNS_SUFFIX = "__amem_runs"
#: The versions of the notes of ``<collection>``, one point per change.
VERSIONS_SUFFIX = "__amem_versions"
_SUFFIXES = (RUNS_SUFFIX, VERSIONS_SUFFIX)


def is_own_bookkeeping(name: str) -> bool:
    """True for a collection amem-tui keeps beside a collection of notes."""
    return name.endswith(_SUFFIXES)
