"""``amem-tui``: the TUI by default, and headless subcommands on the same engine.

Exit codes: 0 done; 2 rejected input; 3 permission denied or read-only;
4 not found or not visible; 5 store or model unavailable.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from amem_tui.config import Settings, data_dir, load_settings
from amem_tui.engine.errors import AmemError, InvalidInput
from amem_tui.engine.models import MemoryNote, SearchResult
from amem_tui.engine.search import explain_hit

Handler = Callable[["Context", argparse.Namespace], Any]
COMMANDS: dict[str, tuple[Handler, Callable[[Any], str]]] = {}


class UsageError(InvalidInput):
    """A bad command line (exit 2)."""


class Context:
    """What a subcommand needs: the settings and a lazily opened engine."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._engine: Any = None

    @property
    def engine(self) -> Any:
        """The engine, opened on first use."""
        if self._engine is None:
            from amem_tui.engine.engine import MemoryEngine

            self._engine = MemoryEngine(self.settings)
        return self._engine

    def close(self) -> None:
        """Close the engine if it was opened."""
        if self._engine is not None:
            self._engine.close()


# ----------------------------------------------------------------- rendering
def note_json(note: MemoryNote) -> dict[str, Any]:
    """A note as ``{"id": ..., <payload fields>}``."""
    return {"id": note.id, **note.to_payload()}


