"""The terminal sizes at which the layout changes (columns and rows), the classes the
main screen carries for them (``app.tcss`` says what each class looks like), and how
many hits a search fills a pane with."""

#: Below this width the main screen's panes are tabs, one shown at a time.
NARROW_WIDTH = 100
#: From this width the history pane stays beside search hits.
WIDE_WIDTH = 160
#: Below this height the search box is one line and dialog buttons are one row.
SHORT_HEIGHT = 30

#: Hits (and hidden matches) asked for per search: a tall pane's worth.
SEARCH_LIMIT = 40

#: The size classes: one of narrow, medium and wide; and short, or not.
NARROW, MEDIUM, WIDE, SHORT = "-narrow", "-medium", "-wide", "-short"


def size_classes(width: int, height: int) -> dict[str, bool]:
    """Which size classes a terminal of ``width`` × ``height`` gets (True: set)."""
    return {
        NARROW: width < NARROW_WIDTH,
        MEDIUM: NARROW_WIDTH <= width < WIDE_WIDTH,
        WIDE: width >= WIDE_WIDTH,
        SHORT: height < SHORT_HEIGHT,
    }
