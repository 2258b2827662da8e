"""Settings: platformdirs folders, openclaw.json, ``AMEM_*`` environment, CLI flags.

What the engine needs is its own model (``amem_tui.engine.settings``); this module
merges the configuration files (read by ``amem_tui.config_files``), the environment
and the flags, checks the result, and builds it.

Flags beat the environment, which beats the configuration file. With nothing
configured: the embedded store in the user data folder, agent ``main`` in Mode A,
collection ``amem_notes``.
"""

from __future__ import annotations

import json
import os
import re
import urllib.parse
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from amem_tui import embedding_config
from amem_tui.config_files import (
    FILE_KEYS,
    discover_config_file,
    read_openclaw_config,
    read_own_config,
    validate_collection_name,
)
from amem_tui.engine.errors import ConfigError, InvalidInput
from amem_tui.engine.scope import validate_agent_id, validate_session_key
from amem_tui.engine.settings import (
    DEFAULT_LOW_QUALITY_PATTERNS,
    AgentConfig,
    EngineSettings,
    Mem0PluginConfig,
)
from amem_tui.paths import config_dir

__all__ = [
    "DEFAULT_LOW_QUALITY_PATTERNS",
    "AgentConfig",
    "EngineSettings",
    "Mem0PluginConfig",
    "Settings",
    "load_settings",
]


class Settings(EngineSettings):
    """The engine's settings (``EngineSettings``) and what
    only the apps read: openclaw-amem's ``topK``."""

    top_k: int = 5


def parse_collection_models(text: str, where: str) -> dict[str, str]:
    """``name=model`` pairs separated by commas (or a JSON object), as AMEM_COLLECTION_MODELS."""
    text = text.strip()
    if not text:
        return {}
    if text.startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{where}: not valid JSON ({exc.msg})") from None
        if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in value.items()
        ):
            raise ConfigError(f"{where}: must map collection names to model names")
        return {str(k): str(v).strip() for k, v in value.items()}
    out: dict[str, str] = {}
    for part in text.split(","):
        name, eq, model = part.partition("=")
        if not eq or not name.strip() or not model.strip():
            raise ConfigError(
                f"{where}: expected collection=model pairs separated by commas, got {part!r}"
            )
        out[name.strip()] = model.strip()
    return out


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
        "AMEM_CONSOLIDATION_TIMEZONE": "consolidation_timezone",
        "AMEM_BACKEND": "backend",
        "AMEM_CONSOLIDATION_THRESHOLD": "consolidation_threshold",
        "AMEM_USER": "user",
        "AMEM_OPENCLAW_DIR": "openclaw_dir",
        "AMEM_CHECKS": "checks_file",
    }
    for var, field in mapping.items():
        value = env.get(var)
        if value and field not in out:
            out[field] = value
    patterns = env.get("AMEM_LOW_QUALITY_PATTERNS")
    if patterns is not None:  # one regex a line; empty turns the check off
        out["low_quality_patterns"] = [line for line in patterns.splitlines() if line.strip()]
    if env.get("AMEM_READ_ONLY", "").lower() in {"1", "true", "yes"}:
        out["read_only"] = True
    models = env.get("AMEM_COLLECTION_MODELS")
    if models:
        out["collection_models"] = parse_collection_models(models, "AMEM_COLLECTION_MODELS")
    out.update(embedding_config.env_settings(env))
    return out


def load_settings(
    flags: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None
) -> Settings:
    """Merge defaults, the configuration file, the environment and flags (in that order)."""
    flags = {k: v for k, v in (flags or {}).items() if v is not None and v is not False}
    env = os.environ if env is None else env
    merged: dict[str, Any] = {}
    source: dict[str, str] = {}  # where each setting came from, for error messages
    where: dict[str, str] = {}
    config_path = discover_config_file(flags.get("config_file"), env)
    for key, value in flags.items():
        if isinstance(value, str | Path) and not str(value).strip():
            raise InvalidInput(f"option --{_FLAG_NAMES.get(key, key)} needs a value")
    own = config_dir() / "config.toml"
    _layer(merged, source, read_own_config(own), lambda k: f"{own}: {k}")
    openclaw_env: dict[str, str] = {}
    if config_path is not None:
        from_file = read_openclaw_config(Path(config_path).expanduser())
        where = from_file.pop("_where", {})
        openclaw_env = from_file.pop("_openclaw_env", {})
        _layer(merged, source, from_file, lambda k: f"{config_path}: {FILE_KEYS.get(k, k)}")
    from_env = _env_settings(env)
    own_models = merged.get("collection_models", {})
    if "collection_models" in from_env:  # per collection: the environment adds and overrides
        from_env["collection_models"] = {**own_models, **from_env["collection_models"]}
    _layer(merged, source, from_env, lambda k: f"environment {_ENV_NAMES.get(k, k)}")
    _layer(merged, source, flags, lambda k: f"option --{_FLAG_NAMES.get(k, k)}")
    _complete_embedding(merged, env, config_path, openclaw_env)
    if "collection" in source:
        try:
            validate_collection_name(merged["collection"])
        except InvalidInput as exc:
            raise ConfigError(f"{source['collection']}: {exc}") from None
    try:
        settings = Settings.model_validate(merged)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = str(err["loc"][0]) if err["loc"] else "settings"
        raise ConfigError(f"{source.get(field, field)}: {err['msg']}") from None
    for field in ("agent", "default_agent"):
        value = getattr(settings, field)
        if value is not None and field in source:
            _check_agent(value, source[field])
    if settings.session_key and "session_key" in source:
        try:
            validate_session_key(settings.session_key)
        except InvalidInput as exc:
            raise ConfigError(f"{source['session_key']}: {exc}") from None
    if settings.url is not None:
        problem = server_url_problem(settings.url)
        if problem is not None:
            url_from = source.get("url", "url")
            raise ConfigError(
                f"{url_from}: not a Qdrant server URL ({problem}); give http://HOST:PORT or "
                "https://HOST:PORT, e.g. http://localhost:6333"
            )
    _check_collections(settings, source, where)
    for pattern in settings.low_quality_patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            where_from = source.get("low_quality_patterns", "low_quality_patterns")
            raise ConfigError(f"{where_from}: {pattern!r} is not a valid regex: {exc}") from None
    return settings


