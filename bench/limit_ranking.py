"""How often the limit of a search changes which notes come first.

openclaw-amem fuses ``max(4 x limit, 20)`` dense candidates with as many keyword
ones, so its ranking depends on the limit asked for: the first ``--top`` notes of a
search for ``--wide`` matches are not always the ``--top`` notes a search for
``--top`` returns. This counts, over the bench corpus's queries, the searches where
they differ (the agent's own default is memory_search's 5; the search box asked for
40 before it asked for the agent's own).

Usage: python bench/limit_ranking.py --store FOLDER --notes N [--agent main]
    [--queries 33] [--top 5] [--wide 40]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import corpus  # noqa: E402

from amem_tui.config import Settings  # noqa: E402
from amem_tui.engine import MemoryEngine  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--notes", type=int, required=True, help="the corpus size the store holds")
    parser.add_argument("--agent", default="main")
    parser.add_argument("--queries", type=int, default=33)
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--wide", type=int, default=40)
    args = parser.parse_args()
    queries = corpus.generate(args.notes).queries[: args.queries]
    differ = 0
    with MemoryEngine(Settings(store_path=Path(args.store))) as engine:
        view = engine.agent(args.agent)
        for query in queries:
            own = [hit.note.id for hit in view.search(query, limit=args.top, exact=True).hits]
            wide = view.search(query, limit=args.wide, exact=True).hits[: len(own)]
            changed = len(set(own) - {hit.note.id for hit in wide})
            if changed:
                differ += 1
                print(f"{changed} of {len(own)} differ: {query}")
    print(
        f"{differ} of {len(queries)} queries: the first {args.top} of a search for "
        f"{args.wide} are not the {args.top} a search for {args.top} returns"
    )


if __name__ == "__main__":
    main()
