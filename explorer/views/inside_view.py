"""The transaction page's Inside tab: the verdict first, then the calls, money trail, state diff."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QPushButton,
    QTabWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from explorer.presentation.document import Tone
from explorer.presentation.inside_diff import DIFF_COLUMNS
from explorer.presentation.inside_rows import FRAME_COLUMNS, MOVE_COLUMNS
from explorer.services.routes import Route
from explorer.viewmodels.observable import TypedSignal
from explorer.viewmodels.tx_inside import InsideState, InsideViewModel, Rows
from explorer.views.inside_tables import CellTree
from explorer.views.theme import plain_label, tone_palette
from explorer.views.widgets.address import USER_LABELS

FRAME_WIDTHS = (330, 170, 170, 120, 80)
MOVE_WIDTHS = (40, 150, 190, 190, 190, 50, 150)
DIFF_WIDTHS = (170, 150, 110, 110, 120, 150, 80, 90, 60)
TONES = {InsideState.ERROR: Tone.BAD, InsideState.ASKING: Tone.WAITING,
         InsideState.LOADING: Tone.MUTED, InsideState.CANCELLED: Tone.WAITING}  # fmt: skip


class InsideView(QWidget):
    """Binds an InsideViewModel.

    Signals:
        link_activated(Route, bool): an address was opened.
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, model: InsideViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        model.label_of = USER_LABELS.get
        self.headline = plain_label("", wrap=True)
        font = self.headline.font()
        font.setBold(True)
        self.headline.setFont(font)
        self.source = plain_label("", wrap=True)
        tone_palette(self.source, Tone.MUTED)
        self.facts = plain_label("", wrap=True)
        self.buttons = QHBoxLayout()
        self.allow_button = self._button("Replay it", model.on_allow)
        self.cancel_button = self._button("Cancel", model.on_cancel)
        self.retry_button = self._button("Trace again", model.on_retry)
        self.json_button = self._button("Export JSON…", lambda: self._export("JSON (*.json)"))
        self.csv_button = self._button("Export CSV…", lambda: self._export("CSV (*.csv)"))
        self.buttons.addStretch(1)
        self.saved = plain_label("")
        self.calls = CellTree(FRAME_COLUMNS, FRAME_WIDTHS)
        self.moves = CellTree(MOVE_COLUMNS, MOVE_WIDTHS)
        self.moves.setRootIsDecorated(False)
        self.diff = CellTree(DIFF_COLUMNS, DIFF_WIDTHS)
        self.sections = QTabWidget()
        for tree in (self.calls, self.moves, self.diff):
            tree.link_activated.connect(self.link_activated)
            self.sections.addTab(tree, "")
        layout = QVBoxLayout(self)
        for widget in (self.headline, self.source, self.facts):
            layout.addWidget(widget)
        layout.addLayout(self.buttons)
        layout.addWidget(self.saved)
        layout.addWidget(self.sections, 1)
        self.filler = QWidget()  # keeps the words at the top when no table shows
        layout.addWidget(self.filler, 1)
        self._frames: dict[int, QTreeWidgetItem] = {}
        model.state_changed.connect(self._show_state)
        model.rows_added.connect(self._add_rows)
        model.cleared.connect(self._clear)
        self._clear()
        self._show_state()

    def _button(self, text: str, slot: object) -> QPushButton:
        """Add a button to the row."""
        button = QPushButton(text)
        button.clicked.connect(slot)
        self.buttons.addWidget(button)
        return button

    def _show_state(self) -> None:
        """Show the verdict or the state's sentence, and the buttons it allows."""
        model, state = self.model, self.model.state
        self.headline.setText(model.headline)
        shown = state is InsideState.SHOWN
        tone = (Tone.GOOD if model.shows_tree else Tone.BAD) if shown else TONES.get(state)
        tone_palette(self.headline, tone or Tone.NORMAL)
        self.source.setText(model.source)
        self.source.setVisible(bool(model.source))
        self.facts.setText("\n".join(model.facts))
        self.facts.setVisible(bool(model.facts))
        self.allow_button.setVisible(state is InsideState.ASKING)
        self.cancel_button.setVisible(state is InsideState.LOADING)
        self.retry_button.setVisible(state in (InsideState.ERROR, InsideState.CANCELLED))
        for button in (self.json_button, self.csv_button):
            button.setVisible(shown)
        self.sections.setVisible(model.shows_tree)
        self.filler.setVisible(not model.shows_tree)
        self.saved.setVisible(bool(self.saved.text()))
        self._titles()

    def _titles(self) -> None:
        """Name the sections with their counts."""
        counts = (len(self._frames), self.moves.topLevelItemCount(),
                  self.diff.topLevelItemCount())  # fmt: skip
        for index, (title, count) in enumerate(zip(
                ("Calls", "Money trail", "State diff"), counts, strict=True)):  # fmt: skip
            text = f"{title} ({count:,})"
            if self.sections.tabText(index) != text:
                self.sections.setTabText(index, text)
        if self.model.result is not None and self.model.result.diff is None:
            self.sections.setTabText(2, "State diff (none from a node's trace)")

    def _clear(self) -> None:
        """Forget every row (a new trace begins)."""
        for tree in (self.calls, self.moves, self.diff):
            tree.clear()
        self._frames = {}
        self.saved.setText("")
        self._titles()

    def _add_rows(self, rows: Rows) -> None:
        """Append a slice of rows (sorting paused meanwhile)."""
        for frame in rows.frames:
            parent = self._frames.get(frame.parent) if frame.parent is not None else None
            self._frames[frame.index] = self.calls.add(frame.cells, parent, frame.failed)
        for move in rows.moves:
            self.moves.add(move)
        for change in rows.diff:
            item = self.diff.add(change.cells, failed=not change.reconciles)
            for slot, before, after in change.slots:
                child = self.diff.add((slot,), item)
                child.setText(0, f"{slot.text}: {before.text} → {after.text}")
                child.setToolTip(0, f"{slot.exact}\n{before.exact} → {after.exact}")
                child.setFirstColumnSpanned(True)
        self._titles()

    def _export(self, kind: str) -> None:
        """Ask where to save the export, then write it."""
        suffix = ".csv" if kind.startswith("CSV") else ".json"
        tx = self.model.tx_hash or "trace"
        name, _ = QFileDialog.getSaveFileName(self, "Export the trace", f"{tx[:18]}{suffix}", kind)
        if name:
            self.saved.setText(self.model.save(Path(name)))
            self.saved.setVisible(True)
