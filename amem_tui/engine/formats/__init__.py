"""Payload formats of the stores amem_tui reads: one module per foreign format.

openclaw-amem points are notes already (``MemoryNote``
reads them; ``openclaw`` builds them). mem0 points carry the memory text in
``data`` and the agent inside ``user_id``; ``mem0`` maps them onto read-only
note views, so the same panes, listings and searches work on them. Nothing here
touches a store.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from amem_tui.engine.formats.mem0 import mem0_note
from amem_tui.engine.models import MemoryNote

PayloadFormat = Literal["amem", "mem0"]


def payload_format(payload: Mapping[str, Any]) -> PayloadFormat | None:
    """``mem0`` for a point with ``data`` and no ``content``, ``amem`` with ``content``."""
    if "content" in payload:
        return "amem"
    if "data" in payload:
        return "mem0"
    return None


def detect_format(payloads: Iterable[Mapping[str, Any]]) -> PayloadFormat:
    """The format of a collection from a sample of its payloads.

    A collection is mem0 only when its points look like mem0 and none looks like
    an openclaw-amem note; anything else (including an empty collection) is read
    as openclaw-amem, where a point without content is simply malformed.
    """
    seen = {payload_format(p) for p in payloads}
    if "mem0" in seen and "amem" not in seen:
        return "mem0"
    return "amem"


def note_view(
    fmt: PayloadFormat, point_id: str | int, payload: Mapping[str, Any] | None
) -> MemoryNote:
    """The note a point of a collection in format ``fmt`` reads as."""
    if fmt == "mem0":
        return mem0_note(point_id, payload)
    return MemoryNote.from_payload(point_id, dict(payload or {}))
