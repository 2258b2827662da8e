"""Where a model's files already are on this machine: the places openclaw-amem keeps
them, and amem-tui's own. Nothing is ever downloaded.

A place holds models in the repository layout (``<place>/<org>/<name>/config.json``,
``tokenizer.json``, ``tokenizer_config.json``, ``onnx/model*.onnx``), as Transformers.js
reads them. openclaw-amem points the library at them with ``AMEM_MODEL_CACHE`` (its
cache) and ``AMEM_MODEL_DIR`` (its local models); without those, Transformers.js uses
``.cache/`` and ``models/`` inside its own package folder, which sits in the plugin's
install (OpenClaw installs plugins under its state folder: ``extensions/<id>`` or, for
npm packages, ``npm/projects/<project>/node_modules``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from amem_tui.engine.embedding.recipe import AmemEmbedSettings, Weights, weights_of

#: The plugin's id and npm package name.
AMEM_PLUGIN = "openclaw-amem"
#: The library whose cache the plugin fills, as a path under ``node_modules``.
TRANSFORMERS_JS = ("@huggingface", "transformers")
#: The plugin's copy of the library, as notices name it.
PLUGIN_LIBRARY = "the openclaw-amem plugin's Transformers.js"
#: Files every model folder needs besides its weights (Transformers.js loads them all).
MODEL_FILES = ("config.json", "tokenizer.json", "tokenizer_config.json")
#: Folders walked up from the plugin's, as Node resolves a package (its own
#: node_modules, its parents', a hoisted install's siblings).
_PARENTS = 5


@dataclass(frozen=True)
class Place:
    """A folder of models in the repository layout, and why it is looked in."""

    root: Path
    #: In words: ``AMEM_MODEL_DIR``, ``the openclaw-amem plugin's Transformers.js cache``...
    label: str

    def describe(self) -> str:
        """The place as a notice shows it."""
        return f"{self.label} ({self.root})"


@dataclass(frozen=True)
class ModelPlaces:
    """Everything that says where model files may be (built from the settings)."""

    #: ``AMEM_MODEL_CACHE`` and ``AMEM_MODEL_DIR``, as openclaw-amem reads them.
    amem_cache: Path | None = None
    amem_dir: Path | None = None
    #: OpenClaw's state folder (``OPENCLAW_STATE_DIR``, else ``~/.openclaw``).
    openclaw_dir: Path | None = None
    #: Plugin install folders named in openclaw.json (``plugins.installs``).
    plugin_dirs: tuple[Path, ...] = ()
    #: amem-tui's own folders (``AMEM_MODEL_FOLDERS``, ``config.toml``), then its default.
    folders: tuple[Path, ...] = ()
    default_folder: Path | None = None

    def places(self) -> list[Place]:
        """Every place, in the order openclaw-amem's library looks (its cache, then its
        local models), then the plugin's own folders, then amem-tui's."""
        out: list[Place] = []
        if self.amem_cache is not None:
            out.append(Place(self.amem_cache, "AMEM_MODEL_CACHE"))
        if self.amem_dir is not None:
            out.append(Place(self.amem_dir, "AMEM_MODEL_DIR"))
        for library in plugin_libraries(self.openclaw_dir, self.plugin_dirs):
            out.append(Place(library / ".cache", f"{PLUGIN_LIBRARY} cache"))
            out.append(Place(library / "models", f"{PLUGIN_LIBRARY} models"))
        out += [Place(folder, "amem-tui's model folders") for folder in self.folders]
        if self.default_folder is not None:
            out.append(Place(self.default_folder, "amem-tui's default model folder"))
        return _unique(out)


@dataclass(frozen=True)
class FoundModel:
    """A model folder with every file one weights choice needs."""

    model: str
    folder: Path
    place: Place
    weights: Weights
    config: dict[str, Any] = field(repr=False)

    @property
    def weights_path(self) -> Path:
        """The ONNX file to load."""
        return self.folder / self.weights.file


@dataclass(frozen=True)
class Missing:
    """Why no place holds a model: each place looked in, with what it lacked."""

    model: str
    looked_in: tuple[str, ...]


def find_model(
    model: str, places: Iterable[Place], settings: AmemEmbedSettings
) -> FoundModel | Missing:
    """The first place holding ``model``'s files for the weights ``settings`` choose."""
    looked: list[str] = []
    for place in places:
        folder = _model_folder(place.root, model)
        if folder is None:
            looked.append(f"{place.describe()}: no such model id")
            continue
        missing = [name for name in MODEL_FILES if not (folder / name).is_file()]
        if missing:
            looked.append(f"{place.describe()}: no {', '.join(missing)}")
            continue
        config = _read_json(folder / "config.json")
        if config is None:
            looked.append(f"{place.describe()}: config.json is not a JSON object")
            continue
        weights = weights_of(settings, config)
        absent = [f for f in (weights.file, *weights.data_files) if not (folder / f).is_file()]
        if absent:
            looked.append(f"{place.describe()}: no {', '.join(absent)} ({weights.dtype})")
            continue
        return FoundModel(model, folder, place, weights, config)
    return Missing(model, tuple(looked))


def plugin_libraries(openclaw_dir: Path | None, plugin_dirs: Iterable[Path] = ()) -> list[Path]:
    """Transformers.js package folders an installed openclaw-amem plugin would use."""
    roots = list(plugin_dirs)
    if openclaw_dir is not None:
        roots.append(openclaw_dir / "extensions" / AMEM_PLUGIN)
        projects = openclaw_dir / "npm" / "projects"
        if projects.is_dir():
            roots += sorted(projects.glob(f"*/node_modules/{AMEM_PLUGIN}"))
    found: list[Path] = []
    for root in roots:
        found += [lib for lib in _resolve_from(root) if lib not in found]
    return found


def _resolve_from(plugin: Path) -> Iterator[Path]:
    """Transformers.js as Node resolves it from the plugin's folder (its own
    node_modules, then each parent's)."""
    if not plugin.is_dir():
        return
    here = plugin
    for _ in range(_PARENTS):
        candidate = here / "node_modules" / Path(*TRANSFORMERS_JS)
        if candidate.is_dir():
            yield candidate
        if here.name == "node_modules":  # a hoisted install: the package's siblings
            sibling = here / Path(*TRANSFORMERS_JS)
            if sibling.is_dir():
                yield sibling
        if here.parent == here:
            return
        here = here.parent


def _model_folder(root: Path, model: str) -> Path | None:
    parts = [p for p in model.split("/") if p]
    if not parts or any(p in (".", "..") for p in parts):
        return None
    folder = root.joinpath(*parts)
    return folder if folder.is_dir() else None


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _unique(places: list[Place]) -> list[Place]:
    seen: set[Path] = set()
    out = []
    for place in places:
        if place.root not in seen:
            seen.add(place.root)
            out.append(place)
    return out
