"""The Broadcast screen: the pasted transaction, Send and its confirmation, the details below."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from explorer.services.routes import Route
from explorer.viewmodels.broadcast import BroadcastViewModel, Stage
from explorer.viewmodels.observable import TypedSignal
from explorer.views.document_view import DocumentView
from explorer.views.theme import monospace, plain_label, tone_palette


class BroadcastView(QWidget):
    """Binds a BroadcastViewModel; the confirmation is inline, so nothing is sent by mistake.

    Signals:
        link_activated(Route, bool): the route, whether to open it in a new tab.
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, model: BroadcastViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.raw = QPlainTextEdit(model.text)  # what was pasted on the page it replaces
        self.raw.setPlaceholderText("Paste a signed transaction: 0xf86c…")
        self.raw.setMaximumHeight(110)
        monospace(self.raw)
        self.status = plain_label("", wrap=True)
        self.send_button = QPushButton("Send…")
        self.send_button.setToolTip("Asks first, naming the network and its chain id")
        self.confirm_button = QPushButton("")
        self.cancel_button = QPushButton("Cancel")
        self.document_view = DocumentView()
        self.document_view.title.hide()  # the status line above says it
        self.document_view.headline.hide()
        self._build()
        self.raw.textChanged.connect(lambda: model.set_raw(self.raw.toPlainText()))
        self.send_button.clicked.connect(model.on_send)
        self.confirm_button.clicked.connect(model.on_confirm)
        self.cancel_button.clicked.connect(model.on_cancel)
        self.document_view.link_activated.connect(self.link_activated)
        model.stage_changed.connect(self.on_changed)
        model.document_changed.connect(self.on_changed)
        self.on_changed()

    def _build(self) -> None:
        """Lay out the paste box, the status and buttons, and the details."""
        layout = QVBoxLayout(self)
        layout.addWidget(
            plain_label("Signed transaction (hex): decoded here, sent only if you confirm")
        )
        layout.addWidget(self.raw)
        row = QHBoxLayout()
        row.addWidget(self.status, 1)
        for button in (self.send_button, self.confirm_button, self.cancel_button):
            row.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(row)
        self.details = QScrollArea()
        self.details.setWidgetResizable(True)
        self.details.setWidget(self.document_view)
        layout.addWidget(self.details, 1)
        layout.addStretch(0)

    def on_changed(self) -> None:
        """Show the stage: status text, which buttons, the details."""
        model = self.model
        stage = model.stage
        document = model.document
        if document is not None:
            self.status.setText(document.headline.text)
            tone_palette(self.status, document.headline.tone)
            if document.sections:
                self.document_view.show_document(document)
            self.details.setVisible(bool(document.sections))
        confirming = stage is Stage.CONFIRMING
        self.send_button.setVisible(not confirming)
        self.send_button.setEnabled(model.can_send)
        network = model.session.network
        self.confirm_button.setText(f"Send to {network.name} (chain id {network.chain_id})")
        self.confirm_button.setVisible(confirming)
        self.cancel_button.setVisible(confirming)
        self.raw.setReadOnly(stage in (Stage.CONFIRMING, Stage.SENDING))
