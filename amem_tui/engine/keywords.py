"""Keyword matching as openclaw-amem does it: its tokens and an Okapi BM25 index.

openclaw-amem lowercases and takes ASCII word runs (a JavaScript ``\\w``), and scores
with BM25 (k1 1.5, b 0.75) over content, keywords, tags and context; the same rules
here make the keyword matches the ones the agent's own search finds.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.base import store_order

BM25_K1 = 1.5
BM25_B = 0.75

_WORD = re.compile(r"\w+", re.ASCII)


def tokenize(text: str) -> list[str]:
    """BM25 tokens: lowercased ASCII word runs."""
    return _WORD.findall(text.lower())


def searchable_text(note: MemoryNote) -> str:
    """The text BM25 indexes: content, keywords, tags and context."""
    return " ".join([note.content, *note.keywords, *note.tags, note.context])


@dataclass
class BM25Index:
    """Okapi BM25 over a fixed list of documents, with precomputed per-term gains.

    Each posting holds the gain one term adds to one document, so a query is a few
    array additions instead of a Python loop over every posting.
    """

    ids: list[str]
    #: term -> (document positions, the term's BM25 gain in each of those documents)
    postings: dict[str, tuple[np.ndarray, np.ndarray]]
    #: Each document's place in the store's id order, which breaks ties in scores.
    tie_order: np.ndarray

    @classmethod
    def build(cls, ids: Sequence[str], docs: Sequence[Sequence[str]]) -> BM25Index:
        """Index ``docs`` (token lists) under ``ids``."""
        per_term: dict[str, tuple[list[int], list[int]]] = {}
        for position, doc in enumerate(docs):
            for term, freq in Counter(doc).items():
                entry = per_term.get(term)
                if entry is None:
                    entry = per_term[term] = ([], [])
                entry[0].append(position)
                entry[1].append(freq)
        count = len(docs)
        lengths = np.array([len(doc) for doc in docs], dtype=np.float64)
        avgdl = (sum(len(doc) for doc in docs) / count if count else 0.0) or 1.0
        norm = BM25_K1 * (1 - BM25_B + BM25_B * lengths / avgdl)
        postings: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for term, (positions, freqs) in per_term.items():
            where = np.array(positions, dtype=np.int64)
            frequency = np.array(freqs, dtype=np.float64)
            # The "+1" idf stays positive even for a term in every document.
            idf = math.log((count - len(positions) + 0.5) / (len(positions) + 0.5) + 1.0)
            gain = idf * frequency * (BM25_K1 + 1) / (frequency + norm[where])
            postings[term] = (where, gain)
        ordered = sorted(range(count), key=lambda position: store_order(ids[position]))
        tie_order = np.empty(count, dtype=np.int64)
        tie_order[ordered] = np.arange(count)
        return cls(list(ids), postings, tie_order)

    def rank(
        self, query_tokens: Sequence[str], limit: int | None = None
    ) -> list[tuple[str, float]]:
        """Documents containing a query term, best first (ties in the store's id order).

        A query term given twice counts twice, as in openclaw-amem. ``limit`` keeps
        only the best ones (ties at the cut are broken the same way).
        """
        scores = np.zeros(len(self.ids), dtype=np.float64)
        for term in query_tokens:
            posting = self.postings.get(term)
            if posting is not None:
                scores[posting[0]] += posting[1]  # positions are unique within a term
        candidates = np.flatnonzero(scores > 0)
        if limit is not None and len(candidates) > limit:
            values = scores[candidates]
            cut = np.partition(values, len(values) - limit)[len(values) - limit]
            candidates = candidates[values >= cut]
        ties = self.tie_order[candidates]
        order = candidates[np.lexsort((ties, -scores[candidates]))][:limit]
        return [(self.ids[p], float(scores[p])) for p in order.tolist()]
