"""The view that binds each kind of page's view model (the main window's tabs hold them)."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from explorer.viewmodels.address import AddressPageViewModel
from explorer.viewmodels.broadcast import BroadcastViewModel
from explorer.viewmodels.home import HomeViewModel
from explorer.viewmodels.logs import LogsViewModel
from explorer.viewmodels.node_page import NodePageViewModel
from explorer.viewmodels.pages import PageModel
from explorer.viewmodels.tools import ToolViewModel
from explorer.viewmodels.tx_page import TxPageViewModel
from explorer.viewmodels.watchlist import WatchlistPageViewModel
from explorer.views.address import AddressView
from explorer.views.broadcast_view import BroadcastView
from explorer.views.home_view import HomeView
from explorer.views.logs_view import LogsView
from explorer.views.node_view import NodeView
from explorer.views.page_view import PageView
from explorer.views.tools_view import ToolView
from explorer.views.tx_page_view import TxPageView
from explorer.views.watchlist_view import WatchlistView

PAGE_VIEWS = (PageView, LogsView, HomeView, NodeView, ToolView, BroadcastView, WatchlistView)


def page_view(
    model: PageModel,
) -> PageView | LogsView | HomeView | NodeView | ToolView | BroadcastView | WatchlistView:
    """Return the view that binds a page's view model."""
    if isinstance(model, WatchlistPageViewModel):
        return WatchlistView(model)
    if isinstance(model, HomeViewModel):
        return HomeView(model)
    if isinstance(model, ToolViewModel):
        return ToolView(model)
    if isinstance(model, NodePageViewModel):
        return NodeView(model)
    if isinstance(model, LogsViewModel):
        return LogsView(model)
    if isinstance(model, BroadcastViewModel):
        return BroadcastView(model)
    if isinstance(model, TxPageViewModel):
        return TxPageView(model)
    if isinstance(model, AddressPageViewModel):
        return AddressView(model)
    return PageView(model)


def carry_draft(old: QWidget | None, new: PageModel | None) -> None:
    """Give a page rebuilt for a new network what the user typed on the old one."""
    if isinstance(old, LogsView) and isinstance(new, LogsViewModel):  # noqa: SIM114 (types)
        new.restore(old.model.draft())
    elif isinstance(old, BroadcastView) and isinstance(new, BroadcastViewModel):  # noqa: SIM114
        new.restore(old.model.draft())
    elif isinstance(old, ToolView) and isinstance(new, ToolViewModel):
        new.restore(old.model.draft())
