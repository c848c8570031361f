"""The one place where a route's page view model is made.

Only the home page's module is imported with this one: every other page's (the address page
with History's VM, the contract tab's ABI machinery, the transaction page's trace...) is
imported when such a page is first opened, so the first start shows blocks sooner.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from explorer.presentation.missing import TxSupport
from explorer.services.routes import Page, Route
from explorer.services.session import Session
from explorer.viewmodels.headpoll import HeadPoller
from explorer.viewmodels.home import HomeViewModel

if TYPE_CHECKING:
    from explorer.services.history_store import HistoryStore
    from explorer.viewmodels.address.tokens import TokenStore
    from explorer.viewmodels.broadcast import BroadcastViewModel
    from explorer.viewmodels.logs import LogsViewModel
    from explorer.viewmodels.node_page import QuotaStore
    from explorer.viewmodels.page import PageViewModel
    from explorer.viewmodels.tools import ToolViewModel
    from explorer.viewmodels.watchlist import WatchlistPageViewModel, WatchlistViewModel

PageModel: TypeAlias = (
    "HomeViewModel | LogsViewModel | BroadcastViewModel | PageViewModel | ToolViewModel"
    " | WatchlistPageViewModel"
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
        from explorer.viewmodels.tools import ToolViewModel, tool_of

        kind, text = tool_of(route)
        return ToolViewModel(kind, None, text)

    def create(self, session: Session, route: Route) -> PageModel:
        """Return a route's page view model, already loading."""
        if route.page is Page.HOME:
            home = HomeViewModel(session, self.poller)
            home.load()
            return home
        return self._create_other(session, route)

    def _create_other(self, session: Session, route: Route) -> PageModel:
        """Return any other page's view model, its module imported on first use."""
        if route.page is Page.LOGS:
            from explorer.viewmodels.logs import LogsViewModel

            return LogsViewModel(session)
        if route.page is Page.BROADCAST:
            from explorer.viewmodels.broadcast import BroadcastViewModel

            return BroadcastViewModel(session, self.support)
        if route.page is Page.WATCHLIST:
            from explorer.viewmodels.watchlist import (
                MemoryListStore,
                WatchlistPageViewModel,
                WatchlistViewModel,
            )

            if self.watchlist is None:  # a window without the app's (tests): one of its own
                self.watchlist = WatchlistViewModel(MemoryListStore())
                self.watchlist.bind(session)
            return WatchlistPageViewModel(self.watchlist)
        if route.page is Page.TOOL:
            from explorer.viewmodels.tools import ToolViewModel, tool_of

            kind, text = tool_of(route)
            return ToolViewModel(kind, session, text)
        page = self._create_page(session, route)
        page.load()
        return page

    def _create_page(self, session: Session, route: Route) -> PageViewModel:
        """Return a document page's view model (node, peg, address, tx, block), not loading."""
        from explorer.viewmodels.peg_page import is_peg_route

        page: PageViewModel
        if route.page is Page.NODE:
            from explorer.viewmodels.node_page import NodePageViewModel

            page = NodePageViewModel(session, self.quota_store)
        elif is_peg_route(route):
            from explorer.viewmodels.peg_page import PegPageViewModel

            page = PegPageViewModel(session, route)
        elif route.page is Page.ADDRESS:
            from explorer.viewmodels.address.page import AddressPageViewModel

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
            from explorer.viewmodels.tx_page import TxPageViewModel

            page = TxPageViewModel(session, route, self.support)
        elif route.page is Page.BLOCK:
            from explorer.viewmodels.block_page import BlockPageViewModel

            page = BlockPageViewModel(session, route)
        else:
            from explorer.viewmodels.page import PageViewModel

            page = PageViewModel(session, route)
        return page
