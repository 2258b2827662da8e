"""The settings that let amem-tui embed like each agent: openclaw-amem's own
variables, our model folders and remote-embeddings switch, OpenClaw's state folder, and
the mem0 plugin's embedder with its key."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from amem_tui.config import load_settings
from amem_tui.engine.errors import ConfigError
from amem_tui.paths import config_dir


def _own_config(text: str) -> None:
    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / "config.toml").write_text(text)


def test_openclaw_amem_s_variables_are_read(tmp_path: Path) -> None:
    env = {
        "AMEM_EMBED_MODEL": " Xenova/bge-small-en-v1.5 ",
        "AMEM_EMBED_POOLING": "cls",
        "AMEM_EMBED_DTYPE": "q8",
        "AMEM_EMBED_DEVICE": "wasm",
        "AMEM_MODEL_DIR": str(tmp_path / "models"),
        "AMEM_MODEL_CACHE": str(tmp_path / "cache"),
        "AMEM_MODEL_FOLDERS": os.pathsep.join([str(tmp_path / "a"), str(tmp_path / "b")]),
        "AMEM_REMOTE_EMBEDDINGS": "1",
        "OPENCLAW_STATE_DIR": str(tmp_path / "state"),
    }
    settings = load_settings({}, env=env)
    assert settings.amem_embed_model == "Xenova/bge-small-en-v1.5"
    assert (settings.amem_embed_pooling, settings.amem_embed_dtype) == ("cls", "q8")
    assert settings.amem_embed_device == "wasm"
    assert settings.amem_model_dir == tmp_path / "models"
    assert settings.amem_model_cache == tmp_path / "cache"
    assert settings.model_folders == [tmp_path / "a", tmp_path / "b"]
    assert settings.remote_embeddings is True
    assert settings.openclaw_state_dir == tmp_path / "state"
    assert load_settings({}, env={}).remote_embeddings is False


def test_config_toml_s_embeddings_table(tmp_path: Path) -> None:
    _own_config(f'[embeddings]\nremote = true\nmodel_folders = ["{tmp_path}"]\n')
    settings = load_settings({}, env={})
    assert settings.remote_embeddings is True and settings.model_folders == [tmp_path]
    assert load_settings({}, env={"AMEM_REMOTE_EMBEDDINGS": "no"}).remote_embeddings is False


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('embeddings = "on"', "[embeddings] must be a table"),
        ('[embeddings]\nremote = "yes"', "embeddings.remote must be true or false"),
        ("[embeddings]\nmodel_folders = 3", "embeddings.model_folders must be a list"),
    ],
)
def test_a_bad_embeddings_table_is_refused(text: str, fragment: str) -> None:
    _own_config(text)
    with pytest.raises(ConfigError, match=r"config\.toml") as caught:
        load_settings({}, env={})
    assert fragment in str(caught.value)


def _openclaw(tmp_path: Path, config: dict[str, Any], **top: Any) -> Path:
    path = tmp_path / "openclaw.json"
    path.write_text(
        json.dumps({"plugins": {"entries": {"openclaw-mem0": {"config": config}}}, **top})
    )
    return path


def test_the_plugin_install_openclaw_json_records_is_looked_in(tmp_path: Path) -> None:
    path = tmp_path / "openclaw.json"
    installs = {"openclaw-amem": {"source": "npm", "installPath": str(tmp_path / "ext")}}
    path.write_text(json.dumps({"plugins": {"installs": installs}}))
    assert load_settings({"config_file": path}, env={}).amem_plugin_dirs == [tmp_path / "ext"]


def test_the_mem0_embedder_as_the_plugin_builds_it(tmp_path: Path) -> None:
    entry = {
        "mode": "open-source",
        "oss": {"embedder": {"provider": "ollama", "config": {"host": "gpu:11434", "model": ""}}},
    }
    settings = load_settings({"config_file": _openclaw(tmp_path, entry)}, env={})
    assert settings.mem0 is not None and settings.mem0.embedder is not None
    spec = settings.mem0.embedder
    # host is taken as url; an empty model gives way to the plugin's default.
    assert (spec.provider, spec.model, spec.url) == (
        "ollama",
        "text-embedding-3-small",
        "gpu:11434",
    )
    # Platform mode embeds in mem0's cloud: no embedder of its own.
    platform = load_settings({"config_file": _openclaw(tmp_path, {"userId": "a"})}, env={})
    assert platform.mem0 is not None and platform.mem0.embedder is None


def test_the_key_is_found_where_the_plugin_finds_it_and_never_shown(tmp_path: Path) -> None:
    entry = {"mode": "open-source", "oss": {"embedder": {"provider": "openai", "config": {}}}}
    path = _openclaw(tmp_path, entry, env={"OPENAI_API_KEY": "from-block"})
    (tmp_path / ".env").write_text("OPENAI_API_KEY='from-dotenv'\n")

    def key(env: dict[str, str]) -> str | None:
        spec = load_settings({"config_file": path}, env=env).mem0.embedder  # type: ignore[union-attr]
        assert spec is not None and "from-" not in repr(spec) + spec.model_dump_json()
        return spec.api_key.get_secret_value() if spec.api_key else None

    assert key({"OPENAI_API_KEY": "from-env"}) == "from-env"
    assert key({}) == "from-dotenv"
    (tmp_path / ".env").unlink()
    assert key({}) == "from-block"
