"""Write the bench corpus as an ``amem-tui export`` file, so stores are built through
``amem-tui import`` exactly as a user would load a big store.

Usage: python bench/export_corpus.py SIZE OUT.jsonl
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402

MODEL = "sentence-transformers/all-MiniLM-L6-v2"


def main() -> None:
    size, out = int(sys.argv[1]), Path(sys.argv[2])
    data = corpus.load(size)
    with out.open("w", encoding="utf-8") as handle:
        for i in range(size):
            record = {
                "id": data.ids[i],
                "payload": corpus.note_payload(data, i),
                "vector": [round(float(x), 7) for x in data.vectors[i]],
                "model": MODEL,
            }
            handle.write(json.dumps(record, separators=(",", ":")) + "\n")
    print(f"{size} notes written to {out}")


if __name__ == "__main__":
    main()
