"""What a person waits for in the TUI, against a minimal Textual app, in one run.

Both apps run in tmux panes of the same size on the same machine, alternating, and are
read from the screen as a person reads it (bench/terminal.py):

- first frame: from the moment tmux starts the process until the app's layout is on
  screen (amem-tui: its header and pane frames; the floor app: its header); amem-tui's
  "filled" time runs on until its header counts what the agent sees;
- clearing: for each query, the previous one is cleared (Ctrl+U); the time runs until
  its results are off the screen;
- typing: then the whole query is typed as one burst of keys; the time runs until the
  right hit is on screen: the status line counts the query's hits ("N hits · for
  'query'", not "searching for 'query'") and the first words of the top hit (worked
  out before with the engine, as the agent searches) show in a pane. The floor app, a header, an
  input and a table filtered on every keystroke (bench/floor_app.py) over the same note
  texts, is timed until its header names the query and its first row is shown;
- typed right after Ctrl+U: then each query again, its keys sent at once after the
  Ctrl+U that clears the one before (no wait for the clear to show), timed the same
  way: what a person who clears and types on meets;
- peak RSS of each app's process (VmHWM) after the queries;
- the bare app's first frame: the floor app with no texts to read before it starts (a
  bare Textual app: header, input, empty table), started ``--bare`` times per round
  beside the others; amem-tui's first frame is given as a ratio to it too;
- with ``--early``, amem-tui also gets its first query typed as soon as its first frame
  is on screen (before the store has opened, the model loaded or the index been read),
  and the time from the first frame until that query's first answer shows (maybe
  partial, marked so) and until its right hit shows is reported: what a person who
  starts typing at once waits.

Usage: python bench/latency.py --store FOLDER --notes N [--queries 50] [--size 160x48]
       [--rounds 2] [--bare 3] [--early] [--first-frames N]
       [--baseline CHECKOUT]   (earlier code, timed beside the current)
       [--baseline-store COPY]   (the baseline's own copy of the store)
       [--cold COMMAND]   (run before each amem-tui start, e.g. one that drops the page
                           cache: "sync; echo 3 > /proc/sys/vm/drop_caches")
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import corpus  # noqa: E402
from terminal import TerminalApp, environment  # noqa: E402

#: Characters of a hit's content looked for on screen (what a narrow column still shows).
SHOWN = 18
#: The status line's count of a query's hits, up to where it names the query: "12 hits
#: for 'q'" and, since the hidden matches lead it, "12 hits (2 weak) · ... · for 'q'"
#: (so earlier code is read too); never "searching for 'q'".
COUNTED = r"\d+ hits?\b[^'\n]*?for '"


def answered(screen: str, query: str) -> bool:
    """The status line counts the hits of ``query`` (the first 40 characters shown)."""
    return re.search(COUNTED + re.escape(query[:40]), screen) is not None


def counted(screen: str) -> bool:
    """The status line counts some query's hits (not cleared yet)."""
    return re.search(COUNTED, screen) is not None


def expected_hits(
    store: Path, queries: list[str], agent: str, limit: int | None = None
) -> list[str]:
    """The first words of each query's top hit, searched as the TUI searches (``limit``
    None: the agent's own default, as the search box asks)."""
    from amem_tui.config import Settings
    from amem_tui.engine.engine import MemoryEngine

    engine = MemoryEngine(Settings(store_path=store))
    try:
        out = []
        for query in queries:
            hits = engine.agent(agent).search(query, limit=limit, exact=False).hits
            out.append(hits[0].note.content[:SHOWN] if hits else "")
        return out
    finally:
        engine.close()


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def figures(samples: list[float]) -> dict[str, Any]:
    return {
        "p50_ms": statistics.median(samples) * 1000,
        "p90_ms": percentile(samples, 0.9) * 1000,
        "max_ms": max(samples) * 1000,
        "over_300": sum(1 for x in samples if x > 0.3),
        "samples_ms": [round(x * 1000, 1) for x in samples],
        "n": len(samples),
    }


def pooled(rounds: list[dict[str, Any]], figure: str) -> dict[str, Any]:
    """One figure's samples from every round, as one set."""
    return figures([ms / 1000 for r in rounds for ms in r[figure]["samples_ms"]])


