"""The search bar's logic: parse, explain bad input at once, resolve, remember recent searches."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QObject, QStringListModel

from explorer.chain import query as q
from explorer.chain.checksum import to_checksum_address
from explorer.chain.records import Receipt, Transaction
from explorer.chain.secrets import is_secret
from explorer.presentation.arguments import token_contracts
from explorer.presentation.document import Tone
from explorer.rpc.errors import RpcError
from explorer.services.chaincheck import ChainCheck
from explorer.services.routes import HOME, Page, Route
from explorer.services.search import resolve
from explorer.services.session import Session
from explorer.viewmodels.observable import TypedSignal, qproperty
from explorer.viewmodels.tools import tool_of, tool_route_for, tool_search_text

MAX_RECENT = 20


class SearchViewModel(QObject):
    """Turns search text into a route, on the session it was started on only.

    Like a browser's address bar, its text is the current page's query (`show_route`): a new
    tab's is empty, another tab shows its own, and Esc puts back the page's after an edit.
    A search being resolved is cancelled by a newer search, by `cancel()` (Esc), by another
    page and by a new session: what it finds on a network the user has left never opens.

    Signals:
        navigation_requested(Route, bool): open a route, in a new tab or not.
        text_changed(str): the search bar's text changed (the page changed, or Esc).
        message_changed(str): an inline message under the search bar ('' to clear).
        busy_changed(bool): a search is being resolved over the network (busy_text says which).
    """

    navigation_requested = TypedSignal[Route, bool]()
    text_changed = TypedSignal[str]()
    message_changed = TypedSignal[str]()
    busy_changed = TypedSignal[bool]()

    def __init__(self, recent: list[str] | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session: Session | None = None
        self._text = ""
        self._route = HOME
        self._message = ""
        self._tone = Tone.BAD
        self._busy = False
        self._busy_text = ""
        self.recent = QStringListModel(list(recent or [])[:MAX_RECENT], self)
        self._task: asyncio.Task[None] | None = None
        self._ahead: set[asyncio.Future[Any]] = set()  # reads started for the next page
        self._confirm_warning_for: str | None = None
        self._refused_unchecked = False  # "Not searching yet" is shown: it goes once checked
        self._about_session = False  # the message is about the session's check (goes with it)
        self._stop_listening: Callable[[], None] | None = None
        #: Every key the app knows (the session's is known anyway): never searched or echoed.
        self.known_keys: Callable[[], Iterable[str | None]] = tuple

    def _get_text(self) -> str:
        return self._text

    def _get_message(self) -> str:
        return self._message

    def _get_notice(self) -> tuple[str, Tone]:
        if self._busy:
            return self._busy_text, Tone.WAITING
        return self._message, self._tone

    def _get_busy(self) -> bool:
        return self._busy

    def _get_busy_text(self) -> str:
        return self._busy_text

    text = qproperty(_get_text, text_changed)
    message = qproperty(_get_message, message_changed)
    #: What the line under the search bar says, in its tone: the search under way, or the
    #: last message (an error in red, a note such as `alice.rsk → 0x…` in plain text).
    notice = qproperty(_get_notice, message_changed)
    busy = qproperty(_get_busy, busy_changed)
    busy_text = qproperty(_get_busy_text, busy_changed)

    @property
    def session(self) -> Session | None:
        """Return the session searches run on."""
        return self._session

    @session.setter
    def session(self, session: Session | None) -> None:
        """Search on another session: a search still resolving on the old one is dropped."""
        if session is not self._session:
            if self._stop_listening is not None:
                self._stop_listening()
            self._session = session
            self._stop_listening = (
                None if session is None else session.checker.listen(self._on_check)
            )
            self.cancel(quietly=True)
            if self._about_session:
                self._say("")

    def _on_check(self, check: ChainCheck) -> None:
        """Take back "Not searching yet" once the node is confirmed."""
        if check.verified and self._refused_unchecked and self._session is not None:
            self._say(
                f"{self._session.network.name} is confirmed: press Enter to search.", Tone.NORMAL
            )
            self._about_session = True

    def edit(self, text: str) -> None:
        """Follow what the user types (shown until the page changes or Esc)."""
        self._text = text

    def show_route(self, route: Route) -> None:
        """Show the current page's query: its tab changed, or the tab shows another page.

        A search still resolving is dropped (it was meant for the page left), and so is the
        message about an earlier search.
        """
        self._route = route
        self.cancel(quietly=True)
        self._say("")
        self._set_text(self.route_text(route))

    def on_escape(self) -> None:
        """Esc: cancel the search under way, else put back the current page's query."""
        if self._busy:
            self.cancel()
            return
        self._say("")
        self._set_text(self.route_text(self._route))

    def route_text(self, route: Route) -> str:
        """Return the query that leads to a route ('' for pages no search opens)."""
        if route.page is Page.ADDRESS:
            chain_id = self._session.network.chain_id if self._session is not None else None
            return to_checksum_address(route.target, chain_id)
        if route.page is Page.BLOCK or (route.page is Page.TX and "/" not in route.target):
            return route.target
        if route.page is Page.TOOL:
            return tool_search_text(*tool_of(route))
        return ""

    def _set_text(self, text: str) -> None:
        """Show text in the search bar."""
        self._text = text
        self.text_changed.emit(text)

    def cancel(self, quietly: bool = False) -> None:
        """Stop resolving the running search (Esc); say so unless quietly."""
        task, self._task = self._task, None
        if task is None or task.done():
            return
        task.cancel()
        self._set_busy(False)
        self._say("" if quietly else "Search cancelled.")

    def _say(self, text: str, tone: Tone = Tone.BAD) -> None:
        """Show an inline message in place of any other (an error unless a tone says otherwise)."""
        self._refused_unchecked = self._about_session = False
        if (text, tone) != (self._message, self._tone):
            self._message, self._tone = text, tone
            self.message_changed.emit(text)

    def _set_busy(self, busy: bool, text: str = "") -> None:
        """Tell whether a search is being resolved, and which."""
        if (busy, text) != (self._busy, self._busy_text):
            self._busy, self._busy_text = busy, text
            self.busy_changed.emit(busy)

    def on_submit(self, text: str, new_tab: bool = False) -> None:
        """Parse and resolve a search; invalid input costs no request."""
        text = text.strip()
        if (tool := tool_route_for(text)) is not None:  # tools compute locally: no session
            self._say("")
            self.navigation_requested.emit(tool, new_tab)
            return
        if self.session is None:
            self._say("Not connected to a network yet.")
            return
        if not self.session.readable:  # verified, or offline with saved data
            self._say(
                f"Not searching yet: the node is not confirmed to serve {self.session.network.name}"
                " (see the banner)."
            )
            self._refused_unchecked = self._about_session = True
            return
        if is_secret(text, [self.session.endpoint.api_key, *self.known_keys()]):
            self._set_text("")  # not left on screen (or in a screenshot) either
            self._say("That is an API key: it is not searched, and not shown.")
            return
        query = q.parse(text, self.session.network.chain_id)
        if isinstance(query, q.Invalid):
            self._say(query.message)
            return
        if (
            isinstance(query, q.AddressQuery)
            and query.warning
            and self._confirm_warning_for != text
        ):
            self._confirm_warning_for = text
            self._say(query.warning + " Press Enter again to open it anyway.")
            return
        self._confirm_warning_for = None
        self._say("")
        self.cancel(quietly=True)
        network = self.session.network.name
        self._set_busy(True, f"Searching {shorten(text)} on {network}… Esc cancels.")
        release = self.session.client.hold()  # the home page's background reads wait
        self._task = asyncio.ensure_future(self._resolve(text, query, new_tab, self.session))
        self._task.add_done_callback(lambda _task: release())

    def _read_units_ahead(
        self, tx: Transaction, receipt: Receipt | None
    ) -> asyncio.Future[Any] | None:
        """Ask a found transaction's tokens' units now: its page then joins the read."""
        session = self.session
        tokens = token_contracts(tx, receipt)
        if session is None or not tokens:
            return None
        reading = asyncio.ensure_future(session.reader.token_units.read(tokens))
        self._ahead.add(reading)
        reading.add_done_callback(self._ahead.discard)
        return reading

    async def _resolve(self, text: str, query: q.Query, new_tab: bool, session: Session) -> None:
        """Resolve over the network, then navigate or explain (on the same session only)."""
        try:
            resolution = await resolve(
                query, session.reader, session.network.rns_registry, self._read_units_ahead
            )
        except RpcError as error:
            if self._still_wanted(session):
                self._say(f"Search failed: {error.kind.said} ({error.message})")
            return
        if not self._still_wanted(session):
            return
        if resolution.route is None:
            self._say(resolution.message)
            return
        self._remember(text)
        self.navigation_requested.emit(resolution.route, new_tab)  # the page changes (and
        if resolution.warning:  # clears the message), so what it says comes after
            self._say(resolution.warning)
        elif resolution.note and isinstance(query, q.RnsQuery):  # found: not an error
            self._say(f"{query.name} → {self.route_text(resolution.route)}", Tone.NORMAL)

    def _still_wanted(self, session: Session) -> bool:
        """End the current search; tell whether its result is still wanted (same session)."""
        if session is not self._session or asyncio.current_task() is not self._task:
            return False  # the user has moved on: another network or another search
        self._task = None
        self._set_busy(False)
        return True

    def _remember(self, text: str) -> None:
        """Put a successful search first in the recent list."""
        items = [text] + [item for item in self.recent.stringList() if item != text]
        self.recent.setStringList(items[:MAX_RECENT])

    def recent_searches(self) -> list[str]:
        """Return the recent searches, newest first."""
        return list(self.recent.stringList())


def shorten(text: str, keep: int = 10) -> str:
    """Return a long search text with its middle elided."""
    return text if len(text) <= 2 * keep + 1 else f"{text[:keep]}…{text[-4:]}"
