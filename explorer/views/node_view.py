"""The node page: the node's facts as a document, and this network's daily quota to set."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QPushButton, QSpinBox, QVBoxLayout, QWidget

from explorer.services.routes import Route
from explorer.viewmodels.node_page import NodePageViewModel
from explorer.viewmodels.observable import TypedSignal
from explorer.views.page_view import PageView
from explorer.views.theme import plain_label

MAX_QUOTA = 100_000_000


class NodeView(QWidget):
    """Binds a NodePageViewModel: the page's document view, Refresh, and the quota.

    Signals:
        link_activated(Route, bool): the route, whether to open it in a new tab.
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, model: NodePageViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.page = PageView(model)
        self.page.link_activated.connect(self.link_activated)
        self.refresh = QPushButton("Ask again")
        self.refresh.setToolTip("Ask the node the seven questions again (seven requests)")
        self.refresh.clicked.connect(model.reload)
        self.quota = QSpinBox()
        self.quota.setRange(0, MAX_QUOTA)
        self.quota.setGroupSeparatorShown(True)
        self.quota.setSpecialValueText("none")
        self.quota.setValue(min(model.session.daily_quota, MAX_QUOTA))  # a hand-edited file
        self.quota.setToolTip(
            f"Requests a day this network's key may spend; shown on the home page. "
            f"Default: {model.default_quota:,} (0: none)."
        )
        self.quota.editingFinished.connect(lambda: model.set_daily_quota(self.quota.value()))
        row = QHBoxLayout()
        row.addWidget(self.refresh)
        row.addStretch(1)
        row.addWidget(
            plain_label(f"Daily quota of {model.session.network.name}:", selectable=False)
        )
        row.addWidget(self.quota)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.page, 1)