def started_amem(store: Path, size: tuple[int, int], code: Path | None = None) -> TerminalApp:
    """amem-tui started on ``store``, its first frame (its layout) on screen; ``code``: a
    checkout of other code, first on the path (the same store and keys, other code)."""
    exe = str(Path(sys.executable).with_name("amem-tui"))
    env = environment(PYTHONPATH=str(code)) if code is not None else environment()
    app = TerminalApp([exe, "--store", str(store)], size=size, env=env)
    app.start()
    try:
        app.wait_for(lambda s: "amem-tui" in s and "Private" in s)
    except BaseException:
        app.stop()
        raise
    return app


def time_amem(
    store: Path,
    queries: list[str],
    tops: list[str],
    size: tuple[int, int],
    code: Path | None = None,
    early: bool = False,
) -> dict[str, Any]:
    app = started_amem(store, size, code)
    try:
        first = time.perf_counter() - app.started
        first_query = first_answer = None
        if early:  # typed at once: the store may still be opening, the model loading
            app.keys("/")
            app.type(queries[0])
            # Its first answer (maybe partial: matched by words while the model loads),
            # then the right hit, which the complete answer has.
            app.wait_for(lambda s, q=queries[0]: answered(s, q), timeout=600)
            first_answer = time.perf_counter() - app.started - first
            app.wait_for(lambda s, q=queries[0], t=tops[0]: answered(s, q) and t in s, timeout=600)
            first_query = time.perf_counter() - app.started - first
            app.keys("C-u")
        app.wait_for(lambda s: "visible" in s, timeout=600)
        filled = time.perf_counter() - app.started
        # Panes filled and the model ready: what a person sees before typing.
        app.wait_for(lambda s: "Private" in s and "loading" not in s.lower(), timeout=600)
        if not early:
            app.keys("/")
        latencies: list[float] = []
        clears: list[float] = []
        for query, top in zip(queries, tops, strict=True):
            app.keys("C-u")
            clears.append(app.wait_for(lambda s: not counted(s)))
            app.type(query)
            latencies.append(app.wait_for(lambda s, q=query, t=top: answered(s, q) and t in s))
        after_clear: list[float] = []
        for query, top in zip(queries, tops, strict=True):
            app.keys("C-u")
            app.type(query)
            after_clear.append(app.wait_for(lambda s, q=query, t=top: answered(s, q) and t in s))
        return {
            "first_frame_s": first,
            "filled_s": filled,
            "first_query_s": first_query,
            "first_answer_s": first_answer,
            "typing": figures(latencies),
            "after_clear": figures(after_clear),
            "clearing": figures(clears),
            "rss_mib": app.peak_rss_mib(),
        }
    finally:
        app.stop()


def time_bare(size: tuple[int, int]) -> float:
    """Seconds from start to the bare app's first frame (the floor app with no texts)."""
    app = TerminalApp([sys.executable, str(HERE / "floor_app.py")], size=size, env=environment())
    app.start()
    try:
        app.wait_for(lambda s: "floor app" in s)
        return time.perf_counter() - app.started
    finally:
        app.stop()


def time_first_frame(store: Path, size: tuple[int, int], code: Path | None = None) -> float:
    """Seconds from start to amem-tui's first frame (its layout on screen), then quit."""
    app = started_amem(store, size, code)
    try:
        return time.perf_counter() - app.started
    finally:
        app.stop()


def first_frames(
    store: Path, size: tuple[int, int], starts: int, baseline: Path | None
) -> dict[str, Any]:
    """amem-tui's and the bare app's first frames alone, alternated ``starts`` times
    (and earlier code's, given a checkout)."""
    found: dict[str, Any] = {"amem_s": [], "bare_s": []}
    if baseline is not None:
        found["before_s"] = []
    for _ in range(starts):
        found["bare_s"].append(time_bare(size))
        if baseline is not None:
            found["before_s"].append(time_first_frame(store, size, baseline))
        found["amem_s"].append(time_first_frame(store, size))
    bare = statistics.median(found["bare_s"])
    for name in ("amem", "before"):
        if f"{name}_s" in found:
            found[f"{name}_ratio"] = statistics.median(found[f"{name}_s"]) / bare
    return found


def run_cold(command: str | None) -> None:
    """Run the command that makes the next start a cold one (drops the page cache)."""
    if command:
        subprocess.run(command, shell=True, check=True)
        time.sleep(0.5)


