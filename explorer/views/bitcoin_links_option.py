"""The Settings dialog's Bitcoin explorer: where Bitcoin txids, addresses and blocks open."""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QGroupBox, QLineEdit, QPushButton, QWidget

from explorer.presentation.document import Tone
from explorer.viewmodels.bitcoin_links import NETWORKS, BitcoinLinksViewModel
from explorer.views.theme import plain_label, tone_palette


class BitcoinLinksOption(QGroupBox):
    """Edits the URL template of each Bitcoin network; the dialog's OK saves them."""

    def __init__(self, model: BitcoinLinksViewModel, parent: QWidget | None = None) -> None:
        super().__init__("Bitcoin explorer (Open in a Bitcoin explorer)", parent)
        self.model = model
        form = QFormLayout(self)
        form.addRow(
            plain_label("{kind} becomes tx, address or block; {id} the txid, address or hash.")
        )
        self.edits: dict[str, QLineEdit] = {}
        for network, name in NETWORKS.items():
            edit = QLineEdit(model.drafts[network])
            edit.setAccessibleName(f"{name} URL template")
            edit.textChanged.connect(lambda text, n=network: model.drafts.__setitem__(n, text))
            self.edits[network] = edit
            form.addRow(plain_label(name, selectable=False), edit)
        self.restore = QPushButton("Restore defaults")
        self.restore.clicked.connect(self._restore)
        self.problem = plain_label("")
        tone_palette(self.problem, Tone.BAD)
        self.problem.hide()
        form.addRow(self.restore, self.problem)
        model.problem_changed.connect(self._show_problem)

    def _restore(self) -> None:
        """Put the defaults back in the fields."""
        self.model.restore_defaults()
        for network, edit in self.edits.items():
            edit.setText(self.model.drafts[network])

    def _show_problem(self) -> None:
        """Say why the templates cannot be saved."""
        self.problem.setText(self.model.problem)
        self.problem.setVisible(bool(self.model.problem))
