"""Small charts drawn with QPainter: line and bars, a note on hover, a link on click.

QtCharts is not in PySide6-Essentials (it comes with PySide6-Addons, a wheel several times
the size of the app's bundle) and pyqtgraph would bring numpy: a hundred points a chart
need neither, so these charts are one small QPainter widget, tested like any other.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from explorer.presentation.series import Series
from explorer.services.routes import Route
from explorer.viewmodels.observable import TypedSignal
from explorer.views.theme import plain_tooltip

MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 170, 16, 28, 30
COMPACT_MARGIN_LEFT = 64
DOT_SPACING = 6  # pixels between values for a dot at each


def axis_text(value: float) -> str:
    """Return an axis value: whole with separators when large, four figures when small."""
    return f"{value:,.0f}" if abs(value) >= 1000 or value == int(value) else f"{value:.4g}"


def round_step(span: float) -> float:
    """Return a round step (1, 2 or 5 × 10^k) of about a tenth of a span (positive)."""
    rough = span / 10
    power = 10.0 ** math.floor(math.log10(rough))
    return next(f * power for f in (1, 2, 5, 10) if f * power >= rough * (1 - 1e-12))


def axis_bounds(low: float, high: float) -> tuple[float, float]:
    """Return round bounds around low..high (high > low), e.g. 9,993,158.4–9,993,160."""
    step = round_step(high - low)
    if step >= 1:  # whole steps in exact integers: 1e25 wei keeps its round digits
        whole = int(step)
        return float(math.floor(low) // whole * whole), float(-(-math.ceil(high) // whole) * whole)
    return math.floor(low / step) * step, math.ceil(high / step) * step


def is_flat(low: float, high: float) -> bool:
    """Tell whether a series' range is one value (its axis then shows that value alone)."""
    return high - low <= abs(high) * 1e-9


def draw_title(painter: QPainter, title: str, width: int, top: int) -> None:
    """Draw a chart's title in bold at its top left; the painter's font is left regular."""
    font = painter.font()
    font.setBold(True)
    painter.setFont(font)
    painter.drawText(QRectF(8, top, width - 16, 20), Qt.AlignmentFlag.AlignLeft, title)
    font.setBold(False)
    painter.setFont(font)


class ChartKind(enum.Enum):
    """How a chart draws its values."""

    LINE = "line"  # a line with a dot per value, broken where a value is None
    BARS = "bars"  # one bar per value, from zero


