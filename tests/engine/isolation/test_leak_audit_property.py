"""Isolation as a property: random agents with random private and shared notes; the
audit reports a copy exactly when a shared note repeats a private note (to every other
agent, from the private note's agent) and nothing at all otherwise."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amem_tui.config import AgentConfig, Settings
from amem_tui.engine.formats.openclaw import openclaw_payload
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.leak_store import found

VOCABULARY = [f"{syllable}{n}" for syllable in ("ka", "lo", "mi", "ru", "ze") for n in range(90)]


def _text(rng: random.Random) -> str:
    return " ".join(rng.choices(VOCABULARY, k=rng.randint(8, 24)))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    agents=st.lists(
        st.sampled_from(["ada", "bo", "cy", "di"]), min_size=2, max_size=4, unique=True
    ),
    private=st.integers(1, 6),
    shared=st.integers(0, 5),
    copy=st.sampled_from(["none", "exact", "run"]),
    seed=st.integers(0, 10_000),
)
def test_a_copy_is_found_exactly_when_there_is_one(
    agents: list[str], private: int, shared: int, copy: str, seed: int
) -> None:
    rng = random.Random(seed)
    engine = make_engine(
        QdrantStore(path=":memory:"),
        settings=Settings(
            default_agent=agents[0], agents=[AgentConfig(agent=a) for a in agents[1:]]
        ),
    )
    notes: list[MemoryNote] = []
    owned: list[tuple[str, str, str]] = []
    for agent in agents:
        for n in range(private):
            note_id = f"00000000-0000-0000-{agents.index(agent):04d}-{n:012d}"
            text = _text(rng)
            owned.append((note_id, agent, text))
            notes.append(
                MemoryNote.from_payload(
                    note_id, openclaw_payload(text, agent_id=agent, owner=agent)
                )
            )
    for n in range(shared):
        writer = rng.choice(agents)
        note_id = f"00000000-0000-0000-ffff-{n:012d}"
        notes.append(
            MemoryNote.from_payload(
                note_id, openclaw_payload(_text(rng), agent_id="shared", owner=writer)
            )
        )
    expected = set()
    if copy != "none":
        source, holder, text = rng.choice(owned)
        copied = text if copy == "exact" else f"In short: {text} as noted before"
        copy_id = "00000000-0000-0000-eeee-000000000001"
        notes.append(
            MemoryNote.from_payload(
                copy_id, openclaw_payload(copied, agent_id="shared", owner=holder)
            )
        )
        expected = {("content-copied", holder, b, (copy_id, source)) for b in agents if b != holder}
    engine.put_notes("amem_notes", notes)
    report = engine.leaks()
    assert found(report) == expected
    assert report.pairs_checked == len(agents) * (len(agents) - 1)
    engine.close()
