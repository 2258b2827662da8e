"""The settings that let amem-tui embed a query the way each agent does.

openclaw-amem reads its embedding settings from its environment (``AMEM_EMBED_MODEL``,
``AMEM_EMBED_POOLING``, ``AMEM_EMBED_DTYPE``, ``AMEM_EMBED_DEVICE``, ``AMEM_MODEL_DIR``,
``AMEM_MODEL_CACHE``): amem-tui reads the same variables. OpenClaw installs plugins in
its state folder (``OPENCLAW_STATE_DIR``, else ``~/.openclaw``), where the plugin's
Transformers.js cache lives. The mem0 plugin's embedder comes from its openclaw.json
entry; its key from the entry's ``apiKey`` (``${VAR}`` expanded, as OpenClaw expands
config strings), else the variable the provider's SDK reads, looked up as OpenClaw's
gateway would find it: the environment, then ``<state>/.env``, then the ``env`` block of
openclaw.json. Our own: ``AMEM_MODEL_FOLDERS`` and ``AMEM_REMOTE_EMBEDDINGS``, and the
``[embeddings]`` table of config.toml.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from amem_tui.engine.embedding.remote_spec import DEFAULT_MODEL, DEFAULT_PROVIDER, Mem0Embedder
from amem_tui.engine.errors import ConfigError

#: Environment variables read into the engine's settings, and their fields.
ENV_FIELDS = {
    "AMEM_EMBED_MODEL": "amem_embed_model",
    "AMEM_EMBED_POOLING": "amem_embed_pooling",
    "AMEM_EMBED_DTYPE": "amem_embed_dtype",
    "AMEM_EMBED_DEVICE": "amem_embed_device",
    "AMEM_MODEL_DIR": "amem_model_dir",
    "AMEM_MODEL_CACHE": "amem_model_cache",
}
#: Where OpenClaw keeps its state, and where plugins go, when nothing says otherwise.
OPENCLAW_STATE = Path("~/.openclaw")
#: The variable each provider's SDK reads its key from, in order.
KEY_VARIABLES = {
    "openai": ("OPENAI_API_KEY",),
    "google": ("GOOGLE_API_KEY", "GEMINI_API_KEY"),
    "gemini": ("GOOGLE_API_KEY", "GEMINI_API_KEY"),
}
#: The variable each provider's SDK reads its base URL from.
BASE_URL_VARIABLES = {
    "openai": "OPENAI_BASE_URL",
    "google": "GOOGLE_GEMINI_BASE_URL",
    "gemini": "GOOGLE_GEMINI_BASE_URL",
}
_TRUE = {"1", "true", "yes", "on"}
_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def env_settings(env: Mapping[str, str]) -> dict[str, Any]:
    """The engine settings the environment gives for embedding."""
    out: dict[str, Any] = {}
    for var, field in ENV_FIELDS.items():
        value = env.get(var, "").strip()
        if value:
            out[field] = Path(value).expanduser() if field.startswith("amem_model_") else value
    folders = env.get("AMEM_MODEL_FOLDERS", "")
    if folders.strip():
        out["model_folders"] = [Path(p).expanduser() for p in folders.split(os.pathsep) if p]
    if "AMEM_REMOTE_EMBEDDINGS" in env:
        out["remote_embeddings"] = env["AMEM_REMOTE_EMBEDDINGS"].strip().lower() in _TRUE
    state = env.get("OPENCLAW_STATE_DIR", "").strip()
    if state:
        out["openclaw_state_dir"] = Path(state).expanduser()
    return out


def read_embeddings_table(raw: Mapping[str, Any], path: Path) -> dict[str, Any]:
    """``[embeddings]`` of config.toml: ``remote`` (bool), ``model_folders`` (paths)."""
    table = raw.get("embeddings", {})
    if not isinstance(table, Mapping):
        raise ConfigError(f"{path}: [embeddings] must be a table")
    out: dict[str, Any] = {}
    if "remote" in table:
        if not isinstance(table["remote"], bool):
            raise ConfigError(f"{path}: embeddings.remote must be true or false")
        out["remote_embeddings"] = table["remote"]
    if "model_folders" in table:
        folders = table["model_folders"]
        if not isinstance(folders, list) or not all(isinstance(f, str) for f in folders):
            raise ConfigError(f"{path}: embeddings.model_folders must be a list of folders")
        out["model_folders"] = [Path(f).expanduser() for f in folders]
    return out


def default_openclaw_dir(config_file: Path | None) -> Path | None:
    """OpenClaw's state folder when ``OPENCLAW_STATE_DIR`` is unset: the folder of the
    openclaw.json in use, else ``~/.openclaw`` if it exists."""
    if config_file is not None and config_file.name == "openclaw.json":
        return config_file.expanduser().parent
    home = OPENCLAW_STATE.expanduser()
    return home if home.is_dir() else None


def plugin_install_dirs(raw: Mapping[str, Any]) -> list[Path]:
    """openclaw-amem's install folder as openclaw.json records it (``plugins.installs``)."""
    plugins = raw.get("plugins")
    installs = plugins.get("installs") if isinstance(plugins, Mapping) else None
    record = installs.get("openclaw-amem") if isinstance(installs, Mapping) else None
    where = record.get("installPath") if isinstance(record, Mapping) else None
    return [Path(where).expanduser()] if isinstance(where, str) and where.strip() else []


