"""The embedding model of one collection: which model built it, whether we can embed
like it here, and our vectors for what is written into it.

Search asks a collection's model for the embedder whose vectors fit (ours, a model
already on this machine, or none: keyword search, with the reason); writes ask it to
check that our vectors may go in, and to embed. The model is told apart from the rest
of the collection (its format, read rules and note index) because it is where new
embedders plug in, and because it reads nothing of the notes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from amem_tui.engine.embed import Embedder, canonical_model_name
from amem_tui.engine.errors import ModelMismatch
from amem_tui.engine.formats import PayloadFormat
from amem_tui.engine.modelinfo import Embedders, ModelChoices, ModelInfo, detect_model
from amem_tui.engine.store.base import NoteStore


class ModelOwner(Protocol):
    """What the model needs of its collection: the store, the name asked for, the real
    name behind an alias, and the payload format (a mem0 collection may take its model
    from the plugin's embedder)."""

    @property
    def store(self) -> NoteStore: ...

    @property
    def name(self) -> str: ...

    @property
    def real_name(self) -> str: ...

    @property
    def format(self) -> PayloadFormat: ...


class CollectionModel:
    """The model of one collection, and the embedders that can compute its vectors."""

    def __init__(self, owner: ModelOwner, embedders: Embedders, choices: ModelChoices) -> None:
        self._owner = owner
        self.embedders = embedders
        self.choices = choices
        self._status: tuple[bool, str] | None = None
        self._checked = False

    @property
    def ours(self) -> Embedder:
        """The engine's own embedder: what every write into a collection of ours uses."""
        return self.embedders.ours

    def info(self) -> ModelInfo | None:
        """The model that built the collection (metadata, else the settings), or None
        while the collection does not exist."""
        owner = self._owner
        info = owner.store.collection_info(owner.name)
        if info is None:
            return None
        configured = self.choices.for_collection((owner.name, info.name), owner.format == "mem0")
        return detect_model(info, configured)

    def status(self) -> tuple[bool, str]:
        """Whether the collection can be searched by vector here, and why (or why not).

        Usable: the collection is missing (ours to create), or was built by our model,
        or by a model fastembed already has on this machine. Otherwise search falls
        back to keywords; listing and reading always work.
        """
        if self._status is not None:
            return self._status
        ours = self.ours
        name = self._owner.name
        model = self.info()
        if model is None:
            return (
                True,
                f"collection '{name}' does not exist yet; {ours.model_name} will build it",
            )
        real = self._owner.real_name
        if model.name is None:
            status = (False, self._unnamed(real, model))
        else:
            named = model.name
            if model.source != "metadata":
                named = f"{named} (no embedding_model metadata; named by {model.source})"
            size = f"{model.vector_size}-dimensional" if model.vector_size else "unknown-size"
            if self._fits_ours(model):
                status = (True, f"collection '{real}' was built with {ours.model_name}")
            elif self.embedders.for_model(model) is not None:
                status = (
                    True,
                    f"collection '{real}' was built with {named}; searching with it "
                    "from the local fastembed cache",
                )
            else:
                status = (
                    False,
                    f"collection '{real}' was built with {named} ({size} vectors), which is "
                    f"not available offline; this engine embeds with {ours.model_name}: "
                    "keyword search only",
                )
        self._status = status
        return status

    def _fits_ours(self, model: ModelInfo) -> bool:
        ours = self.ours
        return canonical_model_name(model.name) == ours.model_name and model.vector_size in (
            None,
            ours.dim,
        )

    def _unnamed(self, real: str, model: ModelInfo) -> str:
        size = f"{model.vector_size}-dimensional" if model.vector_size else "its"
        hint = f" (the size suggests {model.hint})" if model.hint else ""
        return (
            f"collection '{real}' names no embedding model and none is configured for its "
            f"{size} vectors{hint}: keyword search only. To search it by meaning, name its "
            f"model: AMEM_COLLECTION_MODELS='{real}=<model>', or --model <model>"
            + (
                ", or the embedder of the openclaw-mem0 plugin entry"
                if self._owner.format == "mem0"
                else ""
            )
        )

    def embedder(self) -> Embedder | None:
        """The embedder whose vectors fit this collection: ours, a local one, or None."""
        usable, _ = self.status()
        if not usable:
            return None
        model = self.info()
        if model is None or self._fits_ours(model):
            return self.ours
        return self.embedders.for_model(model)

    def check(self) -> None:
        """Refuse to put our vectors into a collection built by another model."""
        if self._checked:
            return
        info = self._owner.store.collection_info(self._owner.name)
        if info is None:
            return
        ours = self.ours
        theirs = canonical_model_name(info.embedding_model)
        if theirs is not None and theirs != ours.model_name:
            raise ModelMismatch(
                f"collection '{info.name}' was built with {info.embedding_model}; "
                f"this engine embeds with {ours.model_name}: its vectors cannot be mixed"
            )
        if info.vector_size is not None and info.vector_size != ours.dim:
            raise ModelMismatch(
                f"collection '{info.name}' holds {info.vector_size}-dimensional vectors; "
                f"{ours.model_name} makes {ours.dim}-dimensional ones"
            )
        if theirs is None and info.vector_size is not None:
            # No metadata: we always write it, so another tool built this collection.
            raise ModelMismatch(
                f"collection '{info.name}' names no embedding_model: another tool built it, "
                f"and {ours.model_name} vectors are never mixed into it"
            )
        self._checked = True

    def ensure(self, sparse: Sequence[str] = ()) -> None:
        """Make sure the collection exists and takes our vectors, creating it if missing
        (with the named ``sparse`` vector slots)."""
        self.check()
        if not self._checked:
            ours = self.ours
            self._owner.store.ensure_collection(
                self._owner.name, ours.dim, ours.model_name, sparse=sparse
            )
            self._checked = True

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Our vectors for texts written into this collection (after ``check``)."""
        self.check()
        return [row.tolist() for row in self.ours.embed_documents(texts)]
