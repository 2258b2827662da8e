"""The word-level diff the versions show: nothing lost, and changes as a reader sees them."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from amem_tui.engine.for_apps import plain_diff, word_diff


def test_a_changed_word_is_one_removal_and_one_addition() -> None:
    parts = word_diff(
        "The deploy window is Tuesday morning", "The deploy window is Tuesday afternoon"
    )
    assert [(p.kind, p.text) for p in parts] == [
        ("same", "The deploy window is Tuesday "),
        ("removed", "morning"),
        ("added", "afternoon"),
    ]
    assert plain_diff(parts) == "The deploy window is Tuesday [-morning-]{+afternoon+}"


def test_a_rewrite_reads_as_one_block_not_word_by_word() -> None:
    parts = word_diff("The window is Wednesday", "Deploys are frozen now")
    assert [p.kind for p in parts] == ["removed", "added"]


def test_identical_texts_are_one_kept_part() -> None:
    assert [(p.kind, p.text) for p in word_diff("same words", "same words")] == [
        ("same", "same words")
    ]
    assert word_diff("", "") == []


@given(st.text(max_size=60), st.text(max_size=60))
def test_both_texts_come_back_from_the_diff(before: str, after: str) -> None:
    parts = word_diff(before, after)
    assert "".join(p.text for p in parts if p.kind != "added") == before
    assert "".join(p.text for p in parts if p.kind != "removed") == after
    assert all(p.text for p in parts)
    assert all(a.kind != b.kind for a, b in itertools.pairwise(parts))


def test_text_added_after_the_last_word_keeps_that_word() -> None:
    # The last word had no space after it; the new text adds one: only the addition shows.
    assert plain_diff(word_diff("see the example", "see the example (net 30 terms)")) == (
        "see the example{+ (net 30 terms)+}"
    )
    assert plain_diff(word_diff("terms: example.", "terms: example (net 30).")) == (
        "terms: example{+ (net 30)+}."
    )
