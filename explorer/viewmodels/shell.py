"""The main window's state: the session, its chain check, head block, status line and banner."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from explorer.presentation.document import Tone
from explorer.rpc.errors import ErrorKind, RpcError
from explorer.rpc.retry import Attempt
from explorer.services.chaincheck import ChainCheck, Verification
from explorer.services.networks import chain_name
from explorer.services.routes import Page, Route
from explorer.services.session import Session
from explorer.viewmodels.headpoll import HeadPoller
from explorer.viewmodels.observable import qproperty
from explorer.viewmodels.pages import PageFactory, PageModel
from explorer.viewmodels.request_count import RequestCount

HOME_TEXT = "Paste a transaction hash, a block number, an address or a name.rsk above."
HEAD_POLL_SECONDS = 60.0  # the head's heartbeat while no page follows it (home tab hidden)
STATUS_REFRESH_MS = 1_000  # requests and latency change between heads


@dataclass(frozen=True)
class Connection:
    """The session's chain check and whether its head could be read lately."""

    check: ChainCheck = dataclasses.field(default_factory=ChainCheck)
    head_error: ErrorKind | None = None  # the last head poll failed (cleared by the next head)

    @property
    def verification(self) -> Verification:
        """Return the chain check's verdict."""
        return self.check.verification


@dataclass(frozen=True)
class Banner:
    """The warning strip above the tabs ('' text hides it); retry offers to check again."""

    text: str = ""
    tone: Tone = Tone.WAITING
    retry: bool = False


class ShellViewModel(QObject):
    """State of the window frame: network, chain check, head, requests, banner.

    Signals:
        status_changed(str): the status-bar text changed.
        network_changed(str): the network name changed.
        banner_changed(Banner): the warning banner changed.
        connection_changed(Connection): the chain check's verdict or the head's health changed.
        head_changed(int): a newer head block was seen.
        session_changed(): a new session replaced the old one.
    """

    status_changed = Signal(str)
    network_changed = Signal(str)
    banner_changed = Signal(object)
    connection_changed = Signal(object)
    head_changed = Signal(int)
    session_changed = Signal()

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
        self._banner = Banner()
        self._notice = Banner()
        self._lasting: tuple[str, ...] = ()  # the app's start-up notices (first session only)
        self._connection = Connection()
        self._head: int | None = None
        self._head_read_at: float | None = None
        self._progress = ""
        self._closing: asyncio.Future[None] | None = None
        self._status_timer = QTimer(self)
        self._status_timer.setInterval(STATUS_REFRESH_MS)
        self._status_timer.timeout.connect(self._refresh_status)
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
        self._notice = Banner(text, tone)
        self._refresh_banner()

    def show_startup_notices(self, notices: list[str]) -> None:
        """Show what the app fixed at start-up, under the banner, until the network changes."""
        self._lasting = tuple(notices)
        self._refresh_banner()

    def set_session(self, session: Session, notice: str = "") -> None:
        """Bind a new session: check its chain, then follow the head once it is verified."""
        old = self.session
        if old is not None:
            old.stop()  # its chain check and head follower end; nothing of it reaches us again
            self._closing = asyncio.ensure_future(old.aclose())
            self._lasting = ()
        self.poller.bind(None)
        self.session, self._head, self._progress = session, None, ""
        self.requests.follow(session)
        self._notice = Banner(notice)
        self.show_network(f"{session.network.name} · {session.endpoint.redacted}")
        self.session_changed.emit()
        self._status_timer.start()
        session.checker.listen(self._on_check)
        self._on_check(session.check)
        session.verify()

    def recheck(self) -> None:
        """Check the node's chain again now, and read the head again (the banner's Retry)."""
        if self.session is not None:
            self.session.checker.recheck()
            self.poller.poll_now()

    def _on_check(self, check: ChainCheck) -> None:
        """Follow the session's chain check; the head is followed only while it is verified."""
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
            self._set_connection(dataclasses.replace(self._connection, head_error=None))
        self._refresh_status()

    def _on_head_error(self, error: RpcError) -> None:
        """Show that the head could not be read."""
        self._set_connection(dataclasses.replace(self._connection, head_error=error.kind))

    def _set_connection(self, connection: Connection) -> None:
        """Record a new verdict; the banner and the status line follow it."""
        if connection != self._connection:
            self._connection = connection
            self.connection_changed.emit(connection)
        self._refresh_banner()
        self._refresh_status()

    def _refresh_banner(self) -> None:
        """Derive the banner from the verdict (it wins) or the app's notice."""
        banner = connection_banner(self._connection, self.session) or self._notice
        if self._lasting:
            text = "\n".join((banner.text, *self._lasting)).strip()
            banner = Banner(text, banner.tone if banner.text else Tone.WAITING, banner.retry)
        if banner != self._banner:
            self._banner = banner
            self.banner_changed.emit(banner)

    def _refresh_status(self) -> None:
        """Rebuild the status line from its parts."""
        session = self.session
        if session is None:
            text = self._progress or "Not connected"
        else:
            parts = [check_text(self._connection)]
            waiting = wait_text(session.longest_wait(), session.budget.slow_after)
            if waiting:
                parts.append(waiting)
            parts.append(head_text(self._head, self._head_read_at, self.poller.interval))
            if session.last_latency is not None:
                parts.append(f"last request {session.last_latency * 1000:.0f} ms")
            parts.append(f"{session.requests_today:,} requests today")
            text = " · ".join(parts)
        if text != self._status:
            self._status = text
            self.status_changed.emit(text)

    @staticmethod
    def idle_text(route: Route) -> str:
        """Return what a tab says while there is no session to show its page on."""
        return HOME_TEXT if route.page is Page.HOME else "Not connected yet."

    def create_page(self, route: Route) -> PageModel | None:
        """Return the view model of a route's page on the current session (None without one)."""
        if self.session is None:
            return None
        return self.pages.create(self.session, route)


