"""The main window's state: the session, its chain-id check, head block and status line."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QObject, QTimer, Signal

from explorer.rpc.errors import RpcError
from explorer.services.networks import chain_name
from explorer.services.routes import Page, Route
from explorer.services.session import HeadEvent, Session
from explorer.viewmodels.address import AddressPageViewModel, TokenStore
from explorer.viewmodels.page import PageViewModel

HEAD_POLL_SECONDS = 5.0
STATUS_REFRESH_MS = 1_000  # requests and latency change between heads


class ShellViewModel(QObject):
    """State of the window frame: network, connection check, head, requests, banner.

    Signals:
        status_changed(str): the status-bar text changed.
        network_changed(str): the network name changed.
        banner_changed(str): the warning banner text changed ('' hides it).
        head_changed(int): a newer head block was seen.
        session_changed(): a new session replaced the old one.
    """

    status_changed = Signal(str)
    network_changed = Signal(str)
    banner_changed = Signal(str)
    head_changed = Signal(int)
    session_changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session: Session | None = None
        self.status = "Not connected"
        self.network = "No network"
        self.banner = ""
        self.head: int | None = None
        self.chain_check = "not checked"
        self.info = ""
        self._connect_task: asyncio.Task[None] | None = None
        self.token_store: TokenStore | None = None
        self._closing: asyncio.Future[None] | None = None
        self._status_timer = QTimer(self)
        self._status_timer.setInterval(STATUS_REFRESH_MS)
        self._status_timer.timeout.connect(self._refresh_status)

    def on_status(self, text: str) -> None:
        """Show a free-form status line (e.g. devnet start-up progress)."""
        if text != self.status:
            self.status = text
            self.status_changed.emit(text)

    def on_network(self, name: str) -> None:
        """Show the network the window is bound to."""
        if name != self.network:
            self.network = name
            self.network_changed.emit(name)

    def set_banner(self, text: str) -> None:
        """Show or hide (empty text) the warning banner."""
        if text != self.banner:
            self.banner = text
            self.banner_changed.emit(text)

    def set_session(self, session: Session, info: str = "") -> None:
        """Bind a new session: probe the chain id, then follow the head."""
        old = self.session
        if old is not None:
            old.stop_following()
            self._closing = asyncio.ensure_future(old.aclose())
        self.session, self.head, self.info = session, None, info
        self.chain_check = "checking chain id…"
        self.on_network(f"{session.network.name} · {session.endpoint.redacted}")
        self.set_banner(info)
        self.session_changed.emit()
        self._refresh_status()
        self._status_timer.start()
        if self._connect_task is not None:
            self._connect_task.cancel()
        self._connect_task = asyncio.ensure_future(self._connect(session))

    async def _connect(self, session: Session) -> None:
        """Probe the node; flag a chain mismatch; start the head follower."""
        try:
            probe = await session.connect()
        except RpcError as error:
            if session is self.session:
                self.chain_check = f"not connected ({error.kind.value})"
                self.set_banner(f"Cannot reach the node: {error.message}")
                self._refresh_status()
                session.follow_head(self._on_head, self._on_head_error, HEAD_POLL_SECONDS)
            return
        if session is not self.session:
            return
        mismatch = probe.mismatch()
        if mismatch is not None:
            self.chain_check = f"chain id {probe.chain_id} ≠ {session.network.chain_id}"
            self.set_banner(
                f"Chain mismatch: {mismatch.message} ({chain_name(probe.chain_id)}). "
                f"Nothing from this node is shown as {session.network.name}; fix the endpoint "
                "in Settings."
            )
        else:
            self.chain_check = f"chain id {probe.chain_id} ✓"
            self.set_banner(self.info)
        self._refresh_status()
        session.follow_head(self._on_head, self._on_head_error, HEAD_POLL_SECONDS)

    def _on_head(self, event: HeadEvent) -> None:
        """Show a newer head block."""
        self.head = event.number
        if self.banner.startswith("Cannot reach"):
            self.set_banner(self.info)
        self.head_changed.emit(event.number)
        self._refresh_status()

    def _on_head_error(self, error: RpcError) -> None:
        """Show that the head could not be read."""
        self.chain_check = f"{self.chain_check.split(' (')[0]} (head: {error.kind.value})"
        self._refresh_status()

    def _refresh_status(self) -> None:
        """Rebuild the status line from its parts."""
        session = self.session
        if session is None:
            return
        parts = [self.chain_check]
        parts.append("head —" if self.head is None else f"head #{self.head:,}")
        if session.last_latency is not None:
            parts.append(f"last request {session.last_latency * 1000:.0f} ms")
        parts.append(f"{session.requests_today:,} requests today")
        self.on_status(" · ".join(parts))

    def create_page(self, route: Route) -> PageViewModel | None:
        """Return a view model for a route's page (None for the home page or no session)."""
        if self.session is None or route.page.value == "home":
            return None
        return self.create_page_for(self.session, route)

    def create_page_for(self, session: Session, route: Route) -> PageViewModel:
        """Return a loading view model for a route's page read through a given session."""
        if route.page is Page.ADDRESS:
            page: PageViewModel = AddressPageViewModel(
                session,
                route,
                store=self.token_store,
                extra_tokens=session.extra_tokens,
                multicall=session.multicall,
                parent=self,
            )
        else:
            page = PageViewModel(session, route, self)
        page.load()
        return page
