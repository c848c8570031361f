"""The address page: the summary with its block picker, then one tab per tool."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QWidget

from explorer.viewmodels.address.page import AddressPageViewModel, AddressTab
from explorer.views.address.activity import ActivityTab
from explorer.views.address.charts import ChartsTab
from explorer.views.address.contract import ContractTab
from explorer.views.address.history import HistoryTab
from explorer.views.address.overview import BlockPicker, DisassemblyView
from explorer.views.address.tokens import TokensTab
from explorer.views.page_view import PageView
from explorer.views.watchlist_view import WatchStar


class AddressView(PageView):
    """Binds an AddressPageViewModel: one widget per tab, each bound to its tool.

    Signals:
        link_activated(Route, bool): the route, whether to open it in a new tab (from PageView).
    """

    def __init__(self, model: AddressPageViewModel, parent: QWidget | None = None) -> None:
        super().__init__(model, parent)
        self.address_model = model
        self.block_picker = BlockPicker(model.overview)
        self.tokens_tab = TokensTab(model.tokens)
        self.code_view = DisassemblyView(model.overview)
        self.contract_tab = ContractTab(
            model.contract, model.storage, model.read_contract, model.simulation
        )
        self.activity_tab = ActivityTab(model.activity)
        self.charts_tab = ChartsTab(model.charts)
        self.history_tab = HistoryTab(model.history)
        self.history_tab.scan_transactions.connect(self.on_scan_transactions)
        self.tab_widgets: dict[AddressTab, QWidget] = {
            AddressTab.HISTORY: self.history_tab,
            AddressTab.TOKENS: self.tokens_tab,
            AddressTab.DISASSEMBLY: self.code_view,
            AddressTab.CONTRACT: self.contract_tab,
            AddressTab.ACTIVITY: self.activity_tab,
            AddressTab.CHARTS: self.charts_tab,
        }
        for tab in (self.history_tab, self.tokens_tab, self.contract_tab, self.activity_tab):
            tab.link_activated.connect(self.link_activated)
        corner = QWidget()
        row = QHBoxLayout(corner)
        row.setContentsMargins(0, 0, 0, 0)
        if model.watchlist is not None:
            self.star: WatchStar | None = WatchStar(model.watchlist, model.address)
            row.addWidget(self.star)
        else:
            self.star = None
        row.addWidget(self.block_picker)
        self.content.setCornerWidget(corner, Qt.Corner.TopRightCorner)
        self.content.currentChanged.connect(self.on_tab_changed)

    def _show_content(self) -> None:
        """Show the document, then the page's tabs before the raw JSON."""
        super()._show_content()
        for position, tab in enumerate(self.address_model.tabs, start=1):
            self.content.insertTab(position, self.tab_widgets[tab], tab.value)

    def on_tab_changed(self, _index: int) -> None:
        """Tell the view model which of its tabs is shown (History searches when chosen)."""
        shown = self.content.currentWidget()
        chosen = next((tab for tab, widget in self.tab_widgets.items() if widget is shown), None)
        self.address_model.on_tab_chosen(chosen)

    def on_scan_transactions(self) -> None:
        """Offer the transaction scan over the history's range in the Activity tab."""
        self.content.setCurrentWidget(self.activity_tab)
        self.activity_tab.offer_transaction_scan(self.address_model.history.span_text())
