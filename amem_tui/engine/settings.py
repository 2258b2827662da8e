"""The settings the engine needs: where the store is, which agents exist and how they
read, the model, the write-time checks, consolidation.

``amem_tui.config`` builds them (openclaw.json, the ``AMEM_*`` environment, flags);
a script may build them directly. With nothing set: the embedded store in the user
data folder, agent ``main`` in Mode A, collection ``amem_notes``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from amem_tui.engine.embedding.remote_spec import Mem0Embedder
from amem_tui.engine.redact import redact_url
from amem_tui.engine.scope import DEFAULT_AGENT, DEFAULT_COLLECTION
from amem_tui.paths import default_store_dir


class AgentConfig(BaseModel):
    """One agent from openclaw.json; a ``collection`` makes it Mode B."""

    agent: str
    collection: str | None = None


class Mem0Recall(BaseModel):
    """The plugin's skills-mode recall settings (``skills.recall``), with its defaults."""

    enabled: bool = True
    #: ``smart`` (the default), ``always`` (adds the session's own memories) or ``manual``
    #: (no recall: the agent searches itself).
    strategy: str = "smart"
    #: Cosine at or above which a memory is recalled (``skills.recall.threshold``).
    threshold: float = 0.4
    max_memories: int = 15
    token_budget: int = 1500
    category_order: list[str] = Field(
        default_factory=lambda: [
            "identity",
            "configuration",
            "rule",
            "preference",
            "decision",
            "technical",
            "relationship",
            "project",
            "operational",
        ]
    )
    identity_always_include: bool = True


class Mem0PluginConfig(BaseModel):
    """The OpenClaw mem0 plugin's entry in openclaw.json: who the user is, where the
    memories are, which embedder made their vectors, and how its searches and its
    auto-recall choose memories (``topK``, ``searchThreshold``, ``autoRecall``,
    ``skills``), with the plugin's own defaults."""

    user_id: str
    mode: str = "platform"
    embedder_provider: str | None = None
    embedder_model: str | None = None
    #: The embedder the plugin's SDK builds in open-source mode (its default applied),
    #: with its endpoint and key (None: the entry is not in open-source mode).
    embedder: Mem0Embedder | None = None
    collection_name: str | None = None
    dimension: int | None = None
    url: str | None = None
    #: ``topK``: memory_search's default limit, and what auto-recall injects at most.
    top_k: int = 5
    #: ``searchThreshold``: the least score a memory_search or auto-recall result has.
    search_threshold: float = 0.1
    #: ``skills.recall.threshold`` when the entry sets it: memory_search's threshold then.
    recall_threshold: float | None = None
    #: ``autoRecall``: memories are injected before each turn (the plugin's default).
    auto_recall: bool = True
    #: Set when the entry turns skills mode on (a ``skills`` object whose
    #: ``triage.enabled`` is not false): its recall replaces the default auto-recall.
    skills: Mem0Recall | None = None

    @property
    def threshold(self) -> float:
        """memory_search's threshold: ``skills.recall.threshold``, else ``searchThreshold``."""
        return self.recall_threshold if self.recall_threshold is not None else self.search_threshold


#: Instruction-like text that should never steer an agent from memory: notes that
#: match are flagged ``low_quality`` at write time (shown apart, never refused).
DEFAULT_LOW_QUALITY_PATTERNS: tuple[str, ...] = (
    r"\b(ignore|forget) (all |any )?(of )?(the |your )?(previous|prior|above|earlier) "
    r"(instructions|prompts?|rules|messages)",
    r"\bdisregard\b.{0,80}\b(instructions|rules|guidelines)",
    r"\byou are now\b",
    r"\bsystem prompt\b",
    r"\bnew instructions\s*:",
    r"\b(do not|don't) (tell|inform|alert) the user\b",
)


