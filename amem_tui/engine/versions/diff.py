"""Word-level differences between two texts, for showing what a version changed."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Literal

# Words and single other characters, each with the white space after it (and any
# leading white space alone): joining the tokens gives the text back exactly, so a
# diff never loses a space or a line break, and a space alone never counts as kept.
_TOKEN = re.compile(r"\w+\s*|[^\w\s]\s*|\s+", re.UNICODE)

DiffKind = Literal["same", "added", "removed"]


@dataclass(frozen=True)
class DiffPart:
    """A run of text that both versions hold (``same``), or only the old or new one."""

    kind: DiffKind
    text: str


def tokens(text: str) -> list[str]:
    """``text`` as words, spaces and punctuation, in order."""
    return _TOKEN.findall(text)


def word_diff(before: str, after: str) -> list[DiffPart]:
    """The parts of ``before`` and ``after`` in reading order: what stayed, what went
    (``removed``) and what came (``added``), a removal before the addition that
    replaces it. Neighbouring parts of one kind are joined."""
    old, new = tokens(before), tokens(after)
    parts: list[DiffPart] = []

    def add(kind: DiffKind, words: list[str]) -> None:
        text = "".join(words)
        if not text:
            return
        if parts and parts[-1].kind == kind:
            parts[-1] = DiffPart(kind, parts[-1].text + text)
        else:
            parts.append(DiffPart(kind, text))

    # Matched on the words alone: a word that only gained or lost the space after it
    # (the last word of a text, once more is added after it) is kept, not replaced.
    matcher = difflib.SequenceMatcher(None, _words(old), _words(new), autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            for was, now in zip(old[i1:i2], new[j1:j2], strict=True):
                if was == now:
                    add("same", [was])
                    continue
                word = _word(was)
                add("same", [word])
                add("removed", [was[len(word) :]])
                add("added", [now[len(word) :]])
        else:
            add("removed", old[i1:i2])
            add("added", new[j1:j2])
    return parts


def _word(token: str) -> str:
    return token.rstrip() or token


def _words(tokens: list[str]) -> list[str]:
    return [_word(token) for token in tokens]


def plain_diff(parts: list[DiffPart]) -> str:
    """A diff as plain text: ``[-removed-]`` and ``{+added+}`` marked inline."""
    marks = {"same": ("", ""), "removed": ("[-", "-]"), "added": ("{+", "+}")}
    return "".join(marks[p.kind][0] + p.text + marks[p.kind][1] for p in parts)