def _one_line(text: str, width: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _names(names: list[str], most: int = 8) -> str:
    """A list of agent names, cut short when huge (a note may list thousands of readers)."""
    shown = repr(names[:most])
    if len(names) > most:
        shown = shown[:-1] + f", … +{len(names) - most} more]"
    return shown


def note_text(note: MemoryNote) -> str:
    """A short human-readable block for one note."""
    state = "" if note.active else " (soft-deleted)"
    if note.low_quality:
        state += " (low quality: check before trusting)"
    lines = [
        f"{note.id}{state}",
        f"  agent_id={note.agent_id} owner={note.effective_owner} "
        f"readers={_names(note.effective_readers)} writers={_names(note.effective_writers)}",
        f"  {_one_line(note.content)}",
    ]
    if note.tags:
        lines.append(f"  tags: {', '.join(note.tags)}")
    return "\n".join(lines)


def _sanitize(text: str) -> str:
    """Printable text for a terminal: control characters shown as escapes."""
    return "".join(
        ch if ch.isprintable() or ch in "\n\t" else ch.encode("unicode_escape").decode()
        for ch in text
    )


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code > 0xFFFF:  # JSON spells astral characters as a surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(data: Any) -> str:
    """``data`` as JSON that is safe to print: non-printable characters as \\u escapes.

    ``json.dumps`` leaves DEL, C1 controls, bidi overrides and lone surrogates raw;
    outside strings JSON holds only spaces and newlines, so escaping every other
    non-printable character keeps the same value and cannot restyle a terminal.
    """
    raw = json.dumps(data, ensure_ascii=False, indent=2, default=str)
    return "".join(ch if ch.isprintable() or ch == "\n" else _json_escape(ch) for ch in raw)


def command(name: str, text: Callable[[Any], str]) -> Callable[[Handler], Handler]:
    """Register a subcommand handler and its plain-text renderer."""

    def register(handler: Handler) -> Handler:
        COMMANDS[name] = (handler, text)
        return handler

    return register


# ------------------------------------------------------------------ commands
class AgentRows(list[dict[str, str]]):
    """The agents list (a plain list in JSON), with the configuration file it came from."""

    config_file: str | None = None


def _agents_text(rows: list[dict[str, str]]) -> str:
    config = getattr(rows, "config_file", None)
    lines = [f"{r['agent']:<16} Mode {r['mode']}  {r['collection']}" for r in rows]
    return "\n".join([*lines, f"configuration: {config or 'none found (defaults)'}"])


@command("agents", _agents_text)
def cmd_agents(ctx: Context, args: argparse.Namespace) -> list[dict[str, str]]:
    """Each agent with its mode and collection."""
    rows = AgentRows(
        {"agent": s.agent, "mode": s.mode, "collection": s.collection} for s in ctx.engine.agents()
    )
    rows.config_file = str(ctx.settings.config_file) if ctx.settings.config_file else None
    return rows


def _note_out(data: dict[str, Any]) -> str:
    return note_text(
        MemoryNote.from_payload(data["id"], {k: v for k, v in data.items() if k != "id"})
    )


@command("add", _note_out)
def cmd_add(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Write a note (private unless --shared)."""
    tags = _split(args.tags)
    engine = ctx.engine
    note = engine.add(_agent(ctx), _text_arg(args.text), shared=args.shared, tags=tags)
    return note_json(note)


@command("publish", _note_out)
def cmd_publish(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Make a private note shared."""
    return note_json(ctx.engine.publish(_agent(ctx), args.id))


@command("unpublish", _note_out)
def cmd_unpublish(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Make a shared note private to its owner."""
    return note_json(ctx.engine.unpublish(_agent(ctx), args.id))


@command("show", _note_out)
def cmd_show(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """One note, if the agent may read it."""
    return note_json(ctx.engine.get(_agent(ctx), args.id))


@command("update", _note_out)
def cmd_update(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Change content and/or tags."""
    tags = _split(args.tags) if args.tags is not None else None
    content = _text_arg(args.content) if args.content is not None else None
    return note_json(
        ctx.engine.update(
            _agent(ctx), args.id, content=content, tags=tags, expected_hash=args.expect_hash
        )
    )


@command("delete", _note_out)
def cmd_delete(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Soft-delete a note."""
    return note_json(ctx.engine.delete(_agent(ctx), args.id))


@command("restore", _note_out)
def cmd_restore(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Restore a soft-deleted note."""
    return note_json(ctx.engine.restore(_agent(ctx), args.id))


def _list_text(data: dict[str, Any]) -> str:
    head = (
        f"agent {data['agent']} (Mode {data['mode']}, {data['collection']}): "
        f"{len(data['notes'])} of {data['total']} {data['scope']} notes"
    )
    return "\n".join([head, *(_note_out(n) for n in data["notes"])])


@command("list", _list_text)
def cmd_list(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """A page of private, shared or all visible notes."""
    if args.limit < 1 or args.offset < 0:
        raise UsageError("--limit must be at least 1 and --offset at least 0")
    scope = ctx.engine.scope(_agent(ctx))
    page = ctx.engine.list_notes(
        scope,
        args.scope,
        limit=args.limit,
        offset=args.offset,
        owner=args.owner,
        low_quality=args.low_quality,
    )
    return {
        "agent": scope.agent,
        "mode": scope.mode,
        "collection": scope.collection,
        "scope": args.scope,
        "total": page.total,
        "offset": page.offset,
        "notes": [note_json(n) for n in page.notes],
    }


def search_json(result: SearchResult, explain: bool = True) -> dict[str, Any]:
    """A search result as the CLI prints it; ``explain`` adds how each hit ranked."""
    hits = []
    for hit in result.hits:
        row: dict[str, Any] = {
            "id": hit.note.id,
            "score": round(hit.score, 6),
            "because": hit.because,
            **hit.note.to_payload(),
        }
        if explain:
            row.update(
                similarity=_round(hit.similarity),
                bm25_rank=hit.bm25_rank,
                bm25_score=_round(hit.bm25_score),
                dense_rank=hit.dense_rank,
                rrf=_round(hit.rrf),
                boost=_round(hit.boost),
                via=hit.via,
                via_note=hit.via_note,
                hop=hit.hop,
                explanation=explain_hit(hit),
            )
        hits.append(row)
    out: dict[str, Any] = {
        "agent": result.agent,
        "mode": result.mode,
        "collection": result.collection,
        "query": result.query,
        "search_mode": result.search_mode,
        "exact": result.exact,
        "notice": result.notice,
        "hits": hits,
    }
    if result.session_key is not None:
        out["session_key"] = result.session_key
    if explain:
        out["total"] = result.total
        out["candidates"] = result.candidates
    if result.hidden:
        out["hidden"] = [
            {
                "id": h.id,
                "reason": h.reason,
                "kind": h.kind,
                "owner": h.owner,
                "agent_id": h.agent_id,
                "collection": h.collection,
                "score": round(h.score, 6),
                "similarity": _round(h.similarity),
            }
            for h in result.hidden
        ]
    return out


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def _search_text(data: dict[str, Any]) -> str:
    where = f"agent {data['agent']} (Mode {data['mode']}, {data['collection']})"
    how = data["search_mode"] + ("" if data["exact"] else ", approximate")
    lines = [f"{where}: {len(data['hits'])} hits ({how})"]
    if data.get("notice"):
        lines.append(f"note: {data['notice']}")
    for hit in data["hits"]:
        content = _one_line(str(hit.get("content", "")), 60)
        lines.append(f"{hit['score']:.3f}  [{hit['because']}]  {hit['id']}  {content}")
        if "explanation" in hit:
            lines.append(f"       {hit['explanation']}")
    if "hidden" in data:
        lines.append(f"hidden from {data['agent']}: {len(data['hidden'])}")
        for hidden in data["hidden"]:
            lines.append(f"{hidden['score']:.3f}  {hidden['id']}  {hidden['reason']}")
    return "\n".join(lines)


@command("search", _search_text)
def cmd_search(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """What the agent finds for a query, best first; --hidden adds what it cannot see."""
    if args.limit < 1:
        raise UsageError("--limit must be at least 1")
    # Without --agent, let the engine resolve (and report) a --session-key itself.
    agent = _agent(ctx) if ctx.settings.agent or not ctx.settings.session_key else None
    result = ctx.engine.search(
        agent, args.query, limit=args.limit, mode=args.mode, hidden=args.hidden
    )
    return search_json(result, explain=args.explain)


def _demo_text(data: dict[str, Any]) -> str:
    return data["message"]


@command("demo", _demo_text)
def cmd_demo(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Fill a store with a multi-agent demo memory, then open the TUI on it."""
    from amem_tui.demo import demo_config, seed_demo

    counts = seed_demo(ctx.engine)
    settings = ctx.settings
    config = settings.config_file
    if config is None:
        # Later commands need the demo's agents (sandbox is Mode B): leave them a config.
        folder = data_dir() if settings.url else settings.embedded_path
        config = folder / "openclaw.json"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            config.write_text(demo_config() + "\n", encoding="utf-8")
        except OSError:
            config = None
    where = f"--url {settings.url}" if settings.url else f"--store {settings.embedded_path}"
    if config is not None:
        where += f" --config {config}"
    notes = ", ".join(f"{n} notes in {c}" for c, n in counts.items())
    message = "\n".join(
        [
            f"demo store at {settings.store_label}: {notes}",
            "agents: main and dev in Mode A, sandbox in Mode B; try:",
            f"  amem-tui {where} --agent dev search 'deploy freeze'",
        ]
    )
    out: dict[str, Any] = {
        "message": message,
        "store": settings.store_label,
        "config": str(config) if config else None,
        "counts": counts,
    }
    if not (args.no_tui or args.json):
        out["open_tui"] = True
    return out


# ------------------------------------------------------------------ plumbing
def _agent(ctx: Context) -> str:
    return ctx.engine.scope().agent


def _text_arg(value: str) -> str:
    """A text argument, or standard input for ``-`` (for notes too big for a command line)."""
    if value != "-":
        return value
    try:
        return sys.stdin.buffer.read().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"standard input is not UTF-8 text (byte {exc.start})") from None


def _split(value: str | None) -> list[str]:
    if not value:
        return []
    return [part.strip() for part in value.split(",") if part.strip()]


def _common_options(parser: argparse.ArgumentParser, suppress: bool) -> None:
    default = argparse.SUPPRESS if suppress else None
    parser.add_argument("--store", metavar="PATH", default=default, help="embedded store folder")
    parser.add_argument("--url", metavar="URL", default=default, help="Qdrant server URL")
    parser.add_argument("--config", metavar="FILE", default=default, help="openclaw.json to read")
    parser.add_argument("--collection", metavar="NAME", default=default, help="Mode A collection")
    parser.add_argument("--agent", metavar="ID", default=default, help="act as this agent")
    parser.add_argument("--session-key", metavar="KEY", default=default, help="act as agent:<id>:…")
    parser.add_argument("--model", metavar="NAME", default=default, help="fastembed model name")
    parser.add_argument(
        "--read-only", action="store_true", default=default, help="refuse every write"
    )
    parser.add_argument("--json", action="store_true", default=default, help="print JSON")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    """The command line: options may stand before or after the subcommand."""
    parser = _Parser(prog="amem-tui", description=__doc__.splitlines()[0])
    _common_options(parser, suppress=False)
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text)
        _common_options(p, suppress=True)
        return p

    add("agents", "list agents with their mode and collection")
    p = add("add", "write a note (private unless --shared)")
    p.add_argument("text", help="the note's content; - reads it from standard input")
    p.add_argument("--shared", action="store_true", help="publish to the shared scope")
    p.add_argument("--tags", help="comma-separated tags")
    for name, help_text in (
        ("publish", "make a private note shared"),
        ("unpublish", "make a shared note private to its owner"),
        ("show", "show one note"),
        ("delete", "soft-delete a note"),
        ("restore", "restore a soft-deleted note"),
    ):
        add(name, help_text).add_argument("id")
    p = add("update", "change a note's content or tags")
    p.add_argument("id")
    p.add_argument("--content", help="new content; - reads it from standard input")
    p.add_argument(
        "--expect-hash",
        metavar="MD5",
        help="refuse if the note changed since it had this hash (its JSON 'hash')",
    )
    p.add_argument("--tags", help="comma-separated tags (replaces them)")
    p = add("list", "list notes")
    p.add_argument("--scope", choices=["private", "shared", "visible"], default="visible")
    p.add_argument("--limit", type=int, default=50)
    p.add_argument("--offset", type=int, default=0)
    p.add_argument("--owner", metavar="ID", help="only notes this agent wrote")
    p.add_argument("--low-quality", action="store_true", help="only notes flagged low_quality")
    p = add("search", "search as an agent: what it finds, why, and what it cannot see")
    p.add_argument("query")
    p.add_argument("--limit", type=int, default=10)
    p.add_argument("--mode", choices=["hybrid", "dense"], default="hybrid", help="ranking")
    p.add_argument("--explain", action="store_true", help="show how each hit ranked")
    p.add_argument("--hidden", action="store_true", help="add the matches it cannot see")
    p = add("demo", "fill a demo store and open the TUI on it")
    p.add_argument("--no-tui", action="store_true", help="only fill the store")
    for extend in EXTENSIONS:
        extend(sub, add)
    return parser


#: Functions that add more subcommands: ``extend(subparsers, add)``.
EXTENSIONS: list[Callable[[Any, Callable[[str, str], argparse.ArgumentParser]], None]] = []


def settings_from_args(args: argparse.Namespace) -> Settings:
    """Settings from the parsed command line (flags beat environment and file)."""
    store = getattr(args, "store", None)
    if (
        store is None
        and getattr(args, "command", None) == "demo"
        and not getattr(args, "url", None)
    ):
        store = str(data_dir() / "demo")
    flags = {
        "store_path": store,
        "url": getattr(args, "url", None),
        "config_file": Path(args.config).expanduser() if getattr(args, "config", None) else None,
        "collection": getattr(args, "collection", None),
        "agent": getattr(args, "agent", None),
        "session_key": getattr(args, "session_key", None),
        "model": getattr(args, "model", None),
        "read_only": getattr(args, "read_only", None),
    }
    settings = load_settings(flags)
    if getattr(args, "command", None) == "demo":
        from amem_tui.demo import demo_settings

        settings = demo_settings(settings)
    return settings


def _print(data: Any, as_json: bool, text: Callable[[Any], str]) -> None:
    if as_json:
        print(json_text(data))
    else:
        rendered = text(data)
        if rendered:
            print(_sanitize(rendered))


def run_tui(settings: Settings) -> int:
    """Open the Textual inspector (imported only here, so headless use stays light)."""
    try:
        from amem_tui.tui.app import run
    except ImportError:
        print("amem-tui: the TUI is not available in this build", file=sys.stderr)
        return 0
    return run(settings)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _fail(message: str, code: int) -> int:
    """Report an error as one line on stderr and return its exit code."""
    line = " ".join(_sanitize(message).split())
    print(f"amem-tui: {line}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``amem-tui`` and ``python -m amem_tui``.

    Every failure ends as one line on stderr and an exit code, never a traceback
    (set ``AMEM_DEBUG=1`` to see the traceback of an unexpected error).
    """
    import warnings

    from pydantic import ValidationError

    import amem_tui.cli_extensions  # noqa: F401  (registers the extra subcommands)

    if not os.environ.get("AMEM_DEBUG"):  # library warnings would add stray stderr lines
        warnings.simplefilter("ignore")
    ctx: Context | None = None
    try:
        args = build_parser().parse_args(argv)
        settings = settings_from_args(args)
        if args.command is None:
            return run_tui(settings)
        ctx = Context(settings)
        handler, text = COMMANDS[args.command]
        data = handler(ctx, args)
        if isinstance(data, dict) and data.get("open_tui"):
            ctx.close()
            ctx = None
            if importlib.util.find_spec("amem_tui.tui") is None:
                _print(data, False, text)  # no TUI in this build: say what was done
            return run_tui(settings)
        _print(data, bool(getattr(args, "json", False)), text)
        sys.stdout.flush()  # a closed pipe fails here, inside the handlers below
        return 0
    except AmemError as exc:
        return _fail(str(exc), exc.exit_code)
    except ValidationError as exc:  # a value a model refuses: rejected input
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        return _fail(f"invalid value{' for ' + field if field else ''}: {first['msg']}", 2)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as shell tools do.
        _silence_stdout()
        return 141
    except OSError as exc:  # files and sockets under the store
        if os.environ.get("AMEM_DEBUG"):
            raise
        return _fail(f"store unavailable: {exc.strerror or exc}", 5)
    except Exception as exc:  # the last line of defence: one line, never a traceback
        if os.environ.get("AMEM_DEBUG"):
            raise
        reason = _sanitize(str(exc).strip().splitlines()[0] if str(exc).strip() else "")
        print(
            f"amem-tui: unexpected error ({type(exc).__name__}: {reason}); "
            "set AMEM_DEBUG=1 to see where",
            file=sys.stderr,
        )
        return 1
    finally:
        if ctx is not None:
            with contextlib.suppress(Exception):  # an error while closing must not mask the answer
                ctx.close()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
