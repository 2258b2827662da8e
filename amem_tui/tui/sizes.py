"""The terminal sizes at which the layout changes (columns and rows)."""

#: Below this width the main screen's panes are tabs, one shown at a time.
NARROW_WIDTH = 100
#: From this width the history pane stays beside search hits.
WIDE_WIDTH = 160
#: Below this height the search box is one line and dialog buttons are one row.
SHORT_HEIGHT = 30