def head_text(
    head: int | None, read_at: float | None, interval: float | None, now: float | None = None
) -> str:
    """Return the status bar's head: `head #N`, with the time it was read once that is old.

    It is old when no read came for two poll intervals (the poll stopped, or fails).
    """
    if head is None:
        return "head —"
    now = time.time() if now is None else now
    if read_at is None or (interval is not None and now - read_at <= 2 * interval + 1):
        return f"head #{head:,}"
    return f"head #{head:,} (read {time.strftime('%H:%M:%S', time.localtime(read_at))})"


def wait_text(attempt: Attempt | None, slow_after: float, now: float | None = None) -> str:
    """Return what the app waits for, once a request has waited slow_after seconds ('' before)."""
    if attempt is None:
        return ""
    waited = attempt.waited(time.monotonic() if now is None else now)
    if waited < slow_after and attempt.number == 1:
        return ""
    return (
        f"waiting {waited:.0f} s for the node ({attempt.method}, "
        f"attempt {attempt.number} of {attempt.of})"
    )


def check_text(connection: Connection) -> str:
    """Return the status bar's words for the chain check."""
    check = connection.check
    state = check.verification
    if state is Verification.CHECKING:
        text = "checking chain id…" + (f" (try {check.attempt})" if check.attempt > 1 else "")
    elif state is Verification.VERIFIED:
        text = f"chain id {check.chain_id} ✓"
    elif state is Verification.MISMATCH:
        text = f"chain id {check.chain_id} ✗ (expected {check.expected_chain_id})"
    elif state is Verification.UNREACHABLE:
        kind = check.error_kind.value if check.error_kind else "error"
        wait = check.retry_in()
        text = f"chain id not verified ({kind}" + (f"; next try in {wait:.0f} s)" if wait else ")")
    else:
        text = "not connected"
    if connection.head_error is not None:
        text += f" (head: {connection.head_error.value})"
    return text


def connection_banner(connection: Connection, session: Session | None) -> Banner | None:
    """Return the banner a verdict calls for, or None when it calls for none."""
    check = connection.check
    if session is None:
        return None
    network = session.network
    if check.verification is Verification.MISMATCH:
        return Banner(
            f"Chain mismatch: {mismatch_text(check, network.chain_id)} {network.name} is "
            f"chain {network.chain_id}, so nothing from this node is shown; check the endpoint "
            "in Settings.",
            Tone.BAD,
            retry=True,
        )
    if check.verification is Verification.UNREACHABLE:
        what = UNVERIFIED_CAUSES.get(check.error_kind, "The node could not be asked")
        detail = check.error_message.rstrip(". ")
        return Banner(
            f"{what} ({detail}). Nothing is shown as {network.name} until the node confirms "
            f"it serves chain {network.chain_id}; trying again by itself (try {check.attempt} "
            "so far), or press Retry.",
            Tone.BAD,
            retry=True,
        )
    return None


def mismatch_text(check: ChainCheck, expected: int) -> str:
    """Return what the node said about its chain, in words."""
    if check.chain_id == expected:
        return (
            f"the node reports chain id {check.chain_id} but network id "
            f"{check.net_version or '(none)'}."
        )
    return (
        f"the node serves {chain_name(check.chain_id)} "
        f"(chain id {check.chain_id}, network id {check.net_version or '(none)'})."
    )


UNVERIFIED_CAUSES: dict[ErrorKind | None, str] = {
    ErrorKind.TRANSPORT: "Cannot reach the node",
    ErrorKind.AUTH: "The node was reached but refused the API key",
    ErrorKind.RATE_LIMITED: "The node was reached but is limiting requests (HTTP 429)",
    ErrorKind.SERVER: "The node was reached but its web server answered with an error",
    ErrorKind.MALFORMED: "The node was reached but its answer could not be read",
    ErrorKind.NODE: "The node was reached but answered with an error",
}
