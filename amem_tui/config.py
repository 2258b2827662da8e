"""Settings: platformdirs folders, openclaw.json, ``AMEM_*`` environment, CLI flags.

Flags beat the environment, which beats the configuration file. With nothing
configured: the embedded store in the user data folder, agent ``main`` in Mode A,
collection ``amem_notes``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir, user_config_dir, user_data_dir
from pydantic import BaseModel, Field

from amem_tui.engine.errors import ConfigError, InvalidInput
from amem_tui.engine.scope import DEFAULT_AGENT, DEFAULT_COLLECTION, validate_agent_id

APP_NAME = "amem-tui"
PLUGIN_NAME = "openclaw-amem"
OPENCLAW_CONFIG = Path("~/.openclaw/openclaw.json")


def data_dir() -> Path:
    """Where the embedded store lives by default."""
    return Path(os.environ.get("AMEM_DATA_DIR") or user_data_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    """Where user themes and our own settings live."""
    return Path(os.environ.get("AMEM_CONFIG_DIR") or user_config_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    """Where the assembled model folder and other caches live."""
    return Path(os.environ.get("AMEM_CACHE_DIR") or user_cache_dir(APP_NAME, appauthor=False))


class AgentConfig(BaseModel):
    """One agent from openclaw.json; a ``collection`` makes it Mode B."""

    agent: str
    collection: str | None = None


class Settings(BaseModel):
    """Everything the engine needs to open a store and act as an agent."""

    store_path: Path | None = None
    url: str | None = None
    api_key: str | None = Field(default=None, repr=False)
    collection: str = DEFAULT_COLLECTION
    default_agent: str = DEFAULT_AGENT
    agent: str | None = None
    session_key: str | None = None
    top_k: int = 5
    agents: list[AgentConfig] = Field(default_factory=list)
    config_file: Path | None = None
    model: str | None = None
    read_only: bool = False
    consolidation_time: str = "02:30"
    #: Cosine similarity at or above which private notes are merged (see consolidate.py).
    consolidation_threshold: float = Field(default=0.85, gt=0.0, le=1.0)

    @property
    def embedded_path(self) -> Path:
        """The embedded store folder (used when no URL is given)."""
        return self.store_path or data_dir() / "store"

    @property
    def store_label(self) -> str:
        """Where the store is, for headers and messages."""
        return self.url or str(self.embedded_path)

    def dedicated_collections(self) -> dict[str, str]:
        """Mode B agents and their collections."""
        return {a.agent: a.collection for a in self.agents if a.collection}

    def configured_agents(self) -> list[str]:
        """The default agent, then every agent named in the configuration."""
        names = [self.default_agent]
        names += [a.agent for a in self.agents if a.agent not in names]
        return names


def read_openclaw_config(path: Path) -> dict[str, Any]:
    """The settings an ``openclaw.json`` gives, keyed like :class:`Settings`."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: file not found") from exc
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read ({exc})") from exc
    key = f'plugins.entries["{PLUGIN_NAME}"].config'
    plugin = _dig(raw, ("plugins", "entries", PLUGIN_NAME, "config"), path, key)
    if plugin is None:
        return {"config_file": path}
    if not isinstance(plugin, Mapping):
        raise ConfigError(f"{path}: {key} must be an object")
    out: dict[str, Any] = {"config_file": path}
    if "agentId" in plugin:
        out["default_agent"] = _agent(plugin["agentId"], path, f"{key}.agentId")
    if "topK" in plugin:
        top_k = plugin["topK"]
        if not isinstance(top_k, int) or isinstance(top_k, bool) or top_k < 1:
            raise ConfigError(f"{path}: {key}.topK must be a positive integer, got {top_k!r}")
        out["top_k"] = top_k
    if "collection" in plugin:
        out["collection"] = _name(plugin["collection"], path, f"{key}.collection")
    agents_raw = plugin.get("agents", {})
    if not isinstance(agents_raw, Mapping):
        raise ConfigError(f"{path}: {key}.agents must be an object of agent entries")
    agents: list[AgentConfig] = []
    for name, entry in agents_raw.items():
        where = f"{key}.agents.{name}"
        if not isinstance(entry, Mapping):
            raise ConfigError(f"{path}: {where} must be an object")
        agent = _agent(entry.get("agentId", name), path, f"{where}.agentId")
        collection = entry.get("collection")
        if collection is not None:
            collection = _name(collection, path, f"{where}.collection")
        agents.append(AgentConfig(agent=agent, collection=collection))
    out["agents"] = agents
    for field in ("url", "qdrantUrl"):
        if isinstance(plugin.get(field), str):
            out["url"] = plugin[field]
    return out


def _dig(raw: Any, keys: tuple[str, ...], path: Path, key: str) -> Any:
    node = raw
    for part in keys:
        if node is None:
            return None
        if not isinstance(node, Mapping):
            raise ConfigError(f"{path}: {key}: expected an object at '{part}'")
        node = node.get(part)
    return node


def _agent(value: Any, path: Path, key: str) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"{path}: {key} must be a string, got {value!r}")
    try:
        return validate_agent_id(value)
    except InvalidInput as exc:
        raise ConfigError(f"{path}: {key}: {exc}") from exc


def _name(value: Any, path: Path, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{path}: {key} must be a non-empty string, got {value!r}")
    return value


def _env_settings(env: Mapping[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    mapping = {
        "AMEM_STORE": "store_path",
        "AMEM_URL": "url",
        "QDRANT_URL": "url",
        "QDRANT_API_KEY": "api_key",
        "AMEM_COLLECTION": "collection",
        "AMEM_AGENT": "agent",
        "AMEM_SESSION_KEY": "session_key",
        "AMEM_MODEL": "model",
        "AMEM_CONSOLIDATION_TIME": "consolidation_time",
        "AMEM_CONSOLIDATION_THRESHOLD": "consolidation_threshold",
    }
    for var, field in mapping.items():
        value = env.get(var)
        if value and field not in out:
            out[field] = value
    if env.get("AMEM_READ_ONLY", "").lower() in {"1", "true", "yes"}:
        out["read_only"] = True
    return out


def discover_config_file(explicit: Path | None, env: Mapping[str, str]) -> Path | None:
    """``--config``, else ``AMEM_CONFIG``, else ``~/.openclaw/openclaw.json`` if it exists."""
    if explicit:
        return explicit
    if env.get("AMEM_CONFIG"):
        return Path(env["AMEM_CONFIG"]).expanduser()
    default = OPENCLAW_CONFIG.expanduser()
    return default if default.is_file() else None


def load_settings(
    flags: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None
) -> Settings:
    """Merge defaults, the configuration file, the environment and flags (in that order)."""
    flags = {k: v for k, v in (flags or {}).items() if v is not None and v is not False}
    env = os.environ if env is None else env
    merged: dict[str, Any] = {}
    config_path = discover_config_file(flags.get("config_file"), env)
    if config_path is not None:
        merged.update(read_openclaw_config(Path(config_path).expanduser()))
    merged.update(_env_settings(env))
    merged.update(flags)
    settings = Settings.model_validate(merged)
    if settings.agent is not None:
        validate_agent_id(settings.agent)
    return settings
