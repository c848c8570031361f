"""The main window's state: the session, its chain check, head block, status line and banner."""

from __future__ import annotations

import asyncio
import dataclasses

from PySide6.QtCore import QObject, QTimer

from explorer.presentation.document import Tone
from explorer.rpc.errors import RpcError
from explorer.services.chaincheck import ChainCheck
from explorer.services.routes import Page, Route
from explorer.services.session import Session
from explorer.viewmodels.budget import Budget, budget_of
from explorer.viewmodels.connection import (
    UNVERIFIED_CAUSES,
    Banner,
    Connection,
    check_text,
    connection_banner,
    head_text,
    stopped_text,
    wait_text,
)
from explorer.viewmodels.headpoll import HeadPoller
from explorer.viewmodels.observable import TypedSignal, qproperty
from explorer.viewmodels.pages import PageFactory, PageModel
from explorer.viewmodels.request_count import RequestCount

HOME_TEXT = "Paste a transaction hash, a block number, an address or a name.rsk above."
HEAD_POLL_SECONDS = 60.0  # the head's heartbeat while no page follows it (home tab hidden)
STATUS_REFRESH_MS = 1_000  # requests and latency change between heads
__all__ = ["UNVERIFIED_CAUSES", "Banner", "Connection", "ShellViewModel", "check_text"]


