"""Take the docs' picture of the inspector in a browser: ``amem-tui serve`` on a demo
store, opened in headless Chromium, saved as a PNG.

Needs the ``serve`` extra and an installed Chromium (Debian: ``apt-get install chromium``).
Run from the repository root:

    python scripts/serve_screenshot.py [--out screenshots/serve.png]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.browser import chromium_page, find_chromium
from tests.support.cli import run
from tests.support.faults import free_port
from tests.support.serving import served


async def _shoot(url: str) -> bytes:
    async with chromium_page(url, width=1280, height=720) as page:
        await page.wait_for_text(["agent main", "following"])
        await asyncio.sleep(3)  # let the first poll report and the page draw
        return await page.screenshot()


def main() -> int:
    """Serve a demo store read-only and following, and save what Chromium shows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="screenshots/serve.png")
    args = parser.parse_args()
    if find_chromium() is None:
        print("no Chromium installed (Debian: apt-get install chromium)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as folder:
        home, store = Path(folder) / "home", Path(folder) / "store"
        result = run(["demo", "--no-tui", "--store", str(store)], home)
        if result.returncode != 0:
            print(result.stderr.decode(), file=sys.stderr)
            return 1
        port = free_port()
        options = ["--store", str(store), "--read-only", "--follow"]
        with served(options, home, port):
            png = asyncio.run(_shoot(f"http://127.0.0.1:{port}/"))
    Path(args.out).write_bytes(png)
    print(f"wrote {args.out} ({len(png)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
