"""The home page: header cards, the latest blocks and transactions side by side, small charts."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QHideEvent, QPalette, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from explorer.presentation.document import Tone
from explorer.presentation.home_cards import Card
from explorer.services.routes import Route
from explorer.viewmodels.home import HomeState, HomeViewModel
from explorer.viewmodels.home_tables import LatestBlocksModel
from explorer.viewmodels.observable import TypedSignal
from explorer.viewmodels.roles import TONE_ROLE
from explorer.views.charts import Chart, ChartKind
from explorer.views.theme import plain_label, plain_tooltip, tone_colour
from explorer.views.widgets.columns import needed_width
from explorer.views.widgets.links import open_clicked_routes
from explorer.views.widgets.sortable import make_sortable

HINT = "Paste a transaction hash, a block number, an address or a name.rsk above."
CARD_COLUMNS = 4
# The widest text each column usually holds; None: an address or hash, elided in the middle,
# its column sharing what the others leave (so the tables fit beside the bookmarks panel).
WIDEST_BLOCK = ("99,999,999", "23 h 59 min ago", "1,000", "100.0%", None, None)
WIDEST_TX = (None, "999 days ago", None, None, "≈0.000123 tRBTC")
CELL_PADDING = 12
SIDE_MARGINS = 40  # the page's margins and the splitter's handle
QWIDGETSIZE_MAX = (1 << 24) - 1  # Qt's "no maximum"
CHART_KINDS = (ChartKind.LINE, ChartKind.BARS, ChartKind.BARS, ChartKind.LINE)


class ToneDelegate(QStyledItemDelegate):
    """Colours a cell's text by its tone (TONE_ROLE); a long note is cut at its end."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        """Use the tone's colour for the text, eliding it on the right."""
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideRight
        tone = index.data(TONE_ROLE)
        if isinstance(tone, Tone) and tone is not Tone.NORMAL:
            option.palette.setColor(QPalette.ColorRole.Text, tone_colour(tone, option.palette))


def set_tone(label: QWidget, tone: Tone, base: QPalette) -> None:
    """Colour a label's text by tone, read from base (a palette no tone has changed)."""
    palette = label.palette()
    colour = tone_colour(tone, base)
    if palette.color(QPalette.ColorRole.WindowText) != colour:  # a new palette re-polishes
        palette.setColor(QPalette.ColorRole.WindowText, colour)
        label.setPalette(palette)


class CardWidget(QFrame):
    """One header card: a small title, a big value, a line of detail."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.setSpacing(1)
        self.title = plain_label(selectable=False)
        self.value = plain_label()
        font = self.value.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setBold(True)
        self.value.setFont(font)
        self.detail = plain_label(wrap=True)  # a narrow card wraps it rather than widen
        for label in (self.title, self.value, self.detail):
            layout.addWidget(label)

    def show_card(self, card: Card, stale: bool) -> None:
        """Show a card's texts, in its tone (greyed when stale)."""
        self.title.setText(card.title)
        self.value.setText(card.value)
        self.detail.setText(card.detail)
        tooltip = plain_tooltip(card.tooltip) if card.tooltip else ""
        if tooltip != self.toolTip():
            self.setToolTip(tooltip)
        base = self.palette()
        set_tone(self.value, Tone.MUTED if stale else card.tone, base)
        set_tone(self.title, Tone.MUTED, base)
        set_tone(self.detail, Tone.MUTED, base)


def table(model: QAbstractItemModel, widest: tuple[str | None, ...]) -> QTableView:
    """Return a compact read-only table of a rows model, links opened on click.

    A column of numbers, ages or values is as wide as its widest usual text, full or empty
    (no blocks yet, or none shown from an unverified node): it never collapses, and a wider
    text widens it (fit_columns). Addresses and hashes share the rest, elided in the middle.
    """
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setWordWrap(False)
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setDefaultSectionSize(22)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    make_sortable(view)  # the titles leave room for the sort arrow
    cells = view.fontMetrics()
    for column, text in enumerate(widest):
        title = header.sectionSizeFromContents(column).width()
        if text is None:
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        else:
            view.setColumnWidth(column, max(cells.horizontalAdvance(text) + CELL_PADDING, title))
    header.setStretchLastSection(False)
    header.setMinimumSectionSize(cells.horizontalAdvance("0x1…9") + CELL_PADDING)
    model.modelReset.connect(lambda: fit_columns(view, widest))
    return view


