"""The Settings dialog: networks on the left, the chosen one's settings on the right."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from explorer.presentation.document import Tone
from explorer.viewmodels.bitcoin_links import BitcoinLinksViewModel
from explorer.viewmodels.keyring_option import KeyringOptionViewModel, KeyringState
from explorer.viewmodels.network_settings import NetworkSettingsViewModel
from explorer.viewmodels.wait_option import CallTimeoutOption
from explorer.views.bitcoin_links_option import BitcoinLinksOption
from explorer.views.network_form_panel import NetworkFormPanel
from explorer.views.network_list_panel import NetworkListPanel
from explorer.views.theme import plain_label, tone_palette


class KeyringOption(QWidget):
    """The keyring check box and its note, bound to the keyring option's view model."""

    def __init__(self, model: KeyringOptionViewModel, parent: QWidget | None = None) -> None:
        """Build the check box and the note; follow the model."""
        super().__init__(parent)
        self.model = model
        self.check = QCheckBox("Keep API keys in the system keyring")
        self.note = plain_label(wrap=True, selectable=False)
        tone_palette(self.note, Tone.MUTED)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.check)
        column.addWidget(self.note)
        self.check.toggled.connect(model.choose)
        model.changed.connect(self._show)
        self._show()

    def _show(self) -> None:
        """Show the drafted choice, whether it can be made, and the note."""
        self.check.blockSignals(True)
        self.check.setChecked(self.model.chosen)
        self.check.blockSignals(False)
        self.check.setEnabled(self.model.state is KeyringState.AVAILABLE)
        self.note.setText(self.model.note)


class CallTimeoutRow(QWidget):
    """How long a call may wait for a node, in seconds, bound to its option's draft."""

    def __init__(self, model: CallTimeoutOption, parent: QWidget | None = None) -> None:
        """Build the spin box and its label."""
        super().__init__(parent)
        self.model = model
        self.seconds = QSpinBox()
        self.seconds.setRange(*model.seconds_range)
        self.seconds.setSuffix(" s")
        self.seconds.setValue(model.seconds)
        self.seconds.setToolTip("A call the node does not answer, retries included, ends then")
        self.seconds.valueChanged.connect(model.choose)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(plain_label("Give up on a call the node does not answer after"))
        row.addWidget(self.seconds)
        row.addStretch(1)


class SettingsDialog(QDialog):
    """Binds the Settings view model to a list panel and a form panel; OK saves, Cancel drops."""

    def __init__(
        self,
        model: NetworkSettingsViewModel,
        parent: QWidget | None = None,
        bitcoin: BitcoinLinksViewModel | None = None,
        call_timeout: CallTimeoutOption | None = None,
    ) -> None:
        """Show the model's drafts, the current network selected (and the Bitcoin explorer)."""
        super().__init__(parent)
        self.model = model
        self.bitcoin = BitcoinLinksOption(bitcoin) if bitcoin is not None else None
        self.call_timeout = call_timeout
        self.setWindowTitle("Settings — Networks")
        self.resize(860, 640)  # room for Testnet's key hint under the Bitcoin links
        self.list_panel = NetworkListPanel(model)
        self.form_panel = NetworkFormPanel(model)
        self.keyring_option = KeyringOption(model.keyring)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        body = QHBoxLayout()
        body.addWidget(self.list_panel)
        body.addWidget(self.form_panel, 1)
        outer = QVBoxLayout(self)
        outer.addLayout(body, 1)
        outer.addWidget(self.keyring_option)
        if self.bitcoin is not None:
            outer.addWidget(self.bitcoin)
        if call_timeout is not None:
            self.call_timeout_row = CallTimeoutRow(call_timeout)
            outer.addWidget(self.call_timeout_row)
        outer.addWidget(self.buttons)
        self.list_panel.add_button.clicked.connect(self.form_panel.name_edit.setFocus)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

    def accept(self) -> None:
        """Save every draft and removal; on errors the model shows the first bad draft."""
        if self.bitcoin is not None and not self.bitcoin.model.accept():
            return
        if self.model.accept():
            if self.call_timeout is not None:
                self.call_timeout.apply()
            super().accept()

    def reject(self) -> None:
        """Close without saving."""
        self.model.dispose()
        super().reject()