class ShellViewModel(QObject):
    """State of the window frame: network, chain check, head, requests, banner.

    Signals:
        status_changed(str): the status-bar text changed.
        network_changed(str): the network name changed.
        banner_changed(Banner): the warning banner changed.
        connection_changed(Connection): the chain check's verdict or the head's health changed.
        head_changed(int): a newer head block was seen.
        session_changed(): a new session replaced the old one.
        budget_changed(Budget): the requests spent today, or the quota, changed.
    """

    status_changed = TypedSignal[str]()
    network_changed = TypedSignal[str]()
    banner_changed = TypedSignal[Banner]()
    connection_changed = TypedSignal[Connection]()
    head_changed = TypedSignal[int]()
    session_changed = TypedSignal[()]()
    budget_changed = TypedSignal[Budget]()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session: Session | None = None
        self.poller = HeadPoller(self, HEAD_POLL_SECONDS)  # the window's one eth_blockNumber poll
        self.poller.head_changed.connect(self._on_head)
        self.poller.head_read.connect(self._on_head_read)
        self.poller.head_failed.connect(self._on_head_error)
        self.pages = PageFactory(self.poller)
        self._status = "Not connected"
        self._network = "No network"
        self._unconnected = ""  # the network chosen that cannot be used (no session)
        self._banner = Banner()
        self._notice = Banner()
        self._lasting: tuple[str, ...] = ()  # the app's start-up notices (first session only)
        self._connection = Connection()
        self._verified_once = False  # the session's node was confirmed: pages may show data
        self._head: int | None = None
        self._head_read_at: float | None = None
        self._budget = Budget()
        self._progress = ""
        self._closing: asyncio.Future[None] | None = None
        self._status_timer = QTimer(self)
        self._status_timer.setInterval(STATUS_REFRESH_MS)
        self._status_timer.timeout.connect(self._refresh_status)
        self._status_timer.timeout.connect(self._refresh_banner)  # a check's wait grows
        self.requests = RequestCount(self)  # the count shows as requests are made
        self.requests.changed.connect(self._refresh_status)

    def _get_status(self) -> str:
        return self._status

    def _get_network(self) -> str:
        return self._network

    def _get_banner(self) -> Banner:
        return self._banner

    def _get_connection(self) -> Connection:
        return self._connection

    def _get_head(self) -> int | None:
        return self._head

    status = qproperty(_get_status, status_changed)
    network = qproperty(_get_network, network_changed)
    banner = qproperty(_get_banner, banner_changed)
    connection = qproperty(_get_connection, connection_changed)
    head = qproperty(_get_head, head_changed)

    def _get_budget(self) -> Budget:
        return self._budget

    budget = qproperty(_get_budget, budget_changed)

    def show_progress(self, text: str) -> None:
        """Show progress of work without a session yet (e.g. the devnet starting)."""
        self._progress = text
        self._refresh_status()

    def show_network(self, name: str) -> None:
        """Show the network the window is bound to."""
        if name != self._network:
            self._network = name
            self.network_changed.emit(name)

    def show_notice(self, text: str, tone: Tone = Tone.WAITING) -> None:
        """Show a message of the app's own in the banner (shown when the chain check is fine)."""
        self._notice = Banner(text, tone, dismiss=True)
        self._refresh_banner()

    def dismiss_notice(self) -> None:
        """Close the app's own notices (the banner's ×); a chain check's verdict stays."""
        self._notice, self._lasting = Banner(), ()
        self._refresh_banner()

    def show_startup_notices(self, notices: list[str]) -> None:
        """Show what the app fixed at start-up, under the banner, until the network changes."""
        self._lasting = tuple(notices)
        self._refresh_banner()

    def set_session(self, session: Session, notice: str = "") -> None:
        """Bind a new session: check its chain, then follow the head once it is verified."""
        self._close_session()
        self.session, self._head, self._progress = session, None, ""
        self._verified_once = False
        self.requests.follow(session)
        self._notice = Banner(notice, dismiss=True)
        self.show_network(f"{session.network.name} · {session.endpoint.redacted}")
        self.session_changed.emit()
        self._status_timer.start()
        session.checker.listen(self._on_check)
        if session.cache is not None:  # offline, the banner says from when the data is
            session.cache.mode_listeners.append(lambda _mode: self._refresh_banner())
        self._on_check(session.check)
        session.verify()

    def set_no_session(self, network: str, reason: str) -> None:
        """Show a chosen network that cannot be used: the old session ends, no page shows data.

        The selector, the status bar and what is saved then all name the network chosen.
        """
        self._close_session()
        self.session, self._head, self._progress = None, None, ""
        self._connection = Connection()
        self._unconnected = network
        self._notice = Banner(f"{network} cannot be used: {reason}", Tone.BAD)
        self.show_network(f"{network} · not connected")
        self.session_changed.emit()
        self._status_timer.stop()
        self._refresh_banner()
        self._refresh_status()

    def _close_session(self) -> None:
        """End the current session: its check, head poll and requests stop reaching the window."""
        old = self.session
        if old is not None:
            old.stop()  # its chain check and head follower end; nothing of it reaches us again
            self._closing = asyncio.ensure_future(old.aclose())
            self._lasting = ()
        self.poller.bind(None)

    def recheck(self) -> None:
        """Check the node's chain again now, and read the head again (the banner's Retry)."""
        if self.session is not None:
            self.session.checker.recheck()
            self.poller.poll_now()

    def cancel_check(self) -> None:
        """Stop checking the node's chain (the banner's Cancel); Retry starts again."""
        if self.session is not None:
            self.session.checker.cancel()

    def _on_check(self, check: ChainCheck) -> None:
        """Follow the session's chain check; the head is followed only while it is verified."""
        self._verified_once = self._verified_once or check.verified
        self._set_connection(Connection(check))
        session = self.session
        if session is None:
            return
        if check.verified:
            if self.poller.session is not session:
                self.poller.bind(session)  # reads the head once; pages ask for more
        else:
            self.poller.bind(None)
            self._head = None

    def _on_head(self, number: int) -> None:
        """Show a newer head block."""
        self._head = number
        self.head_changed.emit(number)
        self._refresh_status()

    def _on_head_read(self, _number: int, at: float) -> None:
        """Note a poll that answered: the head is current again."""
        self._head_read_at = at
        if self._connection.head_error is not None:
            self._set_connection(
                dataclasses.replace(self._connection, head_error=None, head_message="")
            )
        self._refresh_status()

    def _on_head_error(self, error: RpcError) -> None:
        """Show that the head could not be read."""
        failed = dataclasses.replace(
            self._connection, head_error=error.kind, head_message=error.message
        )
        self._set_connection(failed)

    def _set_connection(self, connection: Connection) -> None:
        """Record a new verdict; the banner and the status line follow it."""
        if connection != self._connection:
            self._connection = connection
            self.connection_changed.emit(connection)
        self._refresh_banner()
        self._refresh_status()

    def _refresh_banner(self) -> None:
        """Derive the banner from the verdict (it wins) or the app's notice."""
        read_before = self.session is not None and self._verified_once
        banner = connection_banner(self._connection, self.session, read_before) or self._notice
        if self._lasting:
            text = "\n".join((banner.text, *self._lasting)).strip()
            tone = banner.tone if banner.text else Tone.WAITING
            banner = Banner(
                text, tone, banner.retry, banner.cancel, banner.dismiss or not banner.text
            )
        if banner != self._banner:
            self._banner = banner
            self.banner_changed.emit(banner)

    def refresh_status(self) -> None:
        """Rebuild the status line (the day's requests were read again)."""
        self._refresh_status()

    def _refresh_status(self) -> None:
        """Rebuild the status line from its parts."""
        session = self.session
        if session is None:
            text = self._progress or "Not connected"
        else:
            parts = [check_text(self._connection)]
            slow_after = session.budget.slow_after
            waiting = wait_text(session.longest_wait(), slow_after) or stopped_text(
                session.client.stopped, slow_after
            )
            if waiting:
                parts.append(waiting)
            parts.append(head_text(self._head, self._head_read_at, self.poller.interval))
            if session.last_latency is not None:
                parts.append(f"last request {session.last_latency * 1000:.0f} ms")
            text = " · ".join(parts)
            self._set_budget(budget_of(session.requests_today, session.daily_quota))
        if text != self._status:
            self._status = text
            self.status_changed.emit(text)

    def _set_budget(self, budget: Budget) -> None:
        """Show the requests spent today against the quota."""
        if budget != self._budget:
            self._budget = budget
            self.budget_changed.emit(budget)

    def idle_text(self, route: Route) -> str:
        """Return what a tab says while there is no session to show its page on."""
        if route.page is Page.HOME:
            return HOME_TEXT
        network = self._unconnected or "No network"
        return (
            f"{network} is not connected, and this page needs its node (the banner says why).\n"
            "The tools in the Tools menu work without one."
        )

    def create_page(self, route: Route) -> PageModel | None:
        """Return the view model of a route's page on the current session.

        Without one, only the tools that need no node (None for every other page).
        """
        if self.session is None:
            return self.pages.create_unconnected(route)
        return self.pages.create(self.session, route)
