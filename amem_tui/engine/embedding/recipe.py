"""How openclaw-amem embeds a query: its model, pooling and weights file.

amem-core (``src/embedding.ts``) hands a model id to Transformers.js'
``feature-extraction`` pipeline with ``AMEM_EMBED_POOLING`` (else its own table of
CLS-pooled models, else mean), ``AMEM_EMBED_DTYPE`` and ``AMEM_EMBED_DEVICE``; the
library then picks the weights file from the dtype (``onnx/model<suffix>.onnx``) and
reads external data files when the model's ``config.json`` asks for them. These are
pure functions of those settings and that file: nothing here reads the disk.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

Pooling = Literal["mean", "cls"]

#: amem-core's models trained with CLS pooling, by repository basename (its own table:
#: ``Xenova/bge-m3`` and ``BAAI/bge-m3`` resolve alike). Any other model is mean-pooled.
CLS_POOLED_MODELS = frozenset(
    {
        "bge-m3",
        "bge-base-zh-v1.5",
        "bge-small-zh-v1.5",
        "bge-base-en-v1.5",
        "bge-small-en-v1.5",
        "bge-large-en-v1.5",
        "gte-multilingual-base",
        "gte-modernbert-base",
        "gte-large-en-v1.5",
        "snowflake-arctic-embed-m",
        "snowflake-arctic-embed-l",
    }
)

#: Transformers.js' dtypes and the suffix each gives the weights file's name.
DTYPE_SUFFIXES: Mapping[str, str] = {
    "fp32": "",
    "fp16": "_fp16",
    "int8": "_int8",
    "uint8": "_uint8",
    "q8": "_quantized",
    "q4": "_q4",
    "q2": "_q2",
    "q1": "_q1",
    "q4f16": "_q4f16",
    "q2f16": "_q2f16",
    "q1f16": "_q1f16",
    "bnb4": "_bnb4",
}
#: Where Transformers.js runs when nothing names a device (on Node).
DEFAULT_DEVICE = "cpu"
#: Devices whose default dtype is not fp32 (Transformers.js' own mapping).
DEVICE_DEFAULT_DTYPES: Mapping[str, str] = {"wasm": "q8"}
#: The weights file's base name and folder in a model repository.
WEIGHTS_NAME = "model"
WEIGHTS_FOLDER = "onnx"
#: At most this many external data files (Transformers.js refuses more).
MAX_DATA_CHUNKS = 100


@dataclass(frozen=True)
class AmemEmbedSettings:
    """The ``AMEM_EMBED_*`` settings openclaw-amem reads (None: unset)."""

    model: str | None = None
    pooling: str | None = None
    dtype: str | None = None
    device: str | None = None


def pooling_of(model: str, override: str | None) -> tuple[Pooling, str]:
    """amem's pooling for ``model``, and where it came from in words.

    ``AMEM_EMBED_POOLING`` wins when it says ``mean`` or ``cls`` (amem ignores any other
    value), then amem's table of CLS-pooled models by basename, else mean.
    """
    explicit = (override or "").strip().lower()
    if explicit == "mean":
        return "mean", "AMEM_EMBED_POOLING"
    if explicit == "cls":
        return "cls", "AMEM_EMBED_POOLING"
    basename = model.split("/")[-1].lower()
    if basename in CLS_POOLED_MODELS:
        return "cls", "amem's table of CLS-pooled models"
    return "mean", "amem's default (mean)"


@dataclass(frozen=True)
class Weights:
    """The weights file Transformers.js loads for one model folder."""

    dtype: str
    #: Path inside the model folder, e.g. ``onnx/model_quantized.onnx``.
    file: str
    #: External data files the model's config says the weights need.
    data_files: tuple[str, ...]
    device: str
    #: Where the dtype came from, in words.
    source: str


def weights_of(settings: AmemEmbedSettings, config: Mapping[str, Any]) -> Weights:
    """The weights file for ``settings`` and the model's ``config.json``, as Transformers.js
    chooses it: the asked dtype, else the config's, else the device's default."""
    custom = _mapping(config.get("transformers.js_config"))
    device = _per_file(_text(settings.device) or custom.get("device")) or DEFAULT_DEVICE
    overlay = _mapping(_mapping(custom.get("device_config")).get(device))
    custom = {**custom, **overlay}
    asked = _text(settings.dtype)
    dtype, source = _dtype(asked, custom.get("dtype"), device)
    name = f"{WEIGHTS_NAME}{DTYPE_SUFFIXES[dtype]}.onnx"
    chunks = _chunks(custom.get("use_external_data_format"), name)
    data = tuple(
        f"{WEIGHTS_FOLDER}/{name}_data" + ("" if i == 0 else f"_{i}") for i in range(chunks)
    )
    return Weights(dtype, f"{WEIGHTS_FOLDER}/{name}", data, device, source)


def _dtype(asked: str | None, configured: Any, device: str) -> tuple[str, str]:
    default = DEVICE_DEFAULT_DTYPES.get(device, "fp32")
    fallback = f"Transformers.js' default for {device}"
    config_dtype = _per_file(configured)
    wanted, source = (asked, "AMEM_EMBED_DTYPE") if asked else (config_dtype, "config.json")
    if wanted == "auto":
        if config_dtype and config_dtype != "auto" and config_dtype in DTYPE_SUFFIXES:
            return config_dtype, "config.json (AMEM_EMBED_DTYPE=auto)"
        return default, fallback
    if wanted is not None and wanted in DTYPE_SUFFIXES:
        return wanted, source
    if wanted:  # Transformers.js falls back to the device's default for a dtype it lacks
        return default, f"{fallback} ({source} names {wanted!r}, which it does not know)"
    return default, fallback


def _chunks(setting: Any, name: str) -> int:
    if isinstance(setting, Mapping):
        value = setting.get(name, setting.get(WEIGHTS_NAME, 0))
    else:
        value = setting
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int) and 0 <= value <= MAX_DATA_CHUNKS:
        return value
    return 0


def _per_file(value: Any) -> str | None:
    """A setting given for every file, or for the weights file by its base name."""
    if isinstance(value, Mapping):
        value = value.get(WEIGHTS_NAME)
    return value if isinstance(value, str) and value else None


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _text(value: str | None) -> str | None:
    stripped = (value or "").strip()
    return stripped or None
