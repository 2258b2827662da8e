"""Settings: platformdirs folders, openclaw.json, ``AMEM_*`` environment, CLI flags.

What the engine needs is its own model (``amem_tui.engine.settings``); this module
reads the files, the environment and the flags, and builds it.

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
from amem_tui.engine.errors import ConfigError, InvalidInput
from amem_tui.engine.scope import validate_agent_id, validate_session_key
from amem_tui.engine.settings import (
    DEFAULT_LOW_QUALITY_PATTERNS,
    AgentConfig,
    EngineSettings,
    Mem0PluginConfig,
    Mem0Recall,
)
from amem_tui.paths import config_dir, default_store_dir, demo_dir

__all__ = [
    "DEFAULT_LOW_QUALITY_PATTERNS",
    "AgentConfig",
    "EngineSettings",
    "Mem0PluginConfig",
    "Settings",
    "load_settings",
]

PLUGIN_NAME = "openclaw-amem"
MEM0_PLUGIN_NAME = "openclaw-mem0"
OPENCLAW_CONFIG = Path("~/.openclaw/openclaw.json")


class Settings(EngineSettings):
    """The engine's settings (``EngineSettings``) and what
    only the apps read: openclaw-amem's ``topK``."""

    top_k: int = 5


def read_openclaw_config(path: Path) -> dict[str, Any]:
    """The settings an ``openclaw.json`` gives, keyed like ``Settings``."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: file not found") from exc
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read ({exc})") from exc
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{path}: the top level must be a JSON object, got {_kind(raw)}")
    out: dict[str, Any] = {"config_file": path}
    out["_openclaw_env"] = embedding_config.openclaw_env_block(raw)
    installs = embedding_config.plugin_install_dirs(raw)
    if installs:
        out["amem_plugin_dirs"] = installs
    mem0 = read_mem0_entry(raw, path)
    if mem0 is not None:
        out["mem0"] = mem0
        out["user"] = mem0.user_id
    key = f'plugins.entries["{PLUGIN_NAME}"].config'
    plugin = _dig(raw, ("plugins", "entries", PLUGIN_NAME, "config"), path, key)
    if plugin is None:
        return out
    if not isinstance(plugin, Mapping):
        raise ConfigError(f"{path}: {key} must be an object, got {_kind(plugin)}")
    if "agentId" in plugin:
        out["default_agent"] = _agent(plugin["agentId"], path, f"{key}.agentId")
    if "topK" in plugin:
        top_k = plugin["topK"]
        if not isinstance(top_k, int) or isinstance(top_k, bool) or top_k < 1:
            raise ConfigError(f"{path}: {key}.topK must be a positive integer, got {_kind(top_k)}")
        out["top_k"] = top_k
    if "collection" in plugin:
        out["collection"] = _name(plugin["collection"], path, f"{key}.collection")
    agents_raw = plugin.get("agents", {})
    if not isinstance(agents_raw, Mapping):
        raise ConfigError(
            f"{path}: {key}.agents must be an object of agent entries, got {_kind(agents_raw)}"
        )
    agents: list[AgentConfig] = []
    where_of: dict[str, str] = {}
    for name, entry in agents_raw.items():
        where = f"{key}.agents.{name}"
        if not isinstance(entry, Mapping):
            raise ConfigError(f"{path}: {where} must be an object, got {_kind(entry)}")
        agent = _agent(entry.get("agentId", name), path, f"{where}.agentId")
        if agent in where_of:  # two entries for one agent could give it two modes
            raise ConfigError(
                f"{path}: {where}: agent '{agent}' is already configured by {where_of[agent]}"
            )
        where_of[agent] = where
        collection = entry.get("collection")
        if collection is not None:
            collection = _name(collection, path, f"{where}.collection")
        agents.append(AgentConfig(agent=agent, collection=collection))
    out["agents"] = agents
    out["_where"] = where_of
    for field in ("url", "qdrantUrl"):
        if field in plugin:
            out["url"] = _name(plugin[field], path, f"{key}.{field}")
    return out


def read_mem0_entry(raw: Mapping[str, Any], path: Path) -> Mem0PluginConfig | None:
    """The OpenClaw mem0 plugin's entry (``plugins.entries["openclaw-mem0"].config``).

    Without a ``userId`` the plugin uses the name of the account it runs under, else
    ``default``; the same fallback applies here.
    """
    key = f'plugins.entries["{MEM0_PLUGIN_NAME}"].config'
    entry = _dig(raw, ("plugins", "entries", MEM0_PLUGIN_NAME, "config"), path, key)
    if entry is None:
        return None
    if not isinstance(entry, Mapping):
        raise ConfigError(f"{path}: {key} must be an object, got {_kind(entry)}")
    user = entry.get("userId")
    if user is not None and not isinstance(user, str):
        raise ConfigError(f"{path}: {key}.userId must be a string, got {_kind(user)}")
    oss = _section(entry, "oss")
    embedder = _section(oss, "embedder")
    embedder_config = _section(embedder, "config")
    store_config = _section(_section(oss, "vectorStore"), "config")
    dimension = store_config.get("dimension") or store_config.get("embeddingModelDims")
    if dimension is None:
        dimension = embedder_config.get("embeddingDims")
    if dimension is not None and (not isinstance(dimension, int) or isinstance(dimension, bool)):
        raise ConfigError(
            f"{path}: {key}.oss.vectorStore.config.dimension must be a whole number, "
            f"got {_kind(dimension)}"
        )
    name = store_config.get("collectionName")
    if name is not None:
        name = _name(name, path, f"{key}.oss.vectorStore.config.collectionName")

    def text(value: Any) -> str | None:
        return value if isinstance(value, str) and value.strip() else None

    return Mem0PluginConfig(
        user_id=user or _account_name(),
        mode=text(entry.get("mode")) or "platform",
        embedder_provider=text(embedder.get("provider")),
        embedder_model=text(embedder_config.get("model")),
        embedder=embedding_config.mem0_embedder(entry, embedder),
        collection_name=name,
        dimension=dimension,
        url=text(store_config.get("url")),
        **_mem0_ranking(entry, path, key),
    )


def _mem0_ranking(entry: Mapping[str, Any], path: Path, key: str) -> dict[str, Any]:
    """How the plugin's entry tunes its searches and auto-recall, read as the plugin
    reads it: a setting of the wrong type is ignored (its default applies), and a value
    its SDK refuses at search time (a threshold outside 0..1, a fractional topK) is
    refused here, since every search of the plugin would fail with it."""
    out: dict[str, Any] = {}

    def number(value: Any) -> bool:
        return isinstance(value, int | float) and not isinstance(value, bool)

    def threshold(value: Any, where: str) -> float:
        if not number(value) or not 0 <= value <= 1:
            raise ConfigError(
                f"{path}: {key}.{where} must be a number from 0 to 1, got {value!r}: "
                "the plugin's searches fail with it"
            )
        return float(value)

    top_k: Any = entry.get("topK")
    if number(top_k):
        if top_k != int(top_k) or top_k < 1:
            raise ConfigError(
                f"{path}: {key}.topK must be a positive whole number, got {top_k!r}: "
                "the plugin's searches fail with it"
            )
        out["top_k"] = int(top_k)
    if number(entry.get("searchThreshold")):
        out["search_threshold"] = threshold(entry["searchThreshold"], "searchThreshold")
    out["auto_recall"] = entry.get("autoRecall") is not False
    skills = entry.get("skills")
    if not isinstance(skills, Mapping):
        return out
    recall = _section(skills, "recall")
    if recall.get("threshold") is not None:
        out["recall_threshold"] = threshold(recall["threshold"], "skills.recall.threshold")
    if _section(skills, "triage").get("enabled") is False:
        return out  # not skills mode: only memory_search's threshold is taken from it
    found = Mem0Recall()
    found.enabled = recall.get("enabled") is not False
    if isinstance(recall.get("strategy"), str):
        found.strategy = recall["strategy"]
    if "recall_threshold" in out:
        found.threshold = out["recall_threshold"]
    for field, name in (("max_memories", "maxMemories"), ("token_budget", "tokenBudget")):
        value: Any = recall.get(name)
        if value is not None:
            if not number(value) or value != int(value) or value < 0:
                raise ConfigError(
                    f"{path}: {key}.skills.recall.{name} must be a whole number, got {value!r}"
                )
            setattr(found, field, int(value))
    order = recall.get("categoryOrder")
    if isinstance(order, list) and all(isinstance(c, str) for c in order):
        found.category_order = list(order)
    found.identity_always_include = recall.get("identityAlwaysInclude") is not False
    out["skills"] = found
    return out


def _section(parent: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """A nested object of the plugin's entry, or an empty one (the plugin ignores others)."""
    value = parent.get(key)
    return value if isinstance(value, Mapping) else {}


