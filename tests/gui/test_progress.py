"""Progress bars that move without painting inside the call (a streaming search's stalls)."""

from __future__ import annotations

from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QProgressBar
from pytestqt.qtbot import QtBot

from explorer.views.widgets.progress import set_progress


class CountingBar(QProgressBar):
    """A progress bar that counts its paints."""

    def __init__(self) -> None:
        super().__init__()
        self.paints = 0

    def paintEvent(self, event: QPaintEvent) -> None:
        """Count, then paint."""
        self.paints += 1
        super().paintEvent(event)


def shown_bar(qtbot: QtBot) -> CountingBar:
    """Return a shown, settled bar of 1,000 steps."""
    bar = CountingBar()
    bar.setRange(0, 1000)
    bar.resize(300, 12)
    qtbot.addWidget(bar)
    bar.show()
    qtbot.waitExposed(bar)
    qtbot.waitUntil(lambda: bar.paints > 0)
    return bar


def test_plain_set_value_paints_inside_the_call(qtbot: QtBot) -> None:
    """The reason for set_progress: Qt's setValue repaints at once when the bar visibly moves."""
    bar = shown_bar(qtbot)
    before = bar.paints
    bar.setValue(500)
    assert bar.paints > before


def test_set_progress_moves_the_bar_and_paints_with_the_next_frame(qtbot: QtBot) -> None:
    """The value changes at once; the paint waits for the event loop, and does come."""
    bar = shown_bar(qtbot)
    before = bar.paints
    set_progress(bar, 900)
    assert bar.value() == 900
    assert bar.paints == before
    assert bar.updatesEnabled()
    qtbot.waitUntil(lambda: bar.paints > before, timeout=2_000)


def test_set_progress_to_the_same_value_does_nothing(qtbot: QtBot) -> None:
    """An unchanged value schedules no paint."""
    bar = shown_bar(qtbot)
    set_progress(bar, 300)
    qtbot.waitUntil(lambda: bar.paints > 1, timeout=2_000)
    qtbot.wait(50)
    settled = bar.paints
    set_progress(bar, 300)
    qtbot.wait(50)
    assert bar.paints == settled
