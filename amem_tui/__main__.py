"""``python -m amem_tui``: the same as the ``amem-tui`` command."""

import sys

from amem_tui.cli import main

sys.exit(main())
