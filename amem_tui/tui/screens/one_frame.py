"""Changing many widgets of a screen and showing the result in one frame."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from textual.widget import Widget


@contextlib.contextmanager
def in_one_frame(screen: Widget, hold_limit: float) -> Iterator[None]:
    """Show what the body changes in many widgets of ``screen`` in one frame.

    ``batch_update()`` alone is not enough: a widget tells the screen it needs a
    repaint from its own message queue, when it next goes idle, so on a busy
    machine the screen drew the Shared pane's new message under the old header
    and Private pane. Here screen updates stay suspended until every widget of
    the screen has gone idle once after the change (its repaint request is then
    queued at the screen), and the screen is repainted as a whole. The hold never
    lasts longer than ``hold_limit`` seconds, whatever happens to a widget meanwhile.
    """
    batch = screen.app.batch_update()
    batch.__enter__()
    released = False

    def release() -> None:
        nonlocal released
        if released:
            return
        released = True
        batch.__exit__(None, None, None)
        screen.refresh()

    try:
        yield
    except BaseException:
        release()
        raise
    widgets = [w for w in screen.walk_children(with_self=False) if w.is_running]
    waiting = set(widgets)

    def idle(widget: Widget) -> None:
        waiting.discard(widget)
        if not waiting:
            screen.call_later(release)  # after the repaint requests queued here

    for widget in widgets:
        widget.call_next(idle, widget)  # runs after the widget's idle refresh
    if not waiting:
        screen.call_later(release)
    screen.set_timer(hold_limit, release)
