"""Settings: openclaw.json, the environment and flags, in that order of strength."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from amem_tui.config import load_settings
from amem_tui.config_files import read_openclaw_config
from amem_tui.engine.errors import ConfigError, InvalidInput
from amem_tui.paths import config_dir

KEY = 'plugins.entries["openclaw-amem"].config'


def write_config(tmp_path: Path, config: dict[str, Any], name: str = "openclaw.json") -> Path:
    """An openclaw.json with the plugin configuration ``config``."""
    path = tmp_path / name
    path.write_text(
        json.dumps(
            {
                "plugins": {
                    "allow": ["openclaw-amem"],
                    "entries": {"openclaw-amem": {"enabled": True, "config": config}},
                    "slots": {"memory": "openclaw-amem"},
                }
            }
        )
    )
    return path


def modes(settings: Any) -> dict[str, tuple[str, str]]:
    """Each configured agent's mode and collection, through the engine's scope rules."""
    from amem_tui.engine import scope as rules

    return {
        name: (s.mode, s.collection)
        for name in settings.configured_agents()
        for s in [
            rules.scope_for(name, settings.dedicated_collections(), settings.collection, True)
        ]
    }


def test_defaults_with_no_configuration_at_all(monkeypatch: pytest.MonkeyPatch) -> None:
    from platformdirs import user_data_dir

    monkeypatch.delenv("AMEM_DATA_DIR")
    settings = load_settings({}, env={})
    assert settings.url is None
    assert settings.collection == "amem_notes"
    assert settings.default_agent == "main"
    assert settings.agents == []
    assert modes(settings) == {"main": ("A", "amem_notes")}
    # The embedded store lives in the user data folder.
    assert settings.embedded_path.parent == Path(user_data_dir("amem-tui", appauthor=False))


def test_mode_a_config_from_the_seed(tmp_path: Path) -> None:
    path = write_config(tmp_path, {"agentId": "main", "topK": 5})
    settings = load_settings({"config_file": path}, env={})
    assert settings.default_agent == "main" and settings.top_k == 5
    assert modes(settings) == {"main": ("A", "amem_notes")}


def test_mode_b_config_from_the_seed(tmp_path: Path) -> None:
    path = write_config(
        tmp_path,
        {
            "agentId": "main",
            "topK": 5,
            "agents": {
                "dev": {"agentId": "dev"},
                "sandbox": {"agentId": "sandbox", "collection": "amem_notes_sandbox"},
            },
        },
    )
    settings = load_settings({"config_file": path}, env={})
    assert modes(settings) == {
        "main": ("A", "amem_notes"),
        "dev": ("A", "amem_notes"),
        "sandbox": ("B", "amem_notes_sandbox"),
    }


def test_agent_entry_without_agent_id_uses_its_key(tmp_path: Path) -> None:
    path = write_config(tmp_path, {"agents": {"ops": {"collection": "amem_notes_ops"}}})
    settings = load_settings({"config_file": path}, env={})
    assert modes(settings)["ops"] == ("B", "amem_notes_ops")


def test_config_collection_moves_mode_a(tmp_path: Path) -> None:
    path = write_config(tmp_path, {"collection": "team_notes", "agents": {"dev": {}}})
    settings = load_settings({"config_file": path}, env={})
    assert modes(settings) == {"main": ("A", "team_notes"), "dev": ("A", "team_notes")}


def test_precedence_flags_beat_env_beat_file(tmp_path: Path) -> None:
    path = write_config(tmp_path, {"agentId": "main", "collection": "from_file"})
    from_file = load_settings({"config_file": path}, env={})
    assert from_file.collection == "from_file"
    from_env = load_settings({"config_file": path}, env={"AMEM_COLLECTION": "from_env"})
    assert from_env.collection == "from_env"
    from_flag = load_settings(
        {"config_file": path, "collection": "from_flag"}, env={"AMEM_COLLECTION": "from_env"}
    )
    assert from_flag.collection == "from_flag"


def test_config_file_found_through_env_and_home(tmp_path: Path) -> None:
    path = write_config(tmp_path, {"agentId": "ops"})
    assert load_settings({}, env={"AMEM_CONFIG": str(path)}).default_agent == "ops"
    # ~/.openclaw/openclaw.json is read when nothing else names a file (HOME is a tmp dir).
    home_config = Path.home() / ".openclaw"
    home_config.mkdir(parents=True)
    write_config(home_config, {"agentId": "lab"})
    assert load_settings({}, env={}).default_agent == "lab"
    assert load_settings({"config_file": path}, env={}).default_agent == "ops"


def test_store_location_is_one_setting(tmp_path: Path) -> None:
    """A stronger layer naming a store replaces a weaker layer's URL, and vice versa."""
    env = {"AMEM_URL": "http://qdrant.invalid:6333"}
    assert load_settings({}, env=env).url == "http://qdrant.invalid:6333"
    flagged = load_settings({"store_path": str(tmp_path / "s")}, env=env)
    assert flagged.url is None and flagged.embedded_path == tmp_path / "s"
    env_store = {"AMEM_STORE": str(tmp_path / "e")}
    assert load_settings({"url": "http://x.invalid"}, env=env_store).url == "http://x.invalid"
    assert load_settings({}, env={"QDRANT_API_KEY": "k"}).api_key == "k"