def _account_name() -> str:
    """The plugin's default user: the account it runs under, else ``default``."""
    import getpass

    try:
        return getpass.getuser() or "default"
    except (KeyError, OSError):
        return "default"


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


def read_own_config(path: Path) -> dict[str, Any]:
    """Settings from amem-tui's own ``config.toml``: ``[collections.<name>] model = "..."``."""
    import tomllib

    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read ({exc})") from exc
    embeddings = embedding_config.read_embeddings_table(raw, path)
    collections = raw.get("collections", {})
    if not isinstance(collections, Mapping):
        raise ConfigError(f"{path}: [collections] must be a table of collection names")
    models: dict[str, str] = {}
    for name, entry in collections.items():
        model = entry.get("model") if isinstance(entry, Mapping) else None
        if not isinstance(model, str) or not model.strip():
            raise ConfigError(f'{path}: collections."{name}".model must be a model name')
        models[str(name)] = model.strip()
    return {**embeddings, **({"collection_models": models} if models else {})}


def _kind(value: Any) -> str:
    """A JSON value's type, as a user who wrote the file calls it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "a list"
    return "an object" if isinstance(value, Mapping) else type(value).__name__


def _dig(raw: Any, keys: tuple[str, ...], path: Path, key: str) -> Any:
    node = raw
    for part in keys:
        if node is None:
            return None
        if not isinstance(node, Mapping):
            raise ConfigError(f"{path}: {key}: expected an object at '{part}', got {_kind(node)}")
        node = node.get(part)
    return node


def _agent(value: Any, path: Path, key: str) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"{path}: {key} must be a string, got {_kind(value)}")
    try:
        return validate_agent_id(value)
    except InvalidInput as exc:
        raise ConfigError(f"{path}: {key}: {exc}") from exc


def _name(value: Any, path: Path, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{path}: {key} must be a non-empty string, got {_kind(value)}")
    if key.endswith(".collection"):
        try:
            validate_collection_name(value)
        except InvalidInput as exc:
            raise ConfigError(f"{path}: {key}: {exc}") from None
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
        "AMEM_CONSOLIDATION_TIMEZONE": "consolidation_timezone",
        "AMEM_BACKEND": "backend",
        "AMEM_CONSOLIDATION_THRESHOLD": "consolidation_threshold",
        "AMEM_USER": "user",
        "AMEM_OPENCLAW_DIR": "openclaw_dir",
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


def discover_config_file(explicit: Path | None, env: Mapping[str, str]) -> Path | None:
    """``--config``, else ``AMEM_CONFIG``, else ``~/.openclaw/openclaw.json`` if it exists."""
    if explicit:
        return explicit
    if env.get("AMEM_CONFIG"):
        return Path(env["AMEM_CONFIG"]).expanduser()
    default = OPENCLAW_CONFIG.expanduser()
    return default if default.is_file() else None


def demo_in_place_of_default(
    settings: Settings, flags: Mapping[str, Any], env: Mapping[str, str] | None = None
) -> Settings | None:
    """The demo store's settings when nothing names a store, the default store does
    not exist yet and ``amem-tui demo`` made its own; else None.

    So the README's examples, run after ``amem-tui demo`` with no ``--store``, reach
    the demo's notes; a store of one's own (``--store``, ``--url``, or the default
    folder once written) always wins. The demo's openclaw.json comes with it unless a
    configuration was found.
    """
    from amem_tui.engine.store import holds_store

    if settings.url is not None or settings.store_path is not None:
        return None
    demo = demo_dir()
    if holds_store(settings.embedded_path) or not holds_store(demo):
        return None
    instead: dict[str, Any] = {**flags, "store_path": demo}
    demo_config = demo / "openclaw.json"
    if settings.config_file is None and demo_config.is_file():
        instead["config_file"] = demo_config
    return load_settings(instead, env)


def demo_stands_in_for_default(settings: Settings) -> bool:
    """Whether commands that name no store reach the store of ``settings`` in place of
    the default one (``demo_in_place_of_default``)."""
    from amem_tui.engine.store import holds_store

    here = settings.embedded_path
    return not settings.url and here == demo_dir() and not holds_store(default_store_dir())


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
        _layer(merged, source, from_file, lambda k: f"{config_path}: {_FILE_KEYS.get(k, k)}")
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


_BAD_COLLECTION_CHARS = frozenset('/\\<>:"|?*')


def validate_collection_name(name: str) -> str:
    """Return ``name`` if Qdrant accepts it as a collection name, else raise InvalidInput."""
    if not name.strip():
        raise InvalidInput("a collection name must not be empty")
    if (
        name != name.strip()
        or len(name) > 255
        or any(ch in _BAD_COLLECTION_CHARS or not ch.isprintable() for ch in name)
    ):
        raise InvalidInput(
            f"invalid collection name {name!r}: at most 255 printable characters, "
            'no surrounding spaces and none of / \\ < > : " | ? *'
        )
    return name


#: How the configuration file spells each setting (for messages).
_FILE_KEYS = {
    "default_agent": f'plugins.entries["{PLUGIN_NAME}"].config.agentId',
    "top_k": f'plugins.entries["{PLUGIN_NAME}"].config.topK',
    "collection": f'plugins.entries["{PLUGIN_NAME}"].config.collection',
    "agents": f'plugins.entries["{PLUGIN_NAME}"].config.agents',
    "url": f'plugins.entries["{PLUGIN_NAME}"].config.url',
}
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
