"""Keyword matching as openclaw-amem does it: its tokens and an Okapi BM25 index.

openclaw-amem lowercases and takes ASCII word runs (a JavaScript ``\\w``), and scores
with BM25 (k1 1.5, b 0.75) over content, keywords and tags (not ``context``); the same
rules here make the keyword matches the ones the agent's own search finds. (Text with
Chinese characters is cut by a segmenter there; here it is taken as word runs.)
"""

from __future__ import annotations

import re

from amem_tui.engine.models import MemoryNote

BM25_K1 = 1.5
BM25_B = 0.75

_WORD = re.compile(r"\w+", re.ASCII)


def tokenize(text: str) -> list[str]:
    """BM25 tokens: lowercased ASCII word runs."""
    return _WORD.findall(text.lower())


def searchable_text(note: MemoryNote) -> str:
    """The text BM25 indexes, as openclaw-amem's ``buildBM25`` joins it: content,
    keywords and tags."""
    return " ".join([note.content, *note.keywords, *note.tags])