class EngineSettings(BaseModel):
    """Everything the engine needs to open a store and act as an agent.

    Built by ``amem_tui.config`` from openclaw.json, the environment and flags (or
    given directly by a script); the engine never reads a file or the environment.
    """

    store_path: Path | None = None
    url: str | None = None
    api_key: str | None = Field(default=None, repr=False)
    collection: str = DEFAULT_COLLECTION
    default_agent: str = DEFAULT_AGENT
    agent: str | None = None
    session_key: str | None = None
    agents: list[AgentConfig] = Field(default_factory=list)
    config_file: Path | None = None
    model: str | None = None
    read_only: bool = False
    consolidation_time: str = "02:30"
    #: The time zone of ``consolidation_time`` (IANA name; None: the machine's local
    #: time), so machines that share a store agree on when a day's pass is due.
    consolidation_timezone: str | None = None
    #: Embedded backend for a new folder (AMEM_BACKEND): Qdrant Edge, or qdrant-client.
    backend: Literal["edge", "qdrant-local"] | None = None
    low_quality_patterns: list[str] = Field(
        default_factory=lambda: list(DEFAULT_LOW_QUALITY_PATTERNS)
    )
    #: Cosine similarity at or above which private notes are merged (see consolidation/).
    consolidation_threshold: float = Field(default=0.85, gt=0.0, le=1.0)
    #: The user whose memories a mem0 collection is read for (--user, AMEM_USER).
    user: str | None = None
    #: Read exactly this mem0 ``user_id`` (e.g. ``alice:agent:main``), whatever the agent.
    namespace: str | None = None
    #: For a subagent's session key in a mem0 store: what ``memory_search`` reads
    #: (``search``), or what its auto-recall reads (``recall``: main's memories).
    mem0_view: Literal["search", "recall"] = "search"
    #: The OpenClaw mem0 plugin's entry, when openclaw.json has one.
    mem0: Mem0PluginConfig | None = None
    #: The embedding model of collections that name none in their metadata.
    collection_models: dict[str, str] = Field(default_factory=dict)
    #: Where openclaw-amem keeps the files beside the store that ``health`` reads
    #: (``amem_nightly_owed.json``, ``logs/amem-consolidate.log``; AMEM_OPENCLAW_DIR).
    #: None: see ``openclaw_folder``.
    openclaw_dir: Path | None = None
    #: openclaw-amem's own embedding settings, as it reads them from its environment:
    #: ``AMEM_EMBED_MODEL``, ``AMEM_EMBED_POOLING``, ``AMEM_EMBED_DTYPE``,
    #: ``AMEM_EMBED_DEVICE``.
    amem_embed_model: str | None = None
    amem_embed_pooling: str | None = None
    amem_embed_dtype: str | None = None
    amem_embed_device: str | None = None
    #: Where openclaw-amem keeps model files: ``AMEM_MODEL_DIR`` (the repository layout,
    #: ``<dir>/<org>/<name>/...``) and ``AMEM_MODEL_CACHE`` (its Transformers.js cache).
    amem_model_dir: Path | None = None
    amem_model_cache: Path | None = None
    #: amem-tui's own folders of models in that layout (``AMEM_MODEL_FOLDERS``, or
    #: ``model_folders`` under ``[embeddings]`` in config.toml); its default folder,
    #: ``models`` in the data folder, is looked in after them.
    model_folders: list[Path] = Field(default_factory=list)
    #: OpenClaw's state folder (``OPENCLAW_STATE_DIR``; None: ``openclaw_folder``),
    #: where it installs plugins; and openclaw-amem install folders openclaw.json
    #: records.
    openclaw_state_dir: Path | None = None
    amem_plugin_dirs: list[Path] = Field(default_factory=list)
    #: Send mem0 queries to the plugin's embedder, off this machine when it is remote
    #: (``AMEM_REMOTE_EMBEDDINGS=1``, ``remote = true`` under ``[embeddings]`` in
    #: config.toml).
    remote_embeddings: bool = False
    #: The memory checks a change's preview (``what_if``, ``--dry-run``, the inspector's
    #: questions) runs when none is named: ``AMEM_CHECKS``, or ``checks`` under
    #: ``[isolation]`` in config.toml.
    checks_file: Path | None = None

    @property
    def collection_chosen(self) -> bool:
        """True when the collection was named (a flag, the environment, openclaw-amem's
        entry, or a caller): only a default is replaced by a mem0 collection found."""
        return "collection" in self.model_fields_set

    @property
    def embedded_path(self) -> Path:
        """The embedded store folder (used when no URL is given)."""
        return self.store_path or default_store_dir()

    @property
    def store_label(self) -> str:
        """Where the store is, for headers and messages (a URL's credentials masked)."""
        return redact_url(self.url) if self.url else str(self.embedded_path)

    @property
    def openclaw_folder(self) -> Path:
        """The folder of openclaw-amem's own files: ``openclaw_dir``, else the folder of
        the openclaw.json in use, else ``~/.openclaw`` (where openclaw-amem writes them)."""
        if self.openclaw_dir is not None:
            return self.openclaw_dir
        if self.config_file is not None:
            return self.config_file.parent
        return Path.home() / ".openclaw"

    def dedicated_collections(self) -> dict[str, str]:
        """Mode B agents and their collections."""
        return {a.agent: a.collection for a in self.agents if a.collection}

    def configured_agents(self) -> list[str]:
        """The default agent, then every agent named in the configuration."""
        names = [self.default_agent]
        names += [a.agent for a in self.agents if a.agent not in names]
        return names
