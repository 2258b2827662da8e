"""The embedding model of one collection: which model built it, whether we can embed
like it here, and our vectors for what is written into it.

Search asks a collection's model for the embedder whose vectors fit (ours, the agent's
own model or embedder, or none: keyword search, with the reason; chosen by
``amem_tui.engine.embedders``); writes ask it to
check that our vectors may go in, and to embed. The model is told apart from the rest
of the collection (its format, read rules and note index) because it is where new
embedders plug in, and because it reads nothing of the notes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from amem_tui.engine.embed import Embedder, canonical_model_name
from amem_tui.engine.embedders import Choice, Collection, Embedders
from amem_tui.engine.embedding.report import QueryEmbedding
from amem_tui.engine.errors import ModelMismatch
from amem_tui.engine.formats import PayloadFormat
from amem_tui.engine.modelinfo import ModelChoices, ModelInfo, detect_model
from amem_tui.engine.store.base import CREATED_BY, CollectionInfo, NoteStore


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
        self._choice: Choice | None = None
        self._checked = False

    def choose_again(self) -> None:
        """Forget the embedder chosen: the next query chooses with the settings of then
        (remote embeddings allowed or stopped)."""
        self._choice = None

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
        return detect_model(info, configured, self.choices.mem0_dimensions)

    def status(self) -> tuple[bool, str]:
        """Whether the collection can be searched by vector here, and why (or why not).

        Usable: the collection is missing (ours to create), or amem-tui built it, or the
        agent's own model or embedder can be run here (exactly or approximately: see
        ``query_embedding``). Otherwise search falls back to keywords; listing and
        reading always work.
        """
        report = self.query_embedding()
        return report.by_meaning, report.reason

    def query_embedding(self) -> QueryEmbedding:
        """How the collection's queries are embedded here: the model, its pooling and
        weights and where they were found, and whether searches are exact or by words."""
        return self._chosen().report

    def embedder(self) -> Embedder | None:
        """The embedder whose vectors fit this collection's (None: words only)."""
        return self._chosen().embedder

    def _chosen(self) -> Choice:
        if self._choice is None:
            owner = self._owner
            model = self.info()
            info = owner.store.collection_info(owner.name)
            name = owner.real_name if info is not None else owner.name
            if model is not None and model.name is None:
                self._choice = Choice(None, self._unnamed(name, model))
            else:
                ours = self._built_by_us(info, model)
                collection = Collection(name, model, owner.format, ours)
                self._choice = self.embedders.for_collection(collection)
        return self._choice

    def _built_by_us(self, info: CollectionInfo | None, model: ModelInfo | None) -> bool:
        """This engine's model built the collection: its metadata names that model and
        says amem-tui created it, or the metadata or a setting of ours names it as
        amem-tui spells it (other tools never do)."""
        if info is None or model is None:
            return True
        ours = self.ours
        named = model.name
        created = model.source == "metadata" and info.metadata.get("created_by") == CREATED_BY
        return (
            canonical_model_name(named) == ours.model_name
            and (created or (named == ours.model_name and model.source != "mem0 plugin"))
            and info.vector_size in (None, ours.dim)
        )

    def _unnamed(self, real: str, model: ModelInfo) -> QueryEmbedding:
        size = f"{model.vector_size}-dimensional" if model.vector_size else "its"
        hint = f" (the size suggests {model.hint})" if model.hint else ""
        reason = (
            f"collection '{real}' names no embedding model and none is configured for its "
            f"{size} vectors{hint}: keyword search only. To search it by meaning, name its "
            f"model: AMEM_COLLECTION_MODELS='{real}=<model>', or --model <model>"
            + (
                ", or the embedder of the openclaw-mem0 plugin entry"
                if self._owner.format == "mem0"
                else ""
            )
        )
        return QueryEmbedding(collection=real, verdict="words only", reason=reason)

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
