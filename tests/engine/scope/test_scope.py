"""Who an agent is (session keys, reserved names) and the rules of scope.py."""

from __future__ import annotations

import pytest

from amem_tui.config import AgentConfig, Settings
from amem_tui.engine import scope as rules
from amem_tui.engine.errors import InvalidInput, PermissionDenied
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.filters import Match
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine


@pytest.mark.parametrize(
    "explicit, session_key, configured, expected",
    [
        ("ops", "agent:dev:abc", "lab", "ops"),  # explicit agent id first
        (None, "agent:dev:abc", "lab", "dev"),  # then agent:<id>:<rest>
        (None, "agent:dev:abc:def", None, "dev"),  # <rest> may hold colons
        (None, "main", "lab", "lab"),  # a primary session key names no agent
        (None, "agent:dev", "lab", "lab"),  # no <rest>: not an agent session key
        (None, "xagent:dev:1", None, "main"),
        (None, None, "lab", "lab"),  # then the configured agentId
        (None, None, None, "main"),  # then main
        (None, "", "", "main"),
    ],
)
def test_resolve_agent(
    explicit: str | None, session_key: str | None, configured: str | None, expected: str
) -> None:
    assert rules.resolve_agent(explicit, session_key, configured) == expected


@pytest.mark.parametrize(
    "explicit, session_key, configured",
    [
        ("shared", None, None),
        ("*", None, None),
        (None, "agent:shared:1", None),
        (None, "agent:*:1", None),
        (None, None, "shared"),
    ],
)
def test_reserved_names_are_refused_wherever_they_come_from(
    explicit: str | None, session_key: str | None, configured: str | None
) -> None:
    with pytest.raises(InvalidInput, match="reserved"):
        rules.resolve_agent(explicit, session_key, configured)


@pytest.mark.parametrize("name", [None, "", "   ", "a b", "a:b", "-x", "x" * 65, "é"])
def test_invalid_agent_ids(name: str | None) -> None:
    with pytest.raises(InvalidInput):
        rules.validate_agent_id(name)


def test_a_write_with_no_agent_id_is_rejected() -> None:
    with pytest.raises(InvalidInput, match="agent id is required"):
        rules.private_access("")
    with pytest.raises(InvalidInput):
        rules.shared_access(None)  # type: ignore[arg-type]


def test_engine_resolves_session_keys_like_openclaw() -> None:
    settings = Settings(
        default_agent="lab",
        agents=[AgentConfig(agent="sb", collection="amem_notes_sb")],
        session_key="agent:sb:42",
    )
    engine = make_engine(QdrantStore(path=":memory:"), settings=settings)
    try:
        assert engine.scope().agent == "sb" and engine.scope().mode == "B"
        assert engine.scope(session_key="agent:dev:1").agent == "dev"
        assert engine.scope("ops").agent == "ops"
        with pytest.raises(InvalidInput):
            engine.scope("")  # an explicit empty id is never replaced by a default
        # A session key given to the call replaces the settings' one, then the configured id.
        assert engine.scope(session_key="primary").agent == "lab"
    finally:
        engine.close()
    plain = make_engine(QdrantStore(path=":memory:"), settings=Settings(default_agent="lab"))
    try:
        assert plain.scope().agent == "lab"
        assert plain.scope(session_key="main").agent == "lab"
    finally:
        plain.close()


def test_mode_b_is_the_agent_with_a_collection() -> None:
    a = rules.scope_for("dev", {"sb": "amem_notes_sb"}, "amem_notes")
    b = rules.scope_for("sb", {"sb": "amem_notes_sb"}, "amem_notes")
    assert (a.mode, a.collection, a.has_shared_scope) == ("A", "amem_notes", True)
    assert (b.mode, b.collection, b.has_shared_scope) == ("B", "amem_notes_sb", False)
    assert not a.is_mem0_view and not b.is_mem0_view  # openclaw-amem agents
    with pytest.raises(InvalidInput):
        rules.scope_for("shared", {}, "amem_notes")


def note(**payload: object) -> MemoryNote:
    return MemoryNote.from_payload("n1", {"content": "some content here", **payload})