def test_agent_identity_is_one_setting() -> None:
    """--session-key beats AMEM_AGENT; --agent beats AMEM_SESSION_KEY."""
    by_flag_key = load_settings({"session_key": "agent:dev:abc"}, env={"AMEM_AGENT": "main"})
    assert (by_flag_key.agent, by_flag_key.session_key) == (None, "agent:dev:abc")
    by_flag_agent = load_settings({"agent": "ops"}, env={"AMEM_SESSION_KEY": "agent:dev:abc"})
    assert (by_flag_agent.agent, by_flag_agent.session_key) == ("ops", None)
    from_env = load_settings({}, env={"AMEM_SESSION_KEY": "agent:qa:1"})
    assert from_env.session_key == "agent:qa:1"


@pytest.mark.parametrize("reserved", ["shared", "*"])
@pytest.mark.parametrize(
    "config, key",
    [
        (lambda r: {"agentId": r}, f"{KEY}.agentId"),
        (lambda r: {"agents": {"x": {"agentId": r}}}, f"{KEY}.agents.x.agentId"),
        (lambda r: {"agents": {r: {}}}, f"{KEY}.agents.{{r}}.agentId"),
    ],
)
def test_reserved_names_in_config_name_file_and_key(
    tmp_path: Path, reserved: str, config: Any, key: str
) -> None:
    path = write_config(tmp_path, config(reserved))
    with pytest.raises(ConfigError) as err:
        load_settings({"config_file": path}, env={})
    message = str(err.value)
    assert str(path) in message
    assert key.replace("{r}", reserved) in message
    assert "reserved" in message
    assert err.value.exit_code == 2


@pytest.mark.parametrize(
    "config, fragment",
    [
        ({"topK": 0}, "topK"),
        ({"topK": "5"}, "topK"),
        ({"agents": []}, "agents"),
        ({"agents": {"dev": "dev"}}, "agents.dev"),
        ({"agentId": 7}, "agentId"),
        ({"collection": ""}, "collection"),
        ({"agents": {"sb": {"collection": "a/b"}}}, "agents.sb.collection"),
        ({"agents": {"sb": {"collection": "amem_notes"}}}, "Mode A collection"),
        (
            {"agents": {"a": {"collection": "c1"}, "b": {"collection": "c1"}}},
            "already the Mode B collection of agent 'a'",
        ),
        ({"agents": {"d1": {"agentId": "dev"}, "d2": {"agentId": "dev"}}}, "already configured"),
    ],
)
def test_bad_config_values_are_rejected_with_file_and_key(
    tmp_path: Path, config: dict[str, Any], fragment: str
) -> None:
    path = write_config(tmp_path, config)
    with pytest.raises(ConfigError) as err:
        load_settings({"config_file": path}, env={})
    assert str(path) in str(err.value) and fragment in str(err.value)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("{not json", "not valid JSON"),
        ('{"plugins": []}', "expected an object"),
        ('{"plugins": {"entries": {"openclaw-amem": {"config": 3}}}}', "must be an object"),
    ],
)
def test_unreadable_config_files(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "openclaw.json"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        read_openclaw_config(path)
    assert str(path) in str(err.value) and fragment in str(err.value)
    with pytest.raises(ConfigError, match="file not found"):
        read_openclaw_config(tmp_path / "missing.json")


def test_config_without_the_plugin_entry_gives_defaults(tmp_path: Path) -> None:
    path = tmp_path / "openclaw.json"
    path.write_text('{"plugins": {"entries": {"other": {}}}}')
    settings = load_settings({"config_file": path}, env={})
    assert settings.default_agent == "main" and settings.agents == []


@pytest.mark.parametrize(
    "flags, env, fragment",
    [
        ({"agent": "shared"}, {}, "--agent"),
        ({}, {"AMEM_AGENT": "*"}, "AMEM_AGENT"),
        ({"collection": ""}, {}, "--collection needs a value"),
        ({}, {"AMEM_COLLECTION": "bad/name"}, "AMEM_COLLECTION"),
        ({"store_path": " "}, {}, "--store needs a value"),
    ],
)
def test_bad_flags_and_env_name_their_source(
    flags: dict[str, Any], env: dict[str, str], fragment: str
) -> None:
    with pytest.raises(InvalidInput) as err:
        load_settings(flags, env=env)
    assert fragment in str(err.value)


def test_mode_a_collection_from_env_may_not_equal_a_mode_b_collection(tmp_path: Path) -> None:
    path = write_config(tmp_path, {"agents": {"sb": {"collection": "sandbox_notes"}}})
    with pytest.raises(ConfigError, match="sandbox_notes"):
        load_settings({"config_file": path}, env={"AMEM_COLLECTION": "sandbox_notes"})


def test_the_checks_file_from_config_toml_and_the_environment(tmp_path: Path) -> None:
    """One setting names the memory checks a preview runs by default: ``checks`` under
    ``[isolation]`` in config.toml, over which ``AMEM_CHECKS`` wins."""
    assert load_settings({}, env={}).checks_file is None
    config_dir().mkdir(parents=True, exist_ok=True)
    own = config_dir() / "config.toml"
    own.write_text(f'[isolation]\nchecks = "{tmp_path / "team.toml"}"\n', encoding="utf-8")
    assert load_settings({}, env={}).checks_file == tmp_path / "team.toml"
    mine = str(tmp_path / "mine.toml")
    assert load_settings({}, env={"AMEM_CHECKS": mine}).checks_file == Path(mine)
    own.write_text("[isolation]\nchecks = 3\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"config\.toml: isolation\.checks must be the path"):
        load_settings({}, env={})
