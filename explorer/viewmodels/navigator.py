"""Tabs, each with its own back/forward history of routes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QObject

from explorer.presentation.tool_results import TOOLS
from explorer.services.routes import HOME, TARGETLESS, Page, Route
from explorer.viewmodels.observable import TypedSignal
from explorer.viewmodels.tools import tool_of


@dataclass
class History:
    """A browser-style history: a current route with back and forward stacks."""

    current: Route = HOME
    back_stack: list[Route] = field(default_factory=list)
    forward_stack: list[Route] = field(default_factory=list)

    def go(self, route: Route) -> None:
        """Visit a new route; forward history is dropped."""
        if route == self.current:
            return
        self.back_stack.append(self.current)
        self.forward_stack.clear()
        self.current = route

    def back(self) -> bool:
        """Step back; False when there is nowhere to go."""
        return self._step(self.back_stack, self.forward_stack)

    def forward(self) -> bool:
        """Step forward; False when there is nowhere to go."""
        return self._step(self.forward_stack, self.back_stack)

    def _step(self, source: list[Route], other: list[Route]) -> bool:
        """Move to the top of source, the current route going onto the other stack."""
        if not source:
            return False
        other.append(self.current)
        self.current = source.pop()
        return True


class Navigator(QObject):
    """The open tabs and the current one.

    Signals:
        tab_opened(int, Route): a tab was added at an index, showing a route.
        tab_closed(int): the tab at an index was closed.
        current_changed(int): another tab became current.
        route_changed(int, Route): the tab at an index now shows another route.
        location_changed(Route): the route in front changed (another tab, or another route
            in the current one): what an address bar shows.
    """

    tab_opened = TypedSignal[int, Route]()
    tab_closed = TypedSignal[int]()
    current_changed = TypedSignal[int]()
    route_changed = TypedSignal[int, Route]()
    location_changed = TypedSignal[Route]()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tabs: list[History] = []
        self._current = -1

    @property
    def current_index(self) -> int:
        """Index of the current tab (-1 before the first is opened)."""
        return self._current

    @property
    def count(self) -> int:
        """Number of open tabs."""
        return len(self._tabs)

    def route(self, index: int | None = None) -> Route:
        """Return the route the tab shows (the current tab by default)."""
        return self._tabs[self._current if index is None else index].current

    def history(self, index: int | None = None) -> History:
        """Return a tab's history (the current tab by default)."""
        return self._tabs[self._current if index is None else index]

    def open_tab(self, route: Route = HOME, *, activate: bool = True) -> int:
        """Open a tab at the end showing route; return its index."""
        self._tabs.append(History(route))
        index = len(self._tabs) - 1
        self.tab_opened.emit(index, route)
        if activate or self._current < 0:
            self.set_current(index)
        return index

    def close_tab(self, index: int) -> None:
        """Close a tab; the last tab is replaced by a fresh home tab."""
        if not 0 <= index < len(self._tabs):
            return
        was = self._current
        del self._tabs[index]
        self.tab_closed.emit(index)  # the view may make another tab current meanwhile
        if not self._tabs:
            self._current = -1
            self.open_tab(HOME)
            return
        kept = was if was < index else max(was - 1, 0)  # the current tab, or its left neighbour
        kept = min(kept, len(self._tabs) - 1)
        if kept != self._current:
            self.set_current(kept)
        elif was == index:  # the index is the same, the tab in front is another
            self.current_changed.emit(kept)
            self.location_changed.emit(self._tabs[kept].current)

    def set_current(self, index: int) -> None:
        """Make a tab current."""
        if 0 <= index < len(self._tabs) and index != self._current:
            self._current = index
            self.current_changed.emit(index)
            self.location_changed.emit(self._tabs[index].current)

    def go(self, route: Route, *, new_tab: bool = False) -> None:
        """Show a route in the current tab, or in a new one."""
        if new_tab or self._current < 0:
            self.open_tab(route, activate=not new_tab or self._current < 0)
            return
        history = self._tabs[self._current]
        before = history.current
        history.go(route)
        if history.current != before:
            self.route_changed.emit(self._current, history.current)
            self.location_changed.emit(history.current)

    def back(self) -> bool:
        """Go back in the current tab."""
        return self._step(History.back)

    def forward(self) -> bool:
        """Go forward in the current tab."""
        return self._step(History.forward)

    def _step(self, move: Callable[[History], bool]) -> bool:
        """Apply a history move to the current tab and announce the new route."""
        if self._current < 0:
            return False
        history = self._tabs[self._current]
        if not move(history):
            return False
        self.route_changed.emit(self._current, history.current)
        self.location_changed.emit(history.current)
        return True

    def routes(self) -> list[str]:
        """Return every tab's route as text (for remembering open tabs)."""
        return [str(tab.current) for tab in self._tabs]


def tab_title(route: Route) -> str:
    """Return a short tab title for a route (`Tx 0xf58e06…df42`, `Home`, a tool's title)."""
    if route.page is Page.TOOL:
        return TOOLS[tool_of(route)[0]].title
    if route.page in TARGETLESS:
        return str(route.page.value).capitalize()
    target = route.target
    if target.isascii() and target.isdecimal():  # a block number reads as everywhere: 11,950
        target = f"{int(target):,}"
    short = target if len(target) <= 14 else target[:8] + "…" + target[-4:]
    name = "Peg-in" if route.page is Page.PEGIN else route.page.value.capitalize()
    return f"{name} {short}"