def fit_columns(view: QTableView, widest: tuple[str | None, ...]) -> None:
    """Widen a column of whole texts to a text wider than usual (an old age, a long value)."""
    for column, text in enumerate(widest):
        if text is not None:
            needed = view.sizeHintForColumn(column)
            if needed > view.columnWidth(column):
                view.setColumnWidth(column, needed)


def titled(title: str, widget: QWidget, note: QLabel | None = None) -> QWidget:
    """Return a widget under a bold title (and a note below it)."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    label = plain_label(title, selectable=False)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    layout.addWidget(label)
    layout.addWidget(widget, 1)
    if note is not None:
        layout.addWidget(note)
    return box


class HomeView(QWidget):
    """Binds a HomeViewModel; tells it when it shows and whether the transactions show.

    Signals:
        link_activated(Route, bool): the route, whether to open it in a new tab.
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, model: HomeViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        layout = QVBoxLayout(self)
        layout.addWidget(plain_label(HINT, selectable=False, wrap=True))
        layout.addLayout(self._status_row())
        self.cards = [CardWidget() for _ in model.cards]
        grid = QGridLayout()
        for index, card in enumerate(self.cards):
            grid.addWidget(card, index // CARD_COLUMNS, index % CARD_COLUMNS)
        layout.addLayout(grid)
        self.table = table(model.blocks, WIDEST_BLOCK)
        self.table.setItemDelegateForColumn(LatestBlocksModel.NOTE, ToneDelegate(self.table))
        self.table.setColumnHidden(LatestBlocksModel.NOTE, True)  # until a block was replaced
        model.blocks.modelReset.connect(self._show_notes)
        self.transactions_table = table(model.transactions, WIDEST_TX)
        for view in (self.table, self.transactions_table):
            open_clicked_routes(view, self.link_activated.emit)
        self.gap_note = plain_label(selectable=False, wrap=True)
        set_tone(self.gap_note, Tone.MUTED, self.palette())
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(titled("Latest blocks", self.table))
        self.transactions_pane = titled(
            "Latest transactions", self.transactions_table, self.gap_note
        )
        self.splitter.addWidget(self.transactions_pane)
        self.splitter.splitterMoved.connect(self._on_split)
        for rows in (model.blocks, model.transactions):  # after the columns fit their texts
            rows.modelReset.connect(self._arrange_tables)
        layout.addWidget(self.splitter, 1)
        self.charts = [Chart(kind=kind, compact=True) for kind in CHART_KINDS]
        row = QHBoxLayout()
        for chart in self.charts:
            chart.link_activated.connect(self.link_activated)
            row.addWidget(chart)
        layout.addLayout(row)
        model.summary_changed.connect(self._show_status)
        model.state_changed.connect(self._show_state)
        model.cards_changed.connect(self._show_cards)
        model.charts_changed.connect(self._show_charts)
        self._show_state()
        self._show_charts()

    def _show_notes(self) -> None:
        """Show the Note column while a block listed was replaced by a reorganisation."""
        self.table.setColumnHidden(LatestBlocksModel.NOTE, not self.model.blocks.has_notes)

    def _status_row(self) -> QGridLayout:
        """Return the summary and the toggles, the status line under them."""
        row = QGridLayout()
        self.summary = plain_label(self.model.summary, wrap=True)  # narrow: on two lines
        font = self.summary.font()
        font.setBold(True)
        self.summary.setFont(font)
        self.message = plain_label(self.model.status, wrap=True)
        self.live_button = QToolButton()
        self.live_button.setText("Live")
        self.live_button.setCheckable(True)
        self.live_button.setChecked(self.model.live)
        self.live_button.setToolTip("Follow new blocks as they arrive (off: pause, no requests)")
        self.live_button.toggled.connect(self.model.set_live)
        self.transactions_button = QToolButton()
        self.transactions_button.setText("Transactions")
        self.transactions_button.setCheckable(True)
        self.transactions_button.setChecked(True)
        self.transactions_button.setToolTip(
            "Show the latest transactions (off: new blocks are read without them)"
        )
        self.transactions_button.toggled.connect(self._show_transactions)
        row.addWidget(self.summary, 0, 0)
        row.addWidget(self.message, 1, 0)
        row.addWidget(self.transactions_button, 0, 1)
        row.addWidget(self.live_button, 0, 2)
        row.setColumnStretch(0, 1)
        return row

    def _show_transactions(self, shown: bool) -> None:
        """Show or hide the transactions list; the model reads full blocks only when shown."""
        self.transactions_pane.setVisible(shown)
        self.model.set_transactions_visible(shown)
        self._arrange_tables()

    def _show_status(self) -> None:
        """Show the summary and the status line."""
        self.summary.setText(self.model.summary)
        self.message.setText(self.model.status)
        missing = self.model.missing_transactions
        self.gap_note.setText(
            f"{missing} of the blocks listed were read while this list was hidden: their "
            "transactions are not read again."
            if missing
            else ""
        )
        self.gap_note.setVisible(bool(missing))

    def _show_state(self) -> None:
        """Grey what is shown while stale; reflect the Live toggle."""
        state = self.model.state
        stale = state in (HomeState.STALE, HomeState.CHECKING, HomeState.ERROR)
        set_tone(self.message, Tone.BAD if stale else Tone.NORMAL, self.palette())
        for view in (self.table, self.transactions_table):
            palette = view.palette()
            colour = self.palette().color(
                QPalette.ColorRole.PlaceholderText if stale else QPalette.ColorRole.Text
            )
            palette.setColor(QPalette.ColorRole.Text, colour)
            view.setPalette(palette)
        self.live_button.setChecked(self.model.live)
        self._show_cards()
        self._show_status()

    def _show_cards(self) -> None:
        """Show the cards (greyed when stale)."""
        stale = self.model.state is HomeState.STALE
        for widget, card in zip(self.cards, self.model.cards, strict=True):
            widget.show_card(card, stale)

    def _show_charts(self) -> None:
        """Show the charts' series."""
        for chart, series in zip(self.charts, self.model.series, strict=True):
            chart.show_series(series)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Put the two tables side by side where both read whole, else one above the other."""
        super().resizeEvent(event)
        self._arrange_tables()

    def _arrange_tables(self) -> None:
        """Choose the tables' arrangement for the width the page has."""
        needed = sum(
            needed_width(view, [c for c, text in enumerate(widest) if text is None])
            for view, widest in ((self.table, WIDEST_BLOCK), (self.transactions_table, WIDEST_TX))
        )
        wide = self.transactions_pane.isHidden() or self.width() >= needed + SIDE_MARGINS
        orientation = Qt.Orientation.Horizontal if wide else Qt.Orientation.Vertical
        if self.splitter.orientation() is not orientation:
            self.splitter.setOrientation(orientation)
            for chart in self.charts:  # stacked, the tables take the charts' spare height
                chart.setMaximumHeight(QWIDGETSIZE_MAX if wide else chart.minimumHeight())

    def _on_split(self) -> None:
        """Tell the model whether the transactions list can be seen (shown, not collapsed)."""
        shown = not self.transactions_pane.isHidden()
        self.model.set_transactions_visible(shown and self.splitter.sizes()[1] > 0)

    def showEvent(self, event: QShowEvent) -> None:
        """Follow the head while shown."""
        super().showEvent(event)
        self.model.set_visible(True)

    def hideEvent(self, event: QHideEvent) -> None:
        """Stop following the head while hidden (another tab, window minimised)."""
        super().hideEvent(event)
        self.model.set_visible(False)
