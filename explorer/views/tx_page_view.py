"""The transaction page's view: a PageView whose not-found state says why, and where else."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from explorer.viewmodels.tx_page import TxPageViewModel
from explorer.views.document_view import DocumentView
from explorer.views.inside_view import InsideView
from explorer.views.page_view import PageView


class TxPageView(PageView):
    """Binds a TxPageViewModel: the not-found panel shows its details and 'open it there'."""

    def __init__(self, model: TxPageViewModel, parent: QWidget | None = None) -> None:
        self.tx_model = model
        self.details_view = DocumentView()
        self.open_buttons: list[QPushButton] = []
        self.inside = InsideView(model.inside)
        super().__init__(model, parent)
        self.inside.link_activated.connect(self.link_activated)
        self.content.currentChanged.connect(self._on_inside_shown)
        self.details_view.link_activated.connect(self.link_activated)
        panel = self.not_found.layout()
        assert isinstance(panel, QVBoxLayout)
        panel.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter)
        self.open_row = QHBoxLayout()
        self.open_row.addStretch(1)
        self.open_row.addStretch(1)
        panel.addLayout(self.open_row)
        self.details_scroll = scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(self.details_view)
        scroll.setMinimumWidth(900)
        panel.addWidget(scroll, 1)
        model.details_changed.connect(self._show_details)
        self._show_details()

    def extra_tabs(self) -> list[tuple[QWidget, str]]:
        """Offer the Inside tab for a mined transaction."""
        return [(self.inside, "Inside")] if self.tx_model.inside.tx_hash is not None else []

    def _on_inside_shown(self, index: int) -> None:
        """Trace the transaction when its Inside tab is chosen (never before)."""
        if self.content.widget(index) is self.inside:
            self.tx_model.inside.on_shown()

    def _show_details(self) -> None:
        """Show the diagnosis and a button for each other network that has the transaction."""
        details = self.tx_model.details
        self.details_scroll.setVisible(details is not None)
        # the details' title and headline say what the panel's own words say, and more
        self.not_found_heading.setVisible(details is None)
        self.not_found_text.setVisible(details is None)
        if details is not None:
            self.details_view.show_document(details)
        for button in self.open_buttons:
            self.open_row.removeWidget(button)
            button.deleteLater()
        self.open_buttons = []
        for sighting in self.tx_model.found_elsewhere:
            button = QPushButton(f"Open it on {sighting.network.name}")
            button.setToolTip(f"Switch the window to {sighting.network.name} ({sighting.where})")
            network_id = sighting.network.id
            button.clicked.connect(lambda _=False, n=network_id: self.tx_model.on_open_on(n))
            self.open_row.insertWidget(self.open_row.count() - 1, button)
            self.open_buttons.append(button)
