"""The search bar's logic: parse, explain bad input at once, resolve, remember recent searches."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QObject, QStringListModel, Signal

from explorer.chain import query as q
from explorer.rpc.errors import RpcError
from explorer.services.search import resolve
from explorer.services.session import Session
from explorer.viewmodels.observable import qproperty
from explorer.viewmodels.tools import tool_route_for

MAX_RECENT = 20


class SearchViewModel(QObject):
    """Turns search text into a route.

    Signals:
        navigation_requested(Route, bool): open a route, in a new tab or not.
        message_changed(str): an inline message under the search bar ('' to clear).
        busy_changed(bool): a search is being resolved over the network.
    """

    navigation_requested = Signal(object, bool)
    message_changed = Signal(str)
    busy_changed = Signal(bool)

    def __init__(self, recent: list[str] | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session: Session | None = None
        self._message = ""
        self._busy = False
        self.recent = QStringListModel(list(recent or [])[:MAX_RECENT], self)
        self._task: asyncio.Task[None] | None = None
        self._confirm_warning_for: str | None = None

    def _get_message(self) -> str:
        return self._message

    def _get_busy(self) -> bool:
        return self._busy

    message = qproperty(_get_message, message_changed)
    busy = qproperty(_get_busy, busy_changed)

    def _say(self, text: str) -> None:
        """Show an inline message."""
        if text != self._message:
            self._message = text
            self.message_changed.emit(text)

    def _set_busy(self, busy: bool) -> None:
        """Tell whether a search is being resolved."""
        if busy != self._busy:
            self._busy = busy
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
        if not self.session.check.verified:
            self._say(
                f"Not searching yet: the node is not confirmed to serve {self.session.network.name}"
                " (see the banner)."
            )
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
        if self._task is not None:
            self._task.cancel()
        self._task = asyncio.ensure_future(self._resolve(text, query, new_tab))

    async def _resolve(self, text: str, query: q.Query, new_tab: bool) -> None:
        """Resolve over the network, then navigate or explain."""
        session = self.session
        assert session is not None
        self._set_busy(True)
        try:
            resolution = await resolve(query, session.reader, session.network.rns_registry)
        except RpcError as error:
            self._say(f"Search failed ({error.kind.value.replace('_', ' ')}): {error.message}")
            return
        finally:
            self._set_busy(False)
        if resolution.route is None:
            self._say(resolution.message)
            return
        self._remember(text)
        if resolution.warning:
            self._say(resolution.warning)
        self.navigation_requested.emit(resolution.route, new_tab)

    def _remember(self, text: str) -> None:
        """Put a successful search first in the recent list."""
        items = [text] + [item for item in self.recent.stringList() if item != text]
        self.recent.setStringList(items[:MAX_RECENT])

    def recent_searches(self) -> list[str]:
        """Return the recent searches, newest first."""
        return list(self.recent.stringList())