class Chart(QWidget):
    """A titled chart of values over an x range: a line (gaps for None) or bars.

    A series with per-value notes shows the note of the value under the mouse; one with
    links opens the value's link on click (Ctrl+click: in a new tab).

    Signals:
        link_activated(Route, bool): the clicked value's route, whether to open a new tab.
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(
        self,
        title: str = "",
        kind: ChartKind = ChartKind.LINE,
        parent: QWidget | None = None,
        *,
        compact: bool = False,
    ) -> None:
        super().__init__(parent)
        self.title = title
        self.kind = kind
        self.values: list[float | None] = []
        self.x_labels = ("", "")
        self.empty_text = "No data yet."
        self.zero_based = kind is ChartKind.BARS
        self.format_value: Callable[[float], str] = axis_text
        self.y_labels: list[str] = []  # the values written on the y axis (last painted)
        self.series: Series | None = None
        self.hovered: int | None = None
        self.margin_left = COMPACT_MARGIN_LEFT if compact else MARGIN_LEFT
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumHeight(120 if compact else 180)
        self.setMouseTracking(True)

    def sizeHint(self) -> QSize:
        """Prefer a wide, short chart."""
        return QSize(640, 240)

    def plot_rect(self) -> QRectF:
        """Return the area the values are drawn in."""
        return QRectF(
            self.margin_left,
            MARGIN_TOP,
            max(10, self.width() - self.margin_left - MARGIN_RIGHT),
            max(10, self.height() - MARGIN_TOP - MARGIN_BOTTOM),
        )

    def index_at(self, x: float) -> int | None:
        """Return the index of the value drawn nearest x (None: outside the plot or none)."""
        plot, count = self.plot_rect(), len(self.values)
        if not count or not plot.left() <= x <= plot.right():
            return None
        if self.kind is ChartKind.BARS:
            return min(int((x - plot.left()) / (plot.width() / count)), count - 1)
        step = plot.width() / max(1, count - 1)
        return min(round((x - plot.left()) / step), count - 1)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        """Show the note of the value under the mouse."""
        index = self.index_at(event.position().x())
        if index != self.hovered:
            self.hovered = index
            self.update()
        note = "" if index is None or self.series is None else self.series.point(index)
        if note:
            QToolTip.showText(event.globalPosition().toPoint(), plain_tooltip(note), self)
        else:
            QToolTip.hideText()
        has_link = index is not None and self.series is not None and self.series.link(index)
        self.setCursor(
            Qt.CursorShape.PointingHandCursor if has_link else Qt.CursorShape.ArrowCursor
        )

    def leaveEvent(self, event: QEvent) -> None:
        """Forget the hovered value."""
        self.hovered = None
        self.update()
        super().leaveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """Open the clicked value's link (Ctrl or middle button: in a new tab)."""
        index = self.index_at(event.position().x())
        route = None if index is None or self.series is None else self.series.link(index)
        if route is None:
            return
        ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        self.link_activated.emit(route, ctrl or event.button() == Qt.MouseButton.MiddleButton)

    def set_data(self, values: Sequence[float | None], first: str = "", last: str = "") -> None:
        """Show values from the x label first to last."""
        self.values = list(values)
        self.x_labels = (first, last)
        self.update()

    def show_series(self, series: Series) -> None:
        """Show a view model's series: its title, its note when empty, its values."""
        self.series = series
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
        draw_title(painter, self.title, self.width(), 4)
        plot = self.plot_rect()
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
        flat = is_flat(low, high)
        if flat:  # one value: the line in the middle, its value alone on the axis
            pad = abs(high) * 0.05 or 1.0  # (±1 is lost on 1e24, and would dwarf 0.06)
            low, high = high - pad, high + pad
        else:
            low, high = axis_bounds(low, high)
        span = high - low
        self._axis_labels(painter, plot, low, high, flat)
        colour = palette.color(QPalette.ColorRole.Highlight)
        if self.kind is ChartKind.BARS:
            self._bars(painter, plot, low, span, colour)
        else:
            self._line(painter, plot, low, span, colour)
        self._mark_hovered(painter, plot)

    def _mark_hovered(self, painter: QPainter, plot: QRectF) -> None:
        """Draw a thin vertical line at the hovered value."""
        if self.hovered is None or not self.values:
            return
        count = len(self.values)
        if self.kind is ChartKind.BARS:
            x = plot.left() + (self.hovered + 0.5) * plot.width() / count
        else:
            x = plot.left() + self.hovered * plot.width() / max(1, count - 1)
        painter.setPen(QPen(self.palette().color(QPalette.ColorRole.WindowText), 1))
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))

    def _axis_labels(
        self, painter: QPainter, plot: QRectF, low: float, high: float, flat: bool
    ) -> None:
        """Write the y range (a flat series' one value, in the middle) and the x range's ends."""
        top, bottom = self.format_value(high), self.format_value(low)
        flat = flat or top == bottom  # (a format may round both ends alike: never "0–0")
        self.y_labels = [self.format_value((low + high) / 2)] if flat else [top, bottom]
        left = QRectF(0, plot.top() - 8, self.margin_left - 6, 16)
        if flat:
            left.moveTop(plot.center().y() - 8)
        painter.drawText(left, Qt.AlignmentFlag.AlignRight, self.y_labels[0])
        if not flat:
            left.moveTop(plot.bottom() - 8)
            painter.drawText(left, Qt.AlignmentFlag.AlignRight, bottom)
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
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)  # upright edges
        bars = []
        for i, value in enumerate(self.values):
            if value:
                top = self._y(plot, value, low, span)
                bars.append(
                    QRectF(plot.left() + i * width + 1, top, max(1, width - 2), plot.bottom() - top)
                )
        painter.drawRects(bars)  # one call: a new block repaints every chart

    def _line(
        self, painter: QPainter, plot: QRectF, low: float, span: float, colour: QColor
    ) -> None:
        """Draw a line through the values, with a dot at each, broken where a value is None."""
        pen = QPen(colour)
        pen.setWidthF(2)
        painter.setPen(pen)
        painter.setBrush(colour)
        step = plot.width() / max(1, len(self.values) - 1)
        dots = step >= DOT_SPACING  # a dot per value where they do not crowd
        runs: list[list[QPointF]] = [[]]  # unbroken stretches, one polyline each
        for i, value in enumerate(self.values):
            if value is None:
                runs.append([])
                continue
            point = QPointF(plot.left() + i * step, self._y(plot, value, low, span))
            if dots or not runs[-1]:  # a lone value shows as a dot
                painter.drawEllipse(point, 2.5, 2.5)
            runs[-1].append(point)
        for run in runs:
            if len(run) > 1:
                painter.drawPolyline(run)
