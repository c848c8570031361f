"""Settings › Saved data and requests: size limit, and per network N, quota and Clear."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from explorer.presentation.document import Tone
from explorer.viewmodels.saved_data import SavedDataViewModel
from explorer.views.theme import plain_label, tone_palette

MAX_MB = 100_000
MAX_QUOTA = 10_000_000


def spin_box(low: int, high: int, suffix: str = "") -> QSpinBox:
    """Return a spin box with thousands separators."""
    box = QSpinBox()
    box.setRange(low, high)
    box.setGroupSeparatorShown(True)
    box.setSuffix(suffix)
    return box


class SavedDataDialog(QDialog):
    """Binds a SavedDataViewModel; every change applies at once."""

    def __init__(self, model: SavedDataViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.setWindowTitle("Settings — Saved data and requests")
        self.resize(620, 440)
        self.size_mb = spin_box(1, MAX_MB, " MB")
        self.size_mb.setToolTip("All networks together; the least recently used goes first")
        self.network = QComboBox()
        for network in model.networks:
            self.network.addItem(network.name, network.id)
        self.confirmations = spin_box(1, 10_000, " blocks")
        self.confirmations.setToolTip(
            "A block's transactions, receipts and logs are saved once this many blocks are on "
            "top of it (RSK reorganisations are short). Applies from the next connection."
        )
        self.quota = spin_box(0, MAX_QUOTA, " requests a day")
        self.quota.setSpecialValueText("none")
        self.saved = plain_label("", selectable=False)
        tone_palette(self.saved, Tone.MUTED)
        self.clear_button = QPushButton("Clear saved data of this network")
        self.message = plain_label("", selectable=False, wrap=True)
        general = QFormLayout()
        general.addRow("Keep at most", self.size_mb)
        per_network = QGroupBox("Per network")
        form = QFormLayout(per_network)
        form.addRow("Network", self.network)
        form.addRow("Settled after", self.confirmations)
        form.addRow("Daily quota per key", self.quota)
        form.addRow("", self.saved)
        form.addRow("", self.clear_button)
        form.addRow("", self.message)
        note = plain_label(
            "Pages already read open from the data saved on this computer: a settled block, "
            "transaction or log range costs no request the second time, and opens when the node "
            "cannot be reached. Requests are counted per key and day (UTC) by every window and "
            "command line; the status bar warns at 80% of the quota, and long scans say what "
            "they will cost before they start.",
            selectable=False,
            wrap=True,
        )
        tone_palette(note, Tone.MUTED)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(general)
        layout.addWidget(per_network)
        layout.addWidget(note)
        layout.addStretch(1)
        layout.addWidget(buttons)
        self._show()
        self.size_mb.editingFinished.connect(lambda: model.set_size_mb(self.size_mb.value()))
        self.network.currentIndexChanged.connect(
            lambda _index: model.choose(str(self.network.currentData()))
        )
        self.confirmations.editingFinished.connect(
            lambda: model.set_confirmations(self.confirmations.value())
        )
        self.quota.editingFinished.connect(lambda: model.set_quota(self.quota.value()))
        self.clear_button.clicked.connect(model.clear)
        model.changed.connect(self._show)

    def _show(self) -> None:
        """Show the model's values (without echoing them back)."""
        model = self.model
        for box, value in (
            (self.size_mb, model.size_mb),
            (self.confirmations, model.confirmations),
            (self.quota, model.quota),
        ):
            if box.value() != value and not box.hasFocus():
                box.blockSignals(True)
                box.setValue(value)
                box.blockSignals(False)
        self.quota.setToolTip(
            f"Requests a day this network's key may spend. Default: {model.default_quota:,} "
            "(0: none)."
        )
        index = self.network.findData(model.network.id)
        if index != self.network.currentIndex():
            self.network.blockSignals(True)
            self.network.setCurrentIndex(index)
            self.network.blockSignals(False)
        self.saved.setText(model.saved_text)
        self.message.setText(model.message)

    def done(self, result: int) -> None:
        """Stop the model's work when closed."""
        self.model.dispose()
        super().done(result)
