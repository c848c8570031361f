"""Small charts drawn with QPainter (QtCharts is not in PySide6-Essentials): line and bars."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from explorer.viewmodels.address.charts import Series

MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 170, 16, 28, 30


class ChartKind(enum.Enum):
    """How a chart draws its values."""

    LINE = "line"  # a line with a dot per value, broken where a value is None
    BARS = "bars"  # one bar per value, from zero


class Chart(QWidget):
    """A titled chart of values over an x range: a line (gaps for None) or bars."""

    def __init__(
        self, title: str = "", kind: ChartKind = ChartKind.LINE, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.title = title
        self.kind = kind
        self.values: list[float | None] = []
        self.x_labels = ("", "")
        self.empty_text = "No data yet."
        self.zero_based = kind is ChartKind.BARS
        self.format_value: Callable[[float], str] = lambda v: f"{v:,.0f}"
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumHeight(180)

    def sizeHint(self) -> QSize:
        """Prefer a wide, short chart."""
        return QSize(640, 240)

    def set_data(self, values: Sequence[float | None], first: str = "", last: str = "") -> None:
        """Show values from the x label first to last."""
        self.values = list(values)
        self.x_labels = (first, last)
        self.update()

    def show_series(self, series: Series) -> None:
        """Show a view model's series: its title, its note when empty, its values."""
        self.title = series.title
        self.empty_text = series.empty_text
        self.set_data(series.values, series.first, series.last)

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the title, axes, min/max labels and the data."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        text_pen = QPen(palette.color(QPalette.ColorRole.WindowText))
        painter.setPen(text_pen)
        bold = painter.font()
        bold.setBold(True)
        painter.setFont(bold)
        painter.drawText(
            QRectF(8, 4, self.width() - 16, 20), Qt.AlignmentFlag.AlignLeft, self.title
        )
        bold.setBold(False)
        painter.setFont(bold)
        plot = QRectF(
            MARGIN_LEFT,
            MARGIN_TOP,
            max(10, self.width() - MARGIN_LEFT - MARGIN_RIGHT),
            max(10, self.height() - MARGIN_TOP - MARGIN_BOTTOM),
        )
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid)))
        painter.drawRect(plot)
        known = [v for v in self.values if v is not None]
        painter.setPen(text_pen)
        if not known:
            painter.drawText(plot, Qt.AlignmentFlag.AlignCenter, self.empty_text)
            return
        low, high = min(known), max(known)
        if self.zero_based:
            low = min(0.0, low)
        if high - low <= abs(high) * 1e-9:  # flat: give the line room (±1 is lost on 1e24)
            pad = max(abs(high) * 0.05, 1.0)
            low, high = low - pad, high + pad
        span = high - low
        self._axis_labels(painter, plot, low, high)
        colour = palette.color(QPalette.ColorRole.Highlight)
        if self.kind is ChartKind.BARS:
            self._bars(painter, plot, low, span, colour)
        else:
            self._line(painter, plot, low, span, colour)

    def _axis_labels(self, painter: QPainter, plot: QRectF, low: float, high: float) -> None:
        """Write the y range and the x range's ends."""
        left = QRectF(0, plot.top() - 8, MARGIN_LEFT - 6, 16)
        painter.drawText(left, Qt.AlignmentFlag.AlignRight, self.format_value(high))
        left.moveTop(plot.bottom() - 8)
        painter.drawText(left, Qt.AlignmentFlag.AlignRight, self.format_value(low))
        below = QRectF(plot.left(), plot.bottom() + 4, plot.width(), 20)
        painter.drawText(below, Qt.AlignmentFlag.AlignLeft, self.x_labels[0])
        painter.drawText(below, Qt.AlignmentFlag.AlignRight, self.x_labels[1])

    def _y(self, plot: QRectF, value: float, low: float, span: float) -> float:
        """Return the y coordinate of a value."""
        return plot.bottom() - (value - low) / span * plot.height()

    def _bars(
        self, painter: QPainter, plot: QRectF, low: float, span: float, colour: QColor
    ) -> None:
        """Draw one bar per value."""
        width = plot.width() / max(1, len(self.values))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        for i, value in enumerate(self.values):
            if value:
                top = self._y(plot, value, low, span)
                painter.drawRect(
                    QRectF(plot.left() + i * width + 1, top, max(1, width - 2), plot.bottom() - top)
                )

    def _line(
        self, painter: QPainter, plot: QRectF, low: float, span: float, colour: QColor
    ) -> None:
        """Draw a line through the values, with a dot at each, broken where a value is None."""
        pen = QPen(colour)
        pen.setWidthF(2)
        painter.setPen(pen)
        painter.setBrush(colour)
        step = plot.width() / max(1, len(self.values) - 1)
        previous: QPointF | None = None
        for i, value in enumerate(self.values):
            if value is None:
                previous = None
                continue
            point = QPointF(plot.left() + i * step, self._y(plot, value, low, span))
            if previous is not None:
                painter.drawLine(previous, point)
            painter.drawEllipse(point, 2.5, 2.5)
            previous = point
