"""The first-start view: what the local devnet is doing, the part built and the time left."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QVBoxLayout, QWidget

from explorer.viewmodels.devnet_start import DevnetStartViewModel, StartState
from explorer.views.theme import plain_label

EXPLANATION = (
    "The local devnet is a demo chain that runs on this computer, with accounts, tokens, "
    "contracts and a long history. This start builds that history once and keeps it in "
    "{cache}; later starts load it in a few seconds, and the chain keeps what is sent to it."
)
SHOWN = (StartState.STARTING, StartState.BUILDING)
COLUMN_WIDTH = 560


class DevnetProgressView(QWidget):
    """Covers the window's page area while the devnet starts; hides itself when it is up."""

    def __init__(self, model: DevnetStartViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.setAutoFillBackground(True)
        self.title = plain_label("Preparing the local devnet", selectable=False)
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        self.title.setFont(font)
        self.stage = plain_label("", selectable=False, wrap=True)
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setTextVisible(False)
        self.done = plain_label("", selectable=False)
        self.eta = plain_label("", selectable=False)
        cache = model.cache_dir or "your cache folder"
        self.explanation = plain_label(EXPLANATION.format(cache=cache), wrap=True)
        column = QWidget()
        column.setFixedWidth(
            COLUMN_WIDTH
        )  # a fixed width lets the wrapped labels take their height
        layout = QVBoxLayout(column)
        for widget in (self.title, self.stage, self.bar, self.done, self.eta):
            layout.addWidget(widget)
        layout.addSpacing(12)
        layout.addWidget(self.explanation)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(column)
        row.addStretch(1)
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(2)
        model.progress_changed.connect(self._show)
        if parent is not None:
            parent.installEventFilter(self)
            self.setGeometry(parent.rect())
        self._show()

    def _show(self) -> None:
        """Bind the model's state: texts, bar, visibility."""
        model = self.model
        self.stage.setText(model.stage)
        self.bar.setValue(round(model.fraction * 1000))
        self.bar.setRange(0, 0 if model.state is StartState.STARTING else 1000)  # busy until known
        self.done.setText(model.done)
        self.eta.setText(model.eta)
        self.setVisible(model.state in SHOWN)
        if self.isVisible() and self.parentWidget() is not None:
            self.raise_()  # above the page area's other children

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Cover the parent whenever it is resized."""
        if event.type() == QEvent.Type.Resize and isinstance(watched, QWidget):
            self.setGeometry(watched.rect())
        return False
