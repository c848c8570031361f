"""The main window's state: the session, its chain check, head block, status line and banner."""

from __future__ import annotations

import asyncio
import dataclasses
import enum
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from explorer.rpc.client import ProbeResult
from explorer.rpc.errors import ErrorKind, RpcError
from explorer.services.networks import chain_name
from explorer.services.routes import Route
from explorer.services.session import HeadEvent, Session
from explorer.viewmodels.document import Tone
from explorer.viewmodels.observable import qproperty
from explorer.viewmodels.pages import PageFactory, PageModel

HEAD_POLL_SECONDS = 5.0
STATUS_REFRESH_MS = 1_000  # requests and latency change between heads


class Verification(enum.Enum):
    """Whether the session's node serves the chain the user chose."""

    NO_SESSION = "no session"
    CHECKING = "checking"
    VERIFIED = "verified"
    MISMATCH = "mismatch"
    UNREACHABLE = "unreachable"


@dataclass(frozen=True)
class Connection:
    """What is known about the session's node: the verdict and why."""

    verification: Verification = Verification.NO_SESSION
    chain_id: int | None = None  # what the node reported, once it answered
    net_version: str = ""
    error_kind: ErrorKind | None = None  # why the check could not be made
    error_message: str = ""
    head_error: ErrorKind | None = None  # the last head poll failed (cleared by the next head)


@dataclass(frozen=True)
class Banner:
    """The warning strip above the tabs ('' text hides it)."""

    text: str = ""
    tone: Tone = Tone.WAITING


class ShellViewModel(QObject):
    """State of the window frame: network, chain check, head, requests, banner.

    Signals:
        status_changed(str): the status-bar text changed.
        network_changed(str): the network name changed.
        banner_changed(Banner): the warning banner changed.
        connection_changed(Connection): the chain check's verdict changed.
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
        self.pages = PageFactory(self.head_changed)
        self._status = "Not connected"
        self._network = "No network"
        self._banner = Banner()
        self._notice = Banner()
        self._connection = Connection()
        self._head: int | None = None
        self._progress = ""
        self._connect_task: asyncio.Task[None] | None = None
        self._closing: asyncio.Future[None] | None = None
        self._status_timer = QTimer(self)
        self._status_timer.setInterval(STATUS_REFRESH_MS)
        self._status_timer.timeout.connect(self._refresh_status)

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

    def set_session(self, session: Session, notice: str = "") -> None:
        """Bind a new session: check its chain, then follow the head."""
        old = self.session
        if old is not None:
            old.stop_following()
            self._closing = asyncio.ensure_future(old.aclose())
        self.session, self._head, self._progress = session, None, ""
        self._notice = Banner(notice)
        self.show_network(f"{session.network.name} · {session.endpoint.redacted}")
        self._set_connection(Connection(Verification.CHECKING))
        self.session_changed.emit()
        self._status_timer.start()
        self._check(session)

    def _check(self, session: Session) -> None:
        """Start checking the session's chain; a check still running for it is replaced."""
        if self._connect_task is not None:
            self._connect_task.cancel()  # the latest session's check is the only one that lands
        self._connect_task = asyncio.ensure_future(self._connect(session))

    async def _connect(self, session: Session) -> None:
        """Probe the node; record the verdict; follow the head."""
        try:
            probe = await session.connect()
        except RpcError as error:
            unreachable = Verification.UNREACHABLE
            self._set_connection(Connection(unreachable, None, "", error.kind, error.message))
        else:
            self._set_connection(verdict(probe))
        session.follow_head(self._on_head, self._on_head_error, HEAD_POLL_SECONDS)

    def _on_head(self, event: HeadEvent) -> None:
        """Show a newer head block; a node that answers again is checked again."""
        self._head = event.number
        connection = self._connection
        if connection.head_error is not None:
            self._set_connection(dataclasses.replace(connection, head_error=None))
        if connection.verification is Verification.UNREACHABLE and self.session is not None:
            self._set_connection(Connection(Verification.CHECKING))
            self._check(self.session)
        self.head_changed.emit(event.number)
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
            parts.append("head —" if self._head is None else f"head #{self._head:,}")
            if session.last_latency is not None:
                parts.append(f"last request {session.last_latency * 1000:.0f} ms")
            parts.append(f"{session.requests_today:,} requests today")
            text = " · ".join(parts)
        if text != self._status:
            self._status = text
            self.status_changed.emit(text)

    def create_page(self, route: Route) -> PageModel | None:
        """Return the view model of a route's page on the current session (None without one)."""
        if self.session is None:
            return None
        return self.pages.create(self.session, route)


def verdict(probe: ProbeResult) -> Connection:
    """Return the verdict of a chain-id probe."""
    state = Verification.VERIFIED if probe.matches else Verification.MISMATCH
    return Connection(state, chain_id=probe.chain_id, net_version=probe.net_version)


def check_text(connection: Connection) -> str:
    """Return the status bar's words for the chain check."""
    state = connection.verification
    if state is Verification.CHECKING:
        text = "checking chain id…"
    elif state is Verification.VERIFIED:
        text = f"chain id {connection.chain_id} ✓"
    elif state is Verification.MISMATCH:
        text = f"chain id {connection.chain_id} ✗"
    elif state is Verification.UNREACHABLE:
        kind = connection.error_kind.value if connection.error_kind else "error"
        text = f"not connected ({kind})"
    else:
        text = "not connected"
    if connection.head_error is not None:
        text += f" (head: {connection.head_error.value})"
    return text


def connection_banner(connection: Connection, session: Session | None) -> Banner | None:
    """Return the banner a verdict calls for, or None when it calls for none."""
    if session is None:
        return None
    if connection.verification is Verification.MISMATCH:
        network = session.network
        return Banner(
            f"Chain mismatch: the node serves {chain_name(connection.chain_id)} "
            f"(chain {connection.chain_id}, network {connection.net_version}), "
            f"not {network.name} (chain {network.chain_id}). Nothing from this node is shown "
            f"as {network.name}; fix the endpoint in Settings.",
            Tone.BAD,
        )
    if connection.verification is Verification.UNREACHABLE:
        return Banner(f"Cannot reach the node: {connection.error_message}", Tone.BAD)
    return None
