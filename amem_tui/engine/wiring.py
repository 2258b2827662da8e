"""What the facade builds from the settings: the store, the model choices, the Mode A
collection found in a store nobody named one for."""

from __future__ import annotations

import re
from pathlib import Path

from amem_tui.engine.collections import Collections
from amem_tui.engine.embedders import EmbeddingSetup
from amem_tui.engine.embedding.model_files import ModelPlaces
from amem_tui.engine.embedding.recipe import AmemEmbedSettings
from amem_tui.engine.modelinfo import ModelChoices, plugin_model
from amem_tui.engine.settings import EngineSettings
from amem_tui.engine.store import MEMORY, connect
from amem_tui.engine.store.base import NoteStore
from amem_tui.paths import data_dir

#: amem-tui's own model folder, in the data folder (looked in after the others).
MODELS_FOLDER = "models"

#: How the OpenClaw mem0 plugin's set-up names collections: by vector size.
MEM0_SIZED_NAME = re.compile(r"mem0_\d+d")


def model_choices(settings: EngineSettings) -> ModelChoices:
    """What the settings say built collections that name no model."""
    plugin = settings.mem0
    mem0_model = None
    dimensions = None
    if plugin is not None and plugin.embedder is not None:
        spec = plugin.embedder
        mem0_model = plugin_model(spec.provider, spec.model) or spec.label
        dimensions = spec.dimensions
    elif plugin is not None:
        mem0_model = plugin_model(plugin.embedder_provider, plugin.embedder_model)
    return ModelChoices(
        per_collection=dict(settings.collection_models),
        default=settings.model,
        amem=settings.amem_embed_model,
        mem0_plugin=mem0_model,
        mem0_dimensions=dimensions,
    )


def embedding_setup(settings: EngineSettings) -> EmbeddingSetup:
    """Where other systems' model files are, how openclaw-amem embeds, and whether the
    mem0 plugin's embedder may be asked."""
    places = ModelPlaces(
        amem_cache=settings.amem_model_cache,
        amem_dir=settings.amem_model_dir,
        openclaw_dir=settings.openclaw_state_dir or settings.openclaw_folder,
        plugin_dirs=tuple(settings.amem_plugin_dirs),
        folders=tuple(settings.model_folders),
        default_folder=data_dir() / MODELS_FOLDER,
    )
    amem = AmemEmbedSettings(
        model=settings.amem_embed_model,
        pooling=settings.amem_embed_pooling,
        dtype=settings.amem_embed_dtype,
        device=settings.amem_embed_device,
    )
    mem0 = settings.mem0.embedder if settings.mem0 is not None else None
    return EmbeddingSetup(amem, places, settings.remote_embeddings, mem0)


def find_mem0_collection(collections: Collections, settings: EngineSettings) -> str | None:
    """The mem0 collection to read when none was chosen and the default does not exist.

    Looked for as the OpenClaw mem0 plugin names it: its entry's ``collectionName``,
    then ``mem0_<dims>d`` (its set-up names collections by vector size), then the
    TypeScript SDK's ``memories`` and Python mem0's ``mem0``.
    """
    store = collections.store
    if store.collection_info(settings.collection) is not None:
        return None
    names = store.list_collections()
    candidates: list[str] = []
    plugin = settings.mem0
    if plugin is not None and plugin.collection_name:
        candidates.append(plugin.collection_name)
    if plugin is not None and plugin.dimension:
        candidates.append(f"mem0_{plugin.dimension}d")
    candidates += sorted(n for n in names if MEM0_SIZED_NAME.fullmatch(n))
    candidates += ["memories", "mem0"]
    for name in dict.fromkeys(candidates):
        if (name in names or store.collection_info(name) is not None) and collections.get(
            name
        ).format == "mem0":
            return name
    return None


def open_store(settings: EngineSettings) -> NoteStore:
    """Open the store the settings name: a server URL, else the embedded folder.

    Embedded folders open on Qdrant Edge unless qdrant-client's local mode wrote them
    (or ``AMEM_BACKEND=qdrant-local`` asks for it); ``:memory:`` is qdrant-client's.
    """
    if settings.url:
        return connect(url=settings.url, api_key=settings.api_key)
    if str(settings.store_path) == MEMORY:
        return connect(path=MEMORY)
    return connect(
        path=Path(settings.embedded_path), backend=settings.backend, read_only=settings.read_only
    )
