"""Explaining a hit in one line: how it ranked, and why the agent may see it."""

from __future__ import annotations

from amem_tui.engine.search_results import SearchHit, SearchResult, VisibleBecause

#: Why a hit is visible, in words (see ``amem_tui.engine.scope.visible_because``).
BECAUSE: dict[VisibleBecause, str] = {
    "private": "its own private note",
    "shared": "a shared note",
    "collection": "the note is in its Mode B collection",
}


def explain_hit(hit: SearchHit) -> str:
    """One line saying how a hit ranked and why the agent may see it, in the numbers'
    own names: openclaw-amem's ``similarity``, ``rrf`` (heat boost included) and ``via``."""
    if hit.explanation is not None:  # another system's ranking, in its own terms
        return hit.explanation
    parts: list[str] = []
    if hit.via == "link":
        hops = f"{hit.hop} hop{'s' if hit.hop != 1 else ''}"
        parts.append(f"via link from {hit.via_note} ({hops}; no rrf of its own)")
    else:
        parts.append("via match")
    if hit.similarity is not None:
        rank = f" (dense #{hit.dense_rank})" if hit.dense_rank else ""
        parts.append(f"similarity {hit.similarity:.3f}{rank}")
    if hit.bm25_rank is not None:
        parts.append(f"BM25 #{hit.bm25_rank} ({hit.bm25_score or 0:.2f})")
    elif hit.rrf is not None:
        parts.append("no keyword match")
    if hit.rrf is not None:
        heat = hit.boost or 1.0
        if abs(heat - 1.0) >= 5e-4 and hit.fused is not None:
            parts.append(f"rrf {hit.rrf:.4f} (fused {hit.fused:.4f} x heat {heat:.3f})")
        else:
            parts.append(f"rrf {hit.rrf:.4f}")
    parts.append(f"visible: {BECAUSE[hit.because]}")
    return "; ".join(parts)


def hit_ids(result: SearchResult) -> list[str]:
    """The ids of a result's hits, in order (a convenience for scripts and tests)."""
    return [hit.note.id for hit in result.hits]
