"""Shared-memory poisoning signals: owners always shown, shared notes filtered by owner,
instruction-like content flagged low_quality at write time, and edits that would
overwrite a change made elsewhere refused."""

from __future__ import annotations

import pytest

from amem_tui.config import DEFAULT_LOW_QUALITY_PATTERNS
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import ConfigError, InvalidInput
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import demo_like_settings, fixed_ids, make_engine
from tests.support.hostile_corpus import INSTRUCTION_LIKE, ORDINARY


@pytest.mark.parametrize("text", INSTRUCTION_LIKE)
def test_instruction_like_content_is_flagged_not_refused(engine: MemoryEngine, text: str) -> None:
    note = engine.add_shared("dev", text)
    assert note.low_quality
    seen = engine.get("main", note.id)
    assert (seen.content, seen.low_quality, seen.owner) == (text, True, "dev")


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_content_is_not_flagged(engine: MemoryEngine, text: str) -> None:
    assert not engine.add("main", text).low_quality


def test_update_to_instruction_like_content_is_flagged(engine: MemoryEngine) -> None:
    note = engine.add_shared("main", "Team convention: review every migration twice")
    assert not note.low_quality
    updated = engine.update("main", note.id, content=INSTRUCTION_LIKE[0])
    assert updated.low_quality and engine.get("dev", note.id).low_quality


def test_low_quality_listing_shows_them_apart(engine: MemoryEngine) -> None:
    bad = engine.add_shared("dev", INSTRUCTION_LIKE[1])
    good = engine.add_shared("dev", ORDINARY[0])
    mine = engine.add("main", INSTRUCTION_LIKE[4])
    flagged = {n.id for n in engine.list_notes("main", "visible", low_quality=True).notes}
    assert flagged == {bad.id, mine.id}
    everything = {n.id for n in engine.list_notes("main", "visible").notes}
    assert {bad.id, good.id, mine.id} <= everything
    assert engine.list_notes("main", "visible", low_quality=True).total == 2


def test_shared_notes_filtered_by_owner(engine: MemoryEngine) -> None:
    by_main = engine.add_shared("main", "Shared by main: deploys happen on Tuesdays")
    by_dev = engine.add_shared("dev", "Shared by dev: CI caches are wiped nightly")
    engine.add("dev", "Dev's private note is never in the shared scope")
    page = engine.list_notes("main", "shared", owner="dev")
    assert [n.id for n in page.notes] == [by_dev.id] and page.total == 1
    assert [n.id for n in engine.list_notes("dev", "shared", owner="main").notes] == [by_main.id]
    assert engine.list_notes("main", "shared", owner="nobody").total == 0
    assert engine.list_notes("sandbox", "shared", owner="dev").total == 0  # Mode B: none
    with pytest.raises(InvalidInput):
        engine.list_notes("main", "shared", owner="*")


def test_custom_patterns_and_check_off(store: QdrantStore) -> None:
    custom = make_engine(
        store, settings=demo_like_settings(low_quality_patterns=[r"\bwire the money\b"])
    )
    assert custom.add("main", "Please wire the money to the new account").low_quality
    assert not custom.add("main", INSTRUCTION_LIKE[0]).low_quality
    off = make_engine(
        store, settings=demo_like_settings(low_quality_patterns=[]), new_id=fixed_ids(7)
    )
    assert not off.add("main", INSTRUCTION_LIKE[2]).low_quality


def test_bad_pattern_is_a_configuration_error(store: QdrantStore) -> None:
    with pytest.raises(ConfigError, match="not a valid regex"):
        make_engine(store, settings=demo_like_settings(low_quality_patterns=["(unclosed"]))


def test_default_patterns_are_configurable_data() -> None:
    assert len(DEFAULT_LOW_QUALITY_PATTERNS) >= 4


def test_edit_of_a_note_changed_elsewhere_is_refused(engine: MemoryEngine) -> None:
    note = engine.add_shared("main", "Shared checklist: tag releases before deploying")
    loaded = engine.get("main", note.id)
    engine.update("main", note.id, content="Someone else changed the checklist meanwhile")
    with pytest.raises(InvalidInput, match="changed elsewhere"):
        engine.update(
            "main", note.id, content="My edit from the stale copy", expected_hash=loaded.hash
        )
    assert engine.get("main", note.id).content == "Someone else changed the checklist meanwhile"
    fresh = engine.get("main", note.id)
    engine.update("main", note.id, content="My edit on the fresh copy", expected_hash=fresh.hash)
