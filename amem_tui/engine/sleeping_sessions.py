"""fastembed models whose ONNX thread pools sleep when they have nothing to do.

onnxruntime's threads spin for work after each run by default. A search box embeds
one short query per keystroke burst, so a spinning thread kept a core busy between
queries, taken from the UI thread and the terminal on a 2-core machine. Sleeping
threads cost a query a little time and a batch of documents none (docs/performance.md,
"The embedding model's threads").

fastembed builds the session itself and exposes only some of its options, so each
model class gets a subclass that adds one more through fastembed's own hook.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import onnxruntime as ort
    from fastembed.text.text_embedding_base import TextEmbeddingBase

#: The extra session option our model classes accept (False: threads sleep when idle).
ALLOW_SPINNING = "allow_spinning"
_SPIN_ENTRIES = ("session.intra_op.allow_spinning", "session.inter_op.allow_spinning")
_CLASSES: dict[type, type[TextEmbeddingBase]] = {}
_CLASSES_LOCK = threading.Lock()


def load_text_model(model_name: str, **options: Any) -> TextEmbeddingBase:
    """fastembed's model for ``model_name``, built with ``options`` and sessions whose
    idle threads sleep."""
    return _sleeping_class(_model_class(model_name))(model_name, allow_spinning=False, **options)


def _model_class(model_name: str) -> type[TextEmbeddingBase]:
    from fastembed import TextEmbedding

    for model_class in TextEmbedding.EMBEDDINGS_REGISTRY:
        if any(
            spec.model.lower() == model_name.lower()
            for spec in model_class._list_supported_models()
        ):
            return model_class
    raise ValueError(f"fastembed does not know the model {model_name!r}")


def _sleeping_class(model_class: type[TextEmbeddingBase]) -> type[TextEmbeddingBase]:
    with _CLASSES_LOCK:
        found = _CLASSES.get(model_class)
        if found is None:
            found = _CLASSES[model_class] = _subclass(model_class)
        return found


def _subclass(model_class: type[TextEmbeddingBase]) -> type[TextEmbeddingBase]:
    exposed = (*getattr(model_class, "EXPOSED_SESSION_OPTIONS", ()), ALLOW_SPINNING)

    def add_extra_session_options(
        cls: type, session_options: ort.SessionOptions, extra_options: dict[str, Any]
    ) -> None:
        extra = dict(extra_options)
        if not extra.pop(ALLOW_SPINNING, True):
            for entry in _SPIN_ENTRIES:
                session_options.add_session_config_entry(entry, "0")
        super(sleeping, cls).add_extra_session_options(session_options, extra)  # type: ignore[misc]

    sleeping: type[TextEmbeddingBase] = type(
        model_class.__name__,
        (model_class,),
        {
            "EXPOSED_SESSION_OPTIONS": exposed,
            "add_extra_session_options": classmethod(add_extra_session_options),
            "__doc__": f"{model_class.__name__} whose ONNX threads sleep when idle.",
        },
    )
    return sleeping
