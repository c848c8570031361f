"""The balance over time: a step line through the exact change points, over blocks.

Drawn with QPainter like the other charts (views/charts.py); x is the block number, so the
steps sit where the balance changed. Hovering names the change under the mouse; a click opens
its block.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from explorer.presentation.balance_steps import BalanceStep, BalanceSteps
from explorer.presentation.format import utc_text
from explorer.services.routes import Route, block_route
from explorer.viewmodels.observable import TypedSignal
from explorer.views.charts import axis_bounds, draw_title
from explorer.views.theme import plain_tooltip

LEFT, RIGHT, TOP, BOTTOM = 150, 16, 26, 24
PICK_PIXELS = 6


class BalanceChart(QWidget):
    """A step chart of BalanceSteps.

    Signals:
        link_activated(Route, bool): a change point was clicked (its block; Ctrl: new tab).
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.steps = BalanceSteps(0, 0, 0)
        self._top = 0  # the axis' top, round, above the highest balance (once per new steps)
        self.title = "Balance over time (every change)"
        self.empty_text = "No balance change yet."
        self.format_value: Callable[[int], str] = str
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMinimumHeight(130)
        self.setMouseTracking(True)

    def sizeHint(self) -> QSize:
        """Prefer a wide, short chart."""
        return QSize(640, 170)

    def show_steps(self, steps: BalanceSteps) -> None:
        """Draw new change points."""
        self.steps = steps
        highest = steps.highest()  # its axis rounded up; a balance always zero: 0 at the bottom
        self._top = int(axis_bounds(0, highest)[1]) if highest > 0 else 0
        self.update()

    def plot(self) -> QRectF:
        """Return the area the line is drawn in."""
        return QRectF(
            LEFT, TOP, max(10, self.width() - LEFT - RIGHT), max(10, self.height() - TOP - BOTTOM)
        )

    def x_of(self, block: int) -> float:
        """Return the x of a block."""
        plot, steps = self.plot(), self.steps
        span = max(1, steps.last - steps.first)
        return plot.left() + (block - steps.first) / span * plot.width()

    def y_of(self, balance: int) -> float:
        """Return the y of a balance (zero at the bottom)."""
        plot = self.plot()
        return plot.bottom() - balance / max(1, self._top) * plot.height()

    def step_at(self, x: float) -> BalanceStep | None:
        """Return the change point drawn within a few pixels of x, if any."""
        near = [s for s in self.steps.steps if abs(self.x_of(s.block) - x) <= PICK_PIXELS]
        return min(near, key=lambda s: abs(self.x_of(s.block) - x)) if near else None

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        """Name the change under the mouse."""
        step = self.step_at(event.position().x())
        if step is None:
            QToolTip.hideText()
            self.setCursor(Qt.CursorShape.ArrowCursor)
            return
        when = "" if step.timestamp is None else f" · {utc_text(step.timestamp)}"
        text = f"block {step.block:,}{when}\n{self.format_value(step.balance)} after ({step.note})"
        QToolTip.showText(event.globalPosition().toPoint(), plain_tooltip(text), self)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """Open the clicked change's block (Ctrl or middle button: in a new tab)."""
        step = self.step_at(event.position().x())
        if step is not None:
            ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
            middle = event.button() == Qt.MouseButton.MiddleButton
            self.link_activated.emit(block_route(step.block), ctrl or middle)

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the title, the axes' labels and the steps."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.WindowText)
        painter.setPen(text)
        draw_title(painter, self.title, self.width(), 2)
        plot, steps = self.plot(), self.steps
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid)))
        painter.drawRect(plot)
        if steps.empty and steps.opening == 0:
            painter.setPen(text)
            painter.drawText(plot, Qt.AlignmentFlag.AlignCenter, self.empty_text)
            return
        painter.setPen(text)
        left = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        for value in (self._top, 0) if self._top else (0,):
            y = self.y_of(value)
            painter.drawText(QRectF(0, y - 9, LEFT - 6, 18), left, self.format_value(value))
        below = QRectF(plot.left(), plot.bottom() + 2, plot.width(), BOTTOM - 2)
        painter.drawText(below, Qt.AlignmentFlag.AlignLeft, f"block {steps.first:,}")
        painter.drawText(below, Qt.AlignmentFlag.AlignRight, f"block {steps.last:,}")
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Highlight), 2))
        painter.drawPath(self._path())
        for step in steps.steps:
            painter.drawEllipse(QPointF(self.x_of(step.block), self.y_of(step.balance)), 2.5, 2.5)

    def _path(self) -> QPainterPath:
        """Return the step line: flat until each change, then up or down to the new balance."""
        steps = self.steps
        path = QPainterPath(QPointF(self.x_of(steps.first), self.y_of(steps.opening)))
        balance = steps.opening
        for step in steps.steps:
            x = self.x_of(step.block)
            path.lineTo(x, self.y_of(balance))
            balance = step.balance
            path.lineTo(x, self.y_of(balance))
        path.lineTo(self.x_of(steps.last), self.y_of(balance))
        return path
