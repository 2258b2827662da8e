"""The embedders of one engine: its own, and those that embed another system's
collection the way that system's agent embeds a query.

For each collection, ``Embedders.for_collection`` picks one and says how exact it
is (``QueryEmbedding``):

- a collection amem-tui built: its own model, exactly;
- openclaw-amem's: the model its metadata names (else ``AMEM_EMBED_MODEL``), run from
  the files openclaw-amem already keeps, with amem's pooling and weights file, exactly;
  else the same model from amem-tui's own build or fastembed's cache, approximately;
  else words only, naming every place looked in and ``AMEM_MODEL_DIR``;
- the mem0 plugin's: its configured embedder over HTTP, exactly, when remote
  embeddings are allowed (the query leaves the machine); else the same model locally,
  approximately; else words only, naming ``--remote-embeddings``.

Each embedder is made once per engine and loaded when first used (a worker thread's
job: nothing here loads a model).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace

from amem_tui.engine.embed import Embedder, canonical_model_name
from amem_tui.engine.embedding.model_files import FoundModel, ModelPlaces, find_model
from amem_tui.engine.embedding.onnx_embedder import OnnxEmbedder
from amem_tui.engine.embedding.recipe import AmemEmbedSettings, pooling_of
from amem_tui.engine.embedding.remote import RemoteEmbedder
from amem_tui.engine.embedding.remote_spec import Mem0Embedder
from amem_tui.engine.embedding.report import QueryEmbedding, Verdict
from amem_tui.engine.modelinfo import ModelInfo, available_offline, offline_embedder

#: The flag, variable and key that allow remote embeddings, as notices name them.
REMOTE_SWITCH = "--remote-embeddings (AMEM_REMOTE_EMBEDDINGS=1, or remote = true in config.toml)"


@dataclass(frozen=True)
class EmbeddingSetup:
    """What the settings say about embedding queries for other systems' collections."""

    amem: AmemEmbedSettings = field(default_factory=AmemEmbedSettings)
    places: ModelPlaces = field(default_factory=ModelPlaces)
    #: The user allows queries to be sent to the mem0 plugin's embedder.
    remote: bool = False
    #: The mem0 plugin's embedder (None: no plugin entry, or none in open-source mode).
    mem0: Mem0Embedder | None = None


@dataclass(frozen=True)
class Choice:
    """The embedder a collection's queries use (None: words only), and how exact."""

    embedder: Embedder | None
    report: QueryEmbedding


@dataclass(frozen=True)
class Collection:
    """What the choice needs to know of a collection."""

    name: str
    model: ModelInfo | None
    format: str
    #: amem-tui built it (its metadata says so, or it names our model at our size).
    ours: bool