def openclaw_env_block(raw: Mapping[str, Any]) -> dict[str, str]:
    """The ``env`` block of openclaw.json: string values, and those under ``vars``."""
    block = raw.get("env")
    if not isinstance(block, Mapping):
        return {}
    out = {k: v for k, v in block.items() if isinstance(v, str)}
    nested = block.get("vars")
    if isinstance(nested, Mapping):
        out.update({k: v for k, v in nested.items() if isinstance(v, str) and k not in out})
    return out


def mem0_embedder(entry: Mapping[str, Any], embedder: Mapping[str, Any]) -> Mem0Embedder | None:
    """The embedder the plugin builds from its entry, in open-source mode (None
    otherwise: the platform embeds in mem0's cloud). The key is completed later
    (``with_key``), from the entry or the environment."""
    oss = entry.get("oss")
    if entry.get("mode") != "open-source" and not isinstance(oss, Mapping):
        return None
    config = embedder.get("config")
    config = {k: v for k, v in config.items() if v != ""} if isinstance(config, Mapping) else {}
    if config.get("host") and not config.get("url"):  # as the plugin renames it
        config["url"] = config.pop("host")

    def text(key: str) -> str | None:
        value = config.get(key)
        return value.strip() if isinstance(value, str) and value.strip() else None

    named = embedder.get("provider")
    provider = named.strip() if isinstance(named, str) and named.strip() else DEFAULT_PROVIDER
    dims = config.get("embeddingDims")
    props = config.get("modelProperties")
    return Mem0Embedder(
        provider=provider,
        model=text("model") or DEFAULT_MODEL,
        url=text("url"),
        base_url=text("baseURL"),
        api_key=SecretStr(key) if (key := text("apiKey")) else None,
        key_source="openclaw.json apiKey" if text("apiKey") else None,
        dimensions=dims if isinstance(dims, int) and not isinstance(dims, bool) else None,
        model_properties=(
            {k: str(v) for k, v in props.items() if isinstance(v, str | int | float)}
            if isinstance(props, Mapping)
            else {}
        ),
    )


def with_key(
    spec: Mem0Embedder, env: Mapping[str, str], state_dir: Path | None, block: Mapping[str, str]
) -> Mem0Embedder:
    """``spec`` with its key and base URL found where the plugin's process finds them."""
    found = gateway_env(env, state_dir, block)
    update: dict[str, Any] = {}
    key = spec.api_key.get_secret_value() if spec.api_key else None
    if key is not None and _REFERENCE.search(key):
        key = _REFERENCE.sub(lambda m: found.get(m.group(1), ""), key).strip() or None
        update["api_key"] = SecretStr(key) if key else None
    if key is None:
        for var in KEY_VARIABLES.get(spec.provider.lower(), ()):
            if found.get(var, "").strip():
                update["api_key"] = SecretStr(found[var].strip())
                update["key_source"] = var
                break
    base_var = BASE_URL_VARIABLES.get(spec.provider.lower())
    if base_var and found.get(base_var, "").strip():
        update["env_base_url"] = found[base_var].strip()
    if found.get("OPENAI_API_VERSION", "").strip():
        update["env_api_version"] = found["OPENAI_API_VERSION"].strip()
    return spec.model_copy(update=update)


def gateway_env(
    env: Mapping[str, str], state_dir: Path | None, block: Mapping[str, str]
) -> dict[str, str]:
    """The variables OpenClaw's gateway would have: the environment, then its state
    folder's ``.env``, then openclaw.json's ``env`` block (none overrides another)."""
    merged = dict(block)
    if state_dir is not None:
        merged.update(_dotenv(state_dir / ".env"))
    merged.update(env)
    return merged


def _dotenv(path: Path) -> dict[str, str]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    out: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        name, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        out[name.strip()] = value
    return out