def time_floor(texts_file: Path, queries: list[str], size: tuple[int, int]) -> dict[str, Any]:
    app = TerminalApp(
        [sys.executable, str(HERE / "floor_app.py"), str(texts_file)], size=size, env=environment()
    )
    app.start()
    try:
        app.wait_for(lambda s: "floor app" in s)
        first = time.perf_counter() - app.started
        latencies: list[float] = []
        clears: list[float] = []
        for query in queries:
            app.keys("C-u")
            clears.append(app.wait_for(lambda s: "rows for ''" in s))
            app.type(query)
            marker = f"rows for '{query}'"
            latencies.append(app.wait_for(lambda s, m=marker: m in s))
        after_clear: list[float] = []
        for query in queries:
            app.keys("C-u")
            app.type(query)
            marker = f"rows for '{query}'"
            after_clear.append(app.wait_for(lambda s, m=marker: m in s))
        return {
            "first_frame_s": first,
            "typing": figures(latencies),
            "after_clear": figures(after_clear),
            "clearing": figures(clears),
            "rss_mib": app.peak_rss_mib(),
        }
    finally:
        app.stop()


def compiled(*checkouts: Path | None) -> None:
    """Byte-compile each checkout's package, as an install does: where
    PYTHONDONTWRITEBYTECODE is set (as on the machines these figures come from), an
    editable install would otherwise compile every module again at each start, which
    the floor app (its Textual compiled at install) never pays."""
    for checkout in {c or HERE.parent for c in checkouts}:
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(checkout / "amem_tui")],
            stdout=subprocess.DEVNULL,
            check=False,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--notes", type=int, required=True, help="notes in the store's corpus")
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--agent", default="main")
    parser.add_argument("--size", default="160x48")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--baseline",
        type=Path,
        help="a checkout of earlier code (git worktree add DIR COMMIT), timed as a third app",
    )
    parser.add_argument(
        "--baseline-store",
        type=Path,
        help="a copy of the store for the baseline (when the two save different index formats)",
    )
    parser.add_argument(
        "--baseline-limit",
        type=int,
        metavar="N",
        help="the matches the baseline's search box asks for (40 before ae33a7b)",
    )
    parser.add_argument("--bare", type=int, default=3, help="bare-app starts per round")
    parser.add_argument(
        "--early", action="store_true", help="type the first query at amem-tui's first frame"
    )
    parser.add_argument("--cold", help="a shell command run before each amem-tui start")
    parser.add_argument(
        "--first-frames",
        type=int,
        metavar="N",
        help="only time first frames: N starts of amem-tui and of the bare app, alternated",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    width, height = (int(x) for x in args.size.split("x"))
    compiled(None, args.baseline)
    if args.first_frames:
        found = first_frames(args.store, (width, height), args.first_frames, args.baseline)
        if args.json:
            print(json.dumps(found))
            return
        print(f"first frames, {args.first_frames} starts each, alternated, {width}x{height}")
        for name in ("amem", "before", "bare"):
            if f"{name}_s" not in found:
                continue
            samples = found[f"{name}_s"]
            shown = ", ".join(f"{x:.2f}" for x in samples)
            ratio = f", {found[f'{name}_ratio']:.2f}x the bare app's" if name != "bare" else ""
            print(f"  {name:6} median {statistics.median(samples):.2f} s{ratio} ({shown})")
        return
    data = corpus.generate(args.notes)
    queries = data.queries[: args.queries]
    tops = expected_hits(args.store, queries, args.agent)
    # The baseline's own copy may be laid out otherwise (full vectors, compact ones), and
    # an approximate search's top hit can differ between layouts.
    baseline_tops = (
        expected_hits(args.baseline_store or args.store, queries, args.agent, args.baseline_limit)
        if args.baseline
        else tops
    )
    with tempfile.TemporaryDirectory() as tmp:
        texts_file = Path(tmp) / "texts.json"
        texts_file.write_text(json.dumps(data.texts), encoding="utf-8")
        runs: dict[str, list[dict[str, Any]]] = {"floor": [], "amem": []}
        bare: list[float] = []
        if args.baseline is not None:
            runs["before"] = []
        for _ in range(args.rounds):  # alternated: all see the same machine load
            bare.extend(time_bare((width, height)) for _ in range(args.bare))
            runs["floor"].append(time_floor(texts_file, queries, (width, height)))
            time.sleep(1)
            if args.baseline is not None:
                store = args.baseline_store or args.store
                run_cold(args.cold)
                runs["before"].append(
                    time_amem(
                        store, queries, baseline_tops, (width, height), args.baseline, args.early
                    )
                )
                time.sleep(1)
            run_cold(args.cold)
            runs["amem"].append(
                time_amem(args.store, queries, tops, (width, height), early=args.early)
            )
    out: dict[str, Any] = {
        name: {
            "first_frame_s": statistics.median(r["first_frame_s"] for r in rs),
            "filled_s": statistics.median(r.get("filled_s", r["first_frame_s"]) for r in rs),
            "typing": pooled(rs, "typing"),
            "after_clear": pooled(rs, "after_clear"),
            "clearing": pooled(rs, "clearing"),
            "rss_mib": max(r["rss_mib"] for r in rs),
            "typing_p50_per_round_ms": [r["typing"]["p50_ms"] for r in rs],
            "rss_per_round_mib": [r["rss_mib"] for r in rs],
        }
        for name, rs in runs.items()
    }
    for name, rs in runs.items():
        if name != "floor" and args.early:
            out[name]["first_query_s"] = [r["first_query_s"] for r in rs]
            out[name]["first_answer_s"] = [r["first_answer_s"] for r in rs]
    out["bare"] = {
        "first_frame_s": statistics.median(bare) if bare else None,
        "samples_s": [round(b, 3) for b in bare],
    }
    out["ratios"] = {
        "first_frame": out["amem"]["first_frame_s"] / out["floor"]["first_frame_s"],
        "first_frame_to_bare": out["amem"]["first_frame_s"] / out["bare"]["first_frame_s"]
        if bare
        else None,
        "typing_p50_extra_ms": out["amem"]["typing"]["p50_ms"] - out["floor"]["typing"]["p50_ms"],
        "typing_p90_extra_ms": out["amem"]["typing"]["p90_ms"] - out["floor"]["typing"]["p90_ms"],
        "after_clear_p50_extra_ms": out["amem"]["after_clear"]["p50_ms"]
        - out["floor"]["after_clear"]["p50_ms"],
        "after_clear_p90_extra_ms": out["amem"]["after_clear"]["p90_ms"]
        - out["floor"]["after_clear"]["p90_ms"],
    }
    if args.json:
        print(json.dumps(out))
        return
    print(f"{args.notes} notes, {len(queries)} queries, {width}x{height}, agent {args.agent}")
    for name in runs:
        row = out[name]
        typing = row["typing"]
        print(
            f"  {name:6}  first frame {row['first_frame_s']:.2f} s (filled {row['filled_s']:.2f} s)"
            f"  typing p50 "
            f"{typing['p50_ms']:.0f} ms p90 {typing['p90_ms']:.0f} ms max {typing['max_ms']:.0f} ms"
            f"  clearing p50 {row['clearing']['p50_ms']:.0f} ms"
            f" max {row['clearing']['max_ms']:.0f} ms"
            f"  peak RSS {row['rss_mib']:.0f} MiB  over 300 ms {typing['over_300']}/{typing['n']}"
        )
        if args.rounds > 1:
            p50s = ", ".join(f"{x:.0f}" for x in row["typing_p50_per_round_ms"])
            rss = ", ".join(f"{x:.0f}" for x in row["rss_per_round_mib"])
            print(f"  {'':6}  per round: typing p50 {p50s} ms; peak RSS {rss} MiB")
        after = row["after_clear"]
        print(
            f"  {'':6}  typed right after Ctrl+U: p50 {after['p50_ms']:.0f} ms"
            f" p90 {after['p90_ms']:.0f} ms max {after['max_ms']:.0f} ms"
            f"  over 300 ms {after['over_300']}/{after['n']}"
        )
        if args.early and name != "floor":
            shown = ", ".join(f"{q:.2f}" for q in row["first_query_s"])
            answered = ", ".join(f"{q:.2f}" for q in row["first_answer_s"])
            print(
                f"  {'':6}  first query typed at the first frame: first answer after "
                f"{answered} s, its right hit after {shown} s"
            )
    if bare:
        print(
            f"  bare    first frame {out['bare']['first_frame_s']:.2f} s (median of "
            f"{len(bare)}: {', '.join(f'{b:.2f}' for b in bare)})"
        )
    ratios = out["ratios"]
    if bare:
        print(f"  first frame {ratios['first_frame_to_bare']:.2f}x the bare app's")
    print(
        f"  first frame {ratios['first_frame']:.2f}x the floor; typing p50 "
        f"{ratios['typing_p50_extra_ms']:+.0f} ms, p90 {ratios['typing_p90_extra_ms']:+.0f} ms;"
        f" right after Ctrl+U p50 {ratios['after_clear_p50_extra_ms']:+.0f} ms,"
        f" p90 {ratios['after_clear_p90_extra_ms']:+.0f} ms"
    )


if __name__ == "__main__":
    main()
