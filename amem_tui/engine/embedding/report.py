"""How a collection's queries are embedded here, and how close that is to the agent's.

``exact``: the agent's own model files, pooling and weights (openclaw-amem), the
agent's own embedder (the mem0 plugin's endpoint), or amem-tui's model for the
collections amem-tui builds. ``approximate``: the same model in another build (the
int8 all-MiniLM-L6-v2 amem-tui ships for a collection openclaw-amem built from
Transformers.js' files, a fastembed copy of the agent's model): similarities differ
slightly from the agent's. ``words only``: no way to embed like the agent here, so
searches rank by keywords, and ``reason`` says why and what would fix it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Verdict = Literal["exact", "approximate", "words only"]


class QueryEmbedding(BaseModel):
    """What embeds a collection's queries, from where, and whether searches are exact."""

    collection: str
    #: The model that built the collection's vectors, and where that was learnt.
    model: str | None = None
    model_source: str = "none"
    verdict: Verdict = "words only"
    #: Why, in one sentence (what to do, when it is words only).
    reason: str = ""
    #: What embeds the queries: ``onnxruntime``, ``fastembed``, the plugin's provider.
    runtime: str | None = None
    #: openclaw-amem's pooling and weights file, and where each choice came from.
    pooling: str | None = None
    pooling_source: str | None = None
    weights: str | None = None
    dtype: str | None = None
    dtype_source: str | None = None
    #: The model folder used, and the place it was found in (``AMEM_MODEL_DIR``...).
    folder: str | None = None
    found_in: str | None = None
    #: The mem0 plugin's endpoint (credentials masked) and where its key was read.
    endpoint: str | None = None
    key_source: str | None = None
    #: Every place looked in for the model's files, with what each lacked.
    looked_in: list[str] = Field(default_factory=list)

    @property
    def exact(self) -> bool:
        """True when queries are embedded exactly as the agent embeds them."""
        return self.verdict == "exact"

    @property
    def by_meaning(self) -> bool:
        """True when searches can rank by meaning at all."""
        return self.verdict != "words only"
