"""Progress bars that repaint with the next frame, never inside the call that moves them."""

from __future__ import annotations

from PySide6.QtWidgets import QProgressBar


def set_progress(bar: QProgressBar, value: int) -> None:
    """Move a bar; its repaint joins the window's next paint.

    QProgressBar.setValue repaints at once whenever the bar visibly moves: in a window with
    a chart and a long table that is a whole synchronous paint per step of a streaming search.
    """
    if value == bar.value():
        return
    bar.setUpdatesEnabled(False)  # repaint() does nothing while updates are off
    bar.setValue(value)
    bar.setUpdatesEnabled(True)  # which schedules an ordinary update()
