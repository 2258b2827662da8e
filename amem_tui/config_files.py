"""The configuration files: which ``openclaw.json`` is read, and what it and amem-tui's
own ``config.toml`` say, keyed like ``Settings``.

``amem_tui.config`` merges what these give with the environment and the flags. A
file's mistakes are refused here, with the file and the key that hold them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from amem_tui import embedding_config
from amem_tui.engine.errors import ConfigError, InvalidInput
from amem_tui.engine.scope import validate_agent_id
from amem_tui.engine.settings import AgentConfig, Mem0PluginConfig, Mem0Recall

PLUGIN_NAME = "openclaw-amem"
MEM0_PLUGIN_NAME = "openclaw-mem0"
OPENCLAW_CONFIG = Path("~/.openclaw/openclaw.json")


def discover_config_file(explicit: str | Path | None, env: Mapping[str, str]) -> Path | None:
    """``--config``, else ``AMEM_CONFIG``, else ``~/.openclaw/openclaw.json`` if it exists."""
    if explicit:
        return Path(explicit).expanduser()
    if env.get("AMEM_CONFIG"):
        return Path(env["AMEM_CONFIG"]).expanduser()
    default = OPENCLAW_CONFIG.expanduser()
    return default if default.is_file() else None


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


def read_own_config(path: Path) -> dict[str, Any]:
    """Settings from amem-tui's own ``config.toml``: ``[collections.<name>] model = "..."``,
    ``[embeddings]`` and ``[isolation] checks = "FILE"``."""
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
    isolation = raw.get("isolation", {})
    if not isinstance(isolation, Mapping):
        raise ConfigError(f"{path}: [isolation] must be a table")
    checks: dict[str, Any] = {}
    if "checks" in isolation:
        file = isolation["checks"]
        if not isinstance(file, str) or not file.strip():
            raise ConfigError(f"{path}: isolation.checks must be the path of a checks file")
        checks["checks_file"] = Path(file).expanduser()
    return {**embeddings, **checks, **({"collection_models": models} if models else {})}


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
FILE_KEYS = {
    "default_agent": f'plugins.entries["{PLUGIN_NAME}"].config.agentId',
    "top_k": f'plugins.entries["{PLUGIN_NAME}"].config.topK',
    "collection": f'plugins.entries["{PLUGIN_NAME}"].config.collection',
    "agents": f'plugins.entries["{PLUGIN_NAME}"].config.agents',
    "url": f'plugins.entries["{PLUGIN_NAME}"].config.url',
}
