"""A model whose every query is one unit vector, and stored vectors at a chosen cosine
to it: a test decides each note's rank by meaning exactly."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

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