def _complete_embedding(
    merged: dict[str, Any],
    env: Mapping[str, str],
    config_path: Path | None,
    openclaw_env: Mapping[str, str],
) -> None:
    """The mem0 plugin's key as the plugin's process would find it (in OpenClaw's state
    folder too)."""
    mem0 = merged.get("mem0")
    if isinstance(mem0, Mem0PluginConfig) and mem0.embedder is not None:
        state = merged.get("openclaw_state_dir") or embedding_config.default_openclaw_dir(
            config_path
        )
        spec = embedding_config.with_key(mem0.embedder, env, state, openclaw_env)
        merged["mem0"] = mem0.model_copy(update={"embedder": spec})


#: Settings that only make sense together: a layer naming one of them replaces what
#: weaker layers said about the whole group (``--store`` beats ``AMEM_URL``, and
#: ``--session-key`` beats ``AMEM_AGENT``), so flags beat the environment as a whole.
_GROUPS = (("store_path", "url"), ("agent", "session_key"))
_FLAG_NAMES = {
    "store_path": "store",
    "config_file": "config",
    "session_key": "session-key",
    "mem0_view": "view",
    "read_only": "read-only",
}


def _layer(
    merged: dict[str, Any],
    source: dict[str, str],
    layer: Mapping[str, Any],
    describe: Callable[[str], str],
) -> None:
    """Put one layer of settings over the weaker ones already merged."""
    for group in _GROUPS:
        if any(key in layer for key in group):
            for key in group:
                merged.pop(key, None)
                source.pop(key, None)
    merged.update(layer)
    source.update({key: describe(key) for key in layer})


_ENV_NAMES = {
    "store_path": "AMEM_STORE",
    "url": "AMEM_URL/QDRANT_URL",
    "api_key": "QDRANT_API_KEY",
    "collection": "AMEM_COLLECTION",
    "agent": "AMEM_AGENT",
    "session_key": "AMEM_SESSION_KEY",
    "model": "AMEM_MODEL",
    "consolidation_time": "AMEM_CONSOLIDATION_TIME",
    "consolidation_timezone": "AMEM_CONSOLIDATION_TIMEZONE",
    "read_only": "AMEM_READ_ONLY",
    "low_quality_patterns": "AMEM_LOW_QUALITY_PATTERNS",
    "user": "AMEM_USER",
    "openclaw_dir": "AMEM_OPENCLAW_DIR",
    "checks_file": "AMEM_CHECKS",
    "collection_models": "AMEM_COLLECTION_MODELS",
    **{field: var for var, field in embedding_config.ENV_FIELDS.items()},
    "model_folders": "AMEM_MODEL_FOLDERS",
    "remote_embeddings": "AMEM_REMOTE_EMBEDDINGS",
    "openclaw_state_dir": "OPENCLAW_STATE_DIR",
}


def server_url_problem(url: str) -> str | None:
    """What makes ``url`` unusable as a Qdrant server's address, or None.

    The scheme is http or https (without one, ``localhost:6333`` would be read as a
    scheme and a path, and fail only once connecting), the host is there and well
    formed, the port is 1-65535. The URL itself is never quoted: it may hold a password.
    """
    text = url.strip()
    if "://" not in text:
        return "it has no scheme"
    scheme = text.split("://", 1)[0].lower()
    if scheme not in ("http", "https"):
        shown = scheme if scheme.isalnum() and len(scheme) <= 10 else "that"
        return f"the scheme {shown!r} is not http or https"
    try:
        parts = urllib.parse.urlsplit(text if "://" in text else f"http://{text}")
        port = parts.port
    except ValueError as exc:
        if "IPv6" in str(exc):
            return "its host is not a valid address: an IPv6 address goes in brackets, [::1]"
        return "its port is not a number from 1 to 65535"
    if not parts.hostname:
        return "it names no host"
    if port is not None and not 0 < port < 65536:
        return "its port is not a number from 1 to 65535"
    return None


def _check_agent(value: str, where: str) -> None:
    try:
        validate_agent_id(value)
    except InvalidInput as exc:
        raise ConfigError(f"{where}: {exc}") from None


def _check_collections(settings: Settings, source: dict[str, str], where: dict[str, str]) -> None:
    """A Mode B collection of its own: sharing one would let agents read each other's notes."""
    owners: dict[str, str] = {}
    for agent in settings.agents:
        if not agent.collection:
            continue
        key = where.get(agent.agent, f"agents.{agent.agent}")
        here = f"{settings.config_file}: {key}.collection" if settings.config_file else key
        if agent.collection == settings.collection:
            mode_a = source.get("collection", "the default Mode A collection")
            raise ConfigError(
                f"{here}: '{agent.collection}' is also the Mode A collection ({mode_a}); "
                f"a Mode B agent would read every agent's notes there"
            )
        if agent.collection in owners:
            raise ConfigError(
                f"{here}: '{agent.collection}' is already the Mode B collection of agent "
                f"'{owners[agent.collection]}'; each Mode B agent needs its own"
            )
        owners[agent.collection] = agent.agent
