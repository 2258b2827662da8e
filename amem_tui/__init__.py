"""amem_tui: see and steer what multi-agent AI systems remember.

POSIX only (Linux and the like): the embedded store relies on flock, pwrite and
madvise. On Windows the import stops here with a message, not deep in the store.
"""

import sys

if sys.platform == "win32":  # pragma: no cover - never run on the POSIX machines CI uses
    raise ImportError("amem-tui runs on Linux and other POSIX systems; on Windows, use WSL")

__version__ = "0.2.0"
