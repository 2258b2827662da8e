"""Token vectors to one unit vector, as Transformers.js' ``feature-extraction`` pipeline
pools them: the first token (``cls``) or the mean over the attention mask (``mean``),
then L2 normalisation."""

from __future__ import annotations

import numpy as np

from amem_tui.engine.embedding.recipe import Pooling


def pool(hidden: np.ndarray, mask: np.ndarray, mode: Pooling) -> np.ndarray:
    """One vector per row of ``hidden`` (batch, tokens, dims), L2-normalised."""
    states = hidden.astype(np.float64)
    if mode == "cls":
        pooled = states[:, 0, :]
    else:
        weights = mask.astype(np.float64)[:, :, None]
        pooled = (states * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
    return normalise(pooled).astype(np.float32)


def normalise(rows: np.ndarray) -> np.ndarray:
    """Each row divided by its L2 norm (a zero row stays zero)."""
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    out: np.ndarray = rows / np.where(norms == 0, 1.0, norms)
    return out
