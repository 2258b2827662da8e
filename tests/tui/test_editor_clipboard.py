"""E opens the subject in $EDITOR and saves it back as an update through the engine's
write path; y and Y copy its content and its id to the clipboard."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import pytest

from amem_tui.demo import demo_id
from amem_tui.engine.engine import MemoryEngine
from tests.support.tui import demo_app, demo_engine, main_screen, said, settle, started, until

NEW_TEXT = "Edited in the editor: Priya reviews the auth changes on Fridays"


def fake_editor(tmp_path: Path, body: str, code: int = 0) -> Path:
    """An editor script: saves what it was given to ``seen.txt``, runs ``body`` on the
    file (``$1``), then exits with ``code``."""
    script = tmp_path / "editor.sh"
    seen = tmp_path / "seen.txt"
    script.write_text(f'#!/bin/sh\ncp "$1" "{seen}"\n{body}\nexit {code}\n', encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


@pytest.fixture
def editor(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    """Set ``$EDITOR`` to a fake editor running ``body`` (``$VISUAL`` unset)."""

    def use(body: str, code: int = 0) -> Path:
        monkeypatch.delenv("VISUAL", raising=False)
        monkeypatch.setenv("EDITOR", str(fake_editor(tmp_path, body, code)))
        return tmp_path / "seen.txt"

    return use


async def edit_subject(pilot: Any) -> tuple[str, int]:
    """Press E on the subject; its id, and where the notifications were before."""
    app = pilot.app
    subject = main_screen(app).selected_id
    assert subject is not None
    before = len(app.notice_log)
    await pilot.press("E")
    await settle(pilot)
    return subject, before


async def test_what_the_editor_saves_is_written_as_an_update(editor: Any) -> None:
    seen = editor(f"printf '%s\\n' '{NEW_TEXT}' > \"$1\"")
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        original = engine.agent("main").get(str(main_screen(app).selected_id))
        subject, before = await edit_subject(pilot)
        assert seen.read_text(encoding="utf-8") == original.content + "\n"
        await until(pilot, lambda: engine.agent("main").get(subject).content == NEW_TEXT)
        await settle(pilot)
        note = engine.agent("main").get(subject)
        assert note.owner == original.owner and note.hash != original.hash
        assert f"Updated note {subject}" in said(app, before)
        assert main_screen(app).detail_view.note is not None
        assert main_screen(app).detail_view.note.content == NEW_TEXT


async def test_an_untouched_file_changes_nothing(editor: Any) -> None:
    editor(":")
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        subject = main_screen(app).selected_id
        assert subject is not None
        before_note = engine.agent("main").get(subject)
        subject, before = await edit_subject(pilot)
        assert "unchanged: nothing was saved" in said(app, before)
        assert engine.agent("main").get(subject) == before_note


async def test_an_editor_that_fails_saves_nothing_and_says_so(editor: Any) -> None:
    editor("printf 'half typed text that must not be saved' > \"$1\"", code=3)
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        subject = main_screen(app).selected_id
        assert subject is not None
        content = engine.agent("main").get(subject).content
        subject, before = await edit_subject(pilot)
        assert "exited with status 3: nothing was saved" in said(app, before)
        assert engine.agent("main").get(subject).content == content


async def test_a_missing_editor_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "/nonexistent/editor --wait")
    async with started() as pilot:
        _, before = await edit_subject(pilot)
        assert "No editor '/nonexistent/editor' found" in said(pilot.app, before)


async def test_a_note_the_agent_cannot_write_never_reaches_the_editor(editor: Any) -> None:
    seen = editor(f"printf '%s\\n' '{NEW_TEXT}' > \"$1\"")
    engine = demo_engine()
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        main = main_screen(app)
        frozen = demo_id("shared-freeze")  # main's shared note: dev may read it, not write it
        await pilot.press("tab")
        assert main.shared_pane.select(frozen)
        await settle(pilot)
        assert main.selected_id == frozen
        content = engine.agent("dev").get(frozen).content
        _, before = await edit_subject(pilot)
        await until(pilot, lambda: "PERMISSION_DENIED" in said(app, before))
        assert "dev" in said(app, before) and frozen in said(app, before)
        assert not seen.exists()
        assert engine.agent("dev").get(frozen).content == content


async def test_the_editor_key_is_off_on_a_read_only_store(editor: Any) -> None:
    seen = editor(":")
    async with started(demo_app(demo_engine(read_only=True))) as pilot:
        _, before = await edit_subject(pilot)
        assert "read-only" in said(pilot.app, before)
        assert not seen.exists()


async def test_y_copies_the_content_and_shift_y_the_id() -> None:
    engine: MemoryEngine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        subject = main_screen(app).selected_id
        assert subject is not None
        await pilot.press("y")
        await settle(pilot)
        assert app.clipboard == engine.agent("main").get(subject).content
        assert f"Copied the content of note {subject}" in said(app)
        await pilot.press("Y")
        await settle(pilot)
        assert app.clipboard == subject
        assert f"Copied the id {subject}." in said(app)
