"""The one place where a route's page view model is made."""

from __future__ import annotations

from PySide6.QtCore import SignalInstance

from explorer.services.routes import Page, Route
from explorer.services.session import Session
from explorer.viewmodels.address import AddressPageViewModel, TokenStore
from explorer.viewmodels.broadcast import BroadcastViewModel
from explorer.viewmodels.home import HomeViewModel
from explorer.viewmodels.logs import LogsViewModel
from explorer.viewmodels.missing import TxSupport
from explorer.viewmodels.page import PageViewModel
from explorer.viewmodels.tx_page import TxPageViewModel

PageModel = HomeViewModel | LogsViewModel | BroadcastViewModel | PageViewModel


class PageFactory:
    """Makes each page's view model for a session; the caller owns and disposes it."""

    def __init__(self, head_changed: SignalInstance) -> None:
        self.head_changed = head_changed  # the home page follows the window's head
        self.token_store: TokenStore | None = None
        self.support = TxSupport()  # the support desk's store and other networks (app.py)

    def create(self, session: Session, route: Route) -> PageModel:
        """Return a route's page view model, already loading."""
        if route.page is Page.HOME:
            home = HomeViewModel(session)
            self.head_changed.connect(home.on_head)
            home.load()
            return home
        if route.page is Page.LOGS:
            return LogsViewModel(session)
        if route.page is Page.BROADCAST:
            return BroadcastViewModel(session, self.support)
        if route.page is Page.ADDRESS:
            page: PageViewModel = AddressPageViewModel(
                session,
                route,
                store=self.token_store,
                extra_tokens=session.extra_tokens,
                multicall=session.multicall,
            )
        elif route.page is Page.TX:
            page = TxPageViewModel(session, route, self.support)
        else:
            page = PageViewModel(session, route)
        page.load()
        return page
