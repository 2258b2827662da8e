"""A model whose every query is one unit vector, and stored vectors at a chosen cosine
to it: a test decides each note's rank by meaning exactly."""

from __future__ import annotations

import math
import uuid
from collections.abc import Sequence

import numpy as np

from amem_tui.engine import MemoryEngine
from amem_tui.engine.models import MemoryNote

QUERY_VECTOR = np.array([1.0, 0.0, 0.0, 0.0], dtype=np.float32)


class FixedEmbedder:
    """Every query is the same unit vector, so dense ranks follow the stored vectors."""

    model_name = "amem-test/fixed"
    dim = 4
    loaded = True

    def load(self) -> None:
        """Nothing to load."""

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.tile(QUERY_VECTOR, (len(texts), 1))

    def embed_query(self, text: str) -> np.ndarray:
        return QUERY_VECTOR.copy()


def at_cosine(c: float) -> list[float]:
    """A unit vector whose cosine to the query is ``c``."""
    return [c, math.sqrt(1 - c * c), 0.0, 0.0]


def put_word_ranked(engine: MemoryEngine, agent: str, first_id: int = 200) -> list[str]:
    """60 private notes of ``agent`` ranked by meaning (cosine 0.95 down by 0.01), the
    word "zanzibar" only in those ranked 31st to 36th: the limit of a search decides whether
    those are among its dense candidates. Returns the ids, in meaning order."""
    ids = [str(uuid.UUID(int=first_id + i)) for i in range(60)]
    notes = [
        MemoryNote(
            id=note_id,
            content=f"{'zanzibar' if 30 <= i < 36 else 'filler'} {i}",
            agent_id=agent,
            owner=agent,
            readers=[agent],
            writers=[agent],
        )
        for i, note_id in enumerate(ids)
    ]
    engine.put_notes("amem_notes", notes, [at_cosine(0.95 - i * 0.01) for i in range(60)])
    return ids
