"""Snapshots of the power-user keys at 80×24: a pane filtered and sorted by a column, and
a multi-selection.

Update after a deliberate change with ``pytest tests/snapshots --snapshot-update``
and look at every changed SVG before committing it.
"""

from __future__ import annotations

from typing import Any

from tests.support.tui import snapshot

SMALL = (80, 24)


def test_filtered_and_sorted_pane_small(snap_compare: Any) -> None:
    """The Private tab sorted by recall count (its header says so) and filtered."""
    keys = ["S", "S", "S", "F", *"code", "enter"]
    assert snapshot(snap_compare, size=SMALL, keys=keys)


def test_multi_selection_small(snap_compare: Any) -> None:
    """Three notes marked in the Private tab: the mark column, the count in the title."""
    keys = ["space", "space", "down", "space"]
    assert snapshot(snap_compare, size=SMALL, keys=keys)