class Embedders:
    """The engine's own embedder, and the ones other collections need (made once)."""

    def __init__(self, ours: Embedder, setup: EmbeddingSetup | None = None) -> None:
        self.ours = ours
        self.setup = setup or EmbeddingSetup()
        self._made: dict[Hashable, Embedder | None] = {}
        self._lock = threading.Lock()

    def allow_remote(self, allowed: bool) -> None:
        """Allow (or stop) sending mem0 queries to the plugin's embedder from now on
        (collections choose again: see ``CollectionModel.choose_again``)."""
        self.setup = replace(self.setup, remote=allowed)

    def for_collection(self, collection: Collection) -> Choice:
        """The embedder for ``collection``'s queries, and how exact it is."""
        model = collection.model
        ours = self.ours.model_name
        runtime = f"amem-tui's own {ours}"
        if model is None:  # not created yet: it will be ours
            why = f"collection '{collection.name}' does not exist yet; {ours} will build it"
            return Choice(self.ours, _report(collection, "exact", why, runtime=runtime))
        if collection.ours:
            why = f"collection '{collection.name}' was built with {ours}"
            return Choice(self.ours, _report(collection, "exact", why, runtime=runtime))
        if model.name is None:
            return Choice(None, _report(collection, "words only"))
        if collection.format == "mem0":
            return self._mem0(collection, model.name)
        return self._amem(collection, model.name)

    # ------------------------------------------------------------- openclaw-amem
    def _amem(self, collection: Collection, name: str) -> Choice:
        setup = self.setup
        found = find_model(name, setup.places.places(), setup.amem)
        if isinstance(found, FoundModel):
            pooling, pooling_source = pooling_of(name, setup.amem.pooling)
            size = collection.model.vector_size if collection.model else None
            key = ("onnx", found.folder, found.weights.file, pooling)
            embedder = self._once(key, lambda: OnnxEmbedder(found, pooling, size))
            report = _report(
                collection,
                "exact",
                f"{_built(collection)}; embedded as openclaw-amem embeds it: {pooling} "
                f"pooling, {found.weights.file} from {found.place.label}",
                runtime="onnxruntime",
                pooling=pooling,
                pooling_source=pooling_source,
                weights=found.weights.file,
                dtype=found.weights.dtype,
                dtype_source=found.weights.source,
                folder=str(found.folder),
                found_in=found.place.label,
            )
            return Choice(embedder, report)
        looked = list(found.looked_in)
        local = self._local(collection, name)
        if local is not None:
            embedder, runtime = local
            return Choice(
                embedder,
                _report(
                    collection,
                    "approximate",
                    f"{_built(collection)}; {runtime} is the same model in another build, "
                    "so similarities differ slightly from the agent's (openclaw-amem's files "
                    "for it are not on this machine: put them in AMEM_MODEL_DIR for exact "
                    "ones)",
                    runtime=runtime,
                    looked_in=looked,
                ),
            )
        size = collection.model.vector_size if collection.model else None
        shown = f"{size}-dimensional" if size else "its"
        return Choice(
            None,
            _report(
                collection,
                "words only",
                f"{_built(collection)} ({shown} vectors), whose files are not on this "
                "machine: keyword search "
                f"only. Looked in: {'; '.join(looked) or 'nowhere'}. Put the model in "
                f"AMEM_MODEL_DIR in the repository layout (<dir>/{name}/config.json, "
                "tokenizer.json, tokenizer_config.json, onnx/model.onnx), as openclaw-amem "
                "reads it",
                looked_in=looked,
            ),
        )

    # ---------------------------------------------------------------------- mem0
    def _mem0(self, collection: Collection, name: str) -> Choice:
        model = collection.model
        spec = self.setup.mem0
        from_plugin = model is not None and model.source == "mem0 plugin"
        if from_plugin and spec is not None and spec.plain_http and self.setup.remote:
            size = model.vector_size if model else None
            remote = RemoteEmbedder(spec, size)
            key = ("remote", spec.model_dump_json(), size)
            embedder = self._once(key, lambda: remote)
            return Choice(
                embedder,
                _report(
                    collection,
                    "exact",
                    f"{_built(collection)}; embedded by the mem0 plugin's own embedder, "
                    f"{spec.label} at {remote.endpoint} (remote embeddings are allowed)",
                    runtime=spec.provider,
                    endpoint=remote.endpoint,
                    key_source=spec.key_source,
                ),
            )
        local = self._local(collection, name)
        remote_note = ""
        if from_plugin and spec is not None and spec.plain_http:
            remote_note = (
                f" Allow remote embeddings to embed queries with the plugin's own "
                f"{spec.label}: {REMOTE_SWITCH}."
            )
        if local is not None:
            embedder, runtime = local
            return Choice(
                embedder,
                _report(
                    collection,
                    "approximate",
                    f"{_built(collection)}; {runtime} is the same model in another build, "
                    f"so similarities differ slightly from the plugin's.{remote_note}",
                    runtime=runtime,
                ),
            )
        if from_plugin and spec is not None and not spec.plain_http:
            why = f"the plugin's embedder {spec.label} is no HTTP API amem-tui can call"
        elif from_plugin and spec is not None:
            why = (
                f"only the plugin's embedder computes it ({spec.label}, off this machine "
                f"for amem-tui). To embed queries there, allow remote embeddings: "
                f"{REMOTE_SWITCH}"
            )
        else:
            why = "which is not available offline"
        reason = f"{_built(collection)}, {why}: keyword search only"
        return Choice(None, _report(collection, "words only", reason))

    # -------------------------------------------------------------------- shared
    def _local(self, collection: Collection, name: str) -> tuple[Embedder, str] | None:
        """The same model computed here: ours under another name, or fastembed's copy."""
        model = collection.model
        size = model.vector_size if model else None
        ours = self.ours
        if canonical_model_name(name) == ours.model_name and size in (None, ours.dim):
            return ours, f"amem-tui's own {ours.model_name}"
        fast = model.fastembed_name if model else None
        if not fast:
            return None
        embedder = self._once(("fastembed", fast), lambda: _offline(fast, size))
        return (embedder, f"fastembed's {fast}") if embedder is not None else None

    def _once(self, key: Hashable, make: Callable[[], Embedder | None]) -> Embedder | None:
        with self._lock:
            if key in self._made:
                return self._made[key]
        made = make()
        with self._lock:
            return self._made.setdefault(key, made)


def _offline(name: str, size: int | None) -> Embedder | None:
    if not available_offline(name):
        return None
    embedder = offline_embedder(name)
    return embedder if size is None or embedder.dim == size else None


def _built(collection: Collection) -> str:
    """``collection 'X' was built with <model>``, saying where the name came from."""
    model = collection.model
    named = model.name if model is not None and model.name else "an unnamed model"
    if model is not None and model.name and model.source != "metadata":
        named += f" (no embedding_model metadata; named by {model.source})"
    return f"collection '{collection.name}' was built with {named}"


def _report(
    collection: Collection, verdict: Verdict, reason: str = "", **details: object
) -> QueryEmbedding:
    model = collection.model
    return QueryEmbedding.model_validate(
        {
            "collection": collection.name,
            "model": model.name if model else None,
            "model_source": model.source if model else "none",
            "verdict": verdict,
            "reason": reason,
            **details,
        }
    )