MAIN = rules.scope_for("main", {}, "amem_notes")
DEV = rules.scope_for("dev", {}, "amem_notes")
SB = rules.scope_for("sb", {"sb": "amem_notes_sb"}, "amem_notes")


@pytest.mark.parametrize(
    "payload, main_sees, dev_sees",
    [
        ({"agent_id": "main", "owner": "main", "readers": ["main"], "writers": ["main"]}, 1, 0),
        ({"agent_id": "shared", "owner": "main", "readers": ["*"], "writers": ["main"]}, 1, 1),
        # readers naming dev: openclaw-amem's agent filter ignores readers (get only)
        ({"agent_id": "main", "owner": "main", "readers": ["main", "dev"]}, 1, 0),
        ({"agent_id": "main"}, 1, 0),  # legacy: no access fields
        ({"agent_id": "shared"}, 1, 1),  # legacy shared
        ({"agent_id": "main", "is_active": False}, 0, 0),  # soft-deleted: filtered out
        ({"agent_id": "dev", "owner": "dev", "readers": ["dev"]}, 0, 1),
    ],
)
def test_mode_a_read_filter(payload: dict[str, object], main_sees: int, dev_sees: int) -> None:
    n = note(**payload)
    assert rules.matches(rules.read_filter(MAIN), n) == bool(main_sees)
    assert rules.matches(rules.read_filter(DEV), n) == bool(dev_sees)
    assert (rules.visible_because(MAIN, n) is not None) == bool(main_sees)
    # Mode B reads its own collection whole (minus soft-deleted notes): no agent filter.
    assert rules.matches(rules.read_filter(SB), n) == (payload.get("is_active") is not False)


def test_read_filter_uses_must_not_for_is_active() -> None:
    flt = rules.read_filter(DEV)
    assert Match("is_active", False) in flt.must_not
    assert not any(isinstance(c, Match) and c.key == "is_active" for c in flt.must), (
        "a must is_active==true would hide old notes without the field"
    )


def test_read_rule_for_fetch_by_id() -> None:
    private = note(agent_id="main", owner="main", readers=["main"], writers=["main"])
    shared = note(agent_id="shared", owner="main", readers=["*"], writers=["main"])
    assert rules.can_read(MAIN, private, "amem_notes")
    assert not rules.can_read(DEV, private, "amem_notes")
    assert rules.can_read(DEV, shared, "amem_notes")
    # Mode B: its own collection only, never the shared collection.
    assert not rules.can_read(SB, shared, "amem_notes")
    assert rules.can_read(SB, note(agent_id="sb"), "amem_notes_sb")
    assert not rules.can_read(MAIN, note(agent_id="sb"), "amem_notes_sb")
    # A point without agent_id is malformed: nobody reads it by id in Mode A.
    assert not rules.can_read(MAIN, note(readers=["*"]), "amem_notes")


def test_write_rule() -> None:
    shared = note(agent_id="shared", owner="main", readers=["*"], writers=["main"])
    assert rules.can_write("main", shared)
    assert not rules.can_write("dev", shared)
    assert rules.can_write("dev", note(agent_id="shared", owner="main", writers=["main", "dev"]))
    assert rules.can_write("qa", note(agent_id="shared", owner="main", writers=["*"]))
    assert rules.can_write("main", note(agent_id="main"))  # legacy: the owner is agent_id
    assert not rules.can_write("dev", note(agent_id="shared"))  # legacy shared: nobody
    with pytest.raises(PermissionDenied) as denied:
        rules.require_write("dev", shared, "update")
    assert "PERMISSION_DENIED" in str(denied.value)
    assert "'dev'" in str(denied.value) and "n1" in str(denied.value)
    assert denied.value.exit_code == 3


def test_access_of_new_notes() -> None:
    private = rules.private_access("dev")
    shared = rules.shared_access("dev")
    assert (private.agent_id, private.owner, private.readers, private.writers) == (
        "dev",
        "dev",
        ["dev"],
        ["dev"],
    )
    assert (shared.agent_id, shared.owner, shared.readers, shared.writers) == (
        "shared",
        "dev",
        ["*"],
        ["dev"],
    )
