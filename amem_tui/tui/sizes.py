"""The terminal sizes at which the layout changes (columns and rows), the classes the
main screen carries for them (Textual's breakpoints set them; ``app.tcss`` says what
each class looks like), and how many hits a search fills a pane with."""

#: Below this width the main screen's panes are tabs, one shown at a time.
NARROW_WIDTH = 100
#: From this width the history pane stays beside search hits.
WIDE_WIDTH = 160
#: Below this height the search box is one line and dialog buttons are one row.
SHORT_HEIGHT = 30

#: Hidden matches asked for per search: a tall pane's worth. (The hits are as many as
#: the agent's own search returns, or as ``limit:N`` in the box asks.)
HIDDEN_LIMIT = 40

#: The size classes: one of narrow, medium and wide; and short or tall.
NARROW, MEDIUM, WIDE, SHORT, TALL = "-narrow", "-medium", "-wide", "-short", "-tall"

#: Textual's breakpoints (``HORIZONTAL_BREAKPOINTS``, ``VERTICAL_BREAKPOINTS``): from
#: each width (height) on, the screen carries its class.
HORIZONTAL_BREAKPOINTS = [(0, NARROW), (NARROW_WIDTH, MEDIUM), (WIDE_WIDTH, WIDE)]
VERTICAL_BREAKPOINTS = [(0, SHORT), (SHORT_HEIGHT, TALL)]
