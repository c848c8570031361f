"""The one place where a route's page view model is made."""

from __future__ import annotations

from explorer.presentation.missing import TxSupport
from explorer.services.history_store import HistoryStore
from explorer.services.routes import Page, Route
from explorer.services.session import Session
from explorer.viewmodels.address import AddressPageViewModel, TokenStore
from explorer.viewmodels.block_page import BlockPageViewModel
from explorer.viewmodels.broadcast import BroadcastViewModel
from explorer.viewmodels.headpoll import HeadPoller
from explorer.viewmodels.home import HomeViewModel
from explorer.viewmodels.logs import LogsViewModel
from explorer.viewmodels.node_page import NodePageViewModel, QuotaStore
from explorer.viewmodels.page import PageViewModel
from explorer.viewmodels.peg_page import PegPageViewModel, is_peg_route
from explorer.viewmodels.tools import ToolViewModel, tool_of
from explorer.viewmodels.tx_page import TxPageViewModel
from explorer.viewmodels.watchlist import (
    MemoryListStore,
    WatchlistPageViewModel,
    WatchlistViewModel,
)

PageModel = (
    HomeViewModel
    | LogsViewModel
    | BroadcastViewModel
    | PageViewModel
    | ToolViewModel
    | WatchlistPageViewModel
)


class PageFactory:
    """Makes each page's view model for a session; the caller owns and disposes it."""

    def __init__(self, poller: HeadPoller) -> None:
        self.poller = poller  # the window's one head poll, which the home page follows
        self.token_store: TokenStore | None = None
        self.support = TxSupport()  # the support desk's store and other networks (explorer/app)
        self.quota_store: QuotaStore | None = None
        self.watchlist: WatchlistViewModel | None = None  # the app's (explorer/app)
        self.history_store: HistoryStore | None = None  # None: the session's saved data

    @staticmethod
    def create_unconnected(route: Route) -> ToolViewModel | None:
        """Return a tool's view model without a node (it computes locally), else None."""
        if route.page is not Page.TOOL:
            return None
        kind, text = tool_of(route)
        return ToolViewModel(kind, None, text)

    def create(self, session: Session, route: Route) -> PageModel:
        """Return a route's page view model, already loading."""
        if route.page is Page.HOME:
            home = HomeViewModel(session, self.poller)
            home.load()
            return home
        if route.page is Page.LOGS:
            return LogsViewModel(session)
        if route.page is Page.BROADCAST:
            return BroadcastViewModel(session, self.support)
        if route.page is Page.WATCHLIST:
            if self.watchlist is None:  # a window without the app's (tests): one of its own
                self.watchlist = WatchlistViewModel(MemoryListStore())
                self.watchlist.bind(session)
            return WatchlistPageViewModel(self.watchlist)
        if route.page is Page.TOOL:
            kind, text = tool_of(route)
            return ToolViewModel(kind, session, text)
        page: PageViewModel
        if route.page is Page.NODE:
            page = NodePageViewModel(session, self.quota_store)
        elif is_peg_route(route):
            page = PegPageViewModel(session, route)
        elif route.page is Page.ADDRESS:
            page = AddressPageViewModel(
                session,
                route,
                store=self.token_store,
                extra_tokens=session.extra_tokens,
                multicall=session.multicall,
                history_store=self.history_store,
            )
            page.watchlist = self.watchlist
        elif route.page is Page.TX:
            page = TxPageViewModel(session, route, self.support)
        elif route.page is Page.BLOCK:
            page = BlockPageViewModel(session, route)
        else:
            page = PageViewModel(session, route)
        page.load()
        return page
