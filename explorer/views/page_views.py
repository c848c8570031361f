"""The view that binds each kind of page's view model (the main window's tabs hold them).

The home page's view is imported with this module; every other page's view is imported when
such a page is first shown (its modules cost the first start seconds on a busy machine).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, runtime_checkable

from PySide6.QtWidgets import QWidget

from explorer.viewmodels.home import HomeViewModel
from explorer.viewmodels.pages import PageModel
from explorer.views.home_view import HomeView

if TYPE_CHECKING:
    from explorer.views.broadcast_view import BroadcastView
    from explorer.views.logs_view import LogsView
    from explorer.views.node_view import NodeView
    from explorer.views.page_view import PageView
    from explorer.views.tools_view import ToolView
    from explorer.views.watchlist_view import WatchlistView

AnyPageView: TypeAlias = (
    "PageView | LogsView | HomeView | NodeView | ToolView | BroadcastView | WatchlistView"
)


@runtime_checkable
class Drafted(Protocol):
    """A page view model that keeps what the user typed across a network switch."""

    def draft(self) -> Any:
        """Return what the user typed."""

    def restore(self, draft: Any) -> None:
        """Take back what the user typed on the page this one replaces."""


@runtime_checkable
class Disposable(Protocol):
    """A page view model whose work stops when its page closes."""

    def dispose(self) -> None:
        """Cancel the page's work."""


def page_view(model: PageModel) -> AnyPageView:
    """Return the view that binds a page's view model."""
    if isinstance(model, HomeViewModel):
        return HomeView(model)
    from explorer.viewmodels.address.page import AddressPageViewModel
    from explorer.viewmodels.broadcast import BroadcastViewModel
    from explorer.viewmodels.logs import LogsViewModel
    from explorer.viewmodels.node_page import NodePageViewModel
    from explorer.viewmodels.tools import ToolViewModel
    from explorer.viewmodels.tx_page import TxPageViewModel
    from explorer.viewmodels.watchlist import WatchlistPageViewModel
    from explorer.views.address.page import AddressView
    from explorer.views.broadcast_view import BroadcastView
    from explorer.views.logs_view import LogsView
    from explorer.views.node_view import NodeView
    from explorer.views.page_view import PageView
    from explorer.views.tools_view import ToolView
    from explorer.views.tx_page_view import TxPageView
    from explorer.views.watchlist_view import WatchlistView

    if isinstance(model, WatchlistPageViewModel):
        return WatchlistView(model)
    if isinstance(model, ToolViewModel):
        return ToolView(model)
    if isinstance(model, NodePageViewModel):
        return NodeView(model)
    if isinstance(model, LogsViewModel):
        return LogsView(model)
    if isinstance(model, BroadcastViewModel):
        return BroadcastView(model)
    if isinstance(model, TxPageViewModel):
        return TxPageView(model)
    if isinstance(model, AddressPageViewModel):
        return AddressView(model)
    return PageView(model)


def carry_draft(old: QWidget | None, new: object) -> None:
    """Give a page rebuilt for a new network what the user typed on the old one (same kind)."""
    typed = getattr(old, "model", None)
    if isinstance(typed, Drafted) and isinstance(new, Drafted) and type(typed) is type(new):
        new.restore(typed.draft())


def dispose_page(widget: QWidget | None) -> None:
    """Cancel the work of the page a tab shows (its loads, refresh timers), if it shows one."""
    model = getattr(widget, "model", None)
    if isinstance(model, Disposable):
        model.dispose()


def discard_page(widget: QWidget | None) -> None:
    """Cancel a page's work and delete its widget (and with it the page's view model)."""
    dispose_page(widget)
    if widget is not None:
        widget.deleteLater()
