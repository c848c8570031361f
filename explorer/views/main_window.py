"""The main window: navigation bar with search, tabs of pages, banner and status bar."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QMainWindow,
    QPushButton,
    QTabWidget,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from explorer.presentation.tool_results import TOOLS
from explorer.services.routes import BROADCAST, LOGS, NODE, WATCHLIST, Page, Route, tool_route
from explorer.viewmodels.budget import Budget
from explorer.viewmodels.navigator import Navigator, tab_title
from explorer.viewmodels.networks import NetworksViewModel
from explorer.viewmodels.observable import TypedSignal
from explorer.viewmodels.search import SearchViewModel
from explorer.viewmodels.shell import Banner, ShellViewModel
from explorer.views.bridge_action import add_bridge_action
from explorer.views.help_dialog import (
    OTHER_SHORTCUTS,
    GuideDialog,
    ShortcutsDialog,
    menu_shortcuts,
)
from explorer.views.icons import PAGE_ICONS, palette_icons
from explorer.views.main_menus import THEMES, add_help, build_menus
from explorer.views.network_combo import network_combo
from explorer.views.page_views import carry_draft, discard_page, dispose_page, page_view
from explorer.views.search_bar import search_bar
from explorer.views.search_message import SearchMessage
from explorer.views.theme import plain_label, tone_palette
from explorer.views.warm_pages import PageWarmer

if TYPE_CHECKING:
    from explorer.views.page_view import PageView

TITLE = "Rootstock Explorer"
MOUSE_BUTTON_EVENTS = (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease)
HISTORY_BUTTONS: dict[Qt.MouseButton, Callable[[Navigator], bool]] = {
    Qt.MouseButton.BackButton: Navigator.back,
    Qt.MouseButton.ForwardButton: Navigator.forward,
}


class MainWindow(QMainWindow):
    """Top-level window bound to the shell, navigator and search view models.

    It binds each view model to its widgets only; the view models are wired to one another
    where they are made (explorer.app.application.wire_view_models).

    Signals:
        theme_chosen(str): View > Theme: "system", "light" or "dark".
    """

    theme_chosen = TypedSignal[str]()

    def __init__(
        self,
        shell: ShellViewModel,
        navigator: Navigator | None = None,
        search: SearchViewModel | None = None,
    ) -> None:
        super().__init__()
        self.shell = shell
        self.navigator = navigator or Navigator(self)
        self.search = search or SearchViewModel(parent=self)
        self.setWindowTitle(TITLE)
        self.resize(1200, 800)
        self.close_to_tray: Callable[[], bool] = lambda: False  # app/watching.py: the tray choice
        self._build_toolbar()
        self.menus = build_menus(self, self.navigator, self.focus_search)
        self._build_tools_menu()
        self.help = add_help(self)
        self._build_body()
        self._build_status_bar()
        self._bind()
        if self.navigator.count == 0:
            self.navigator.open_tab()
        # Mouse back/forward: filter the window's own QWindow, which every mouse event of this
        # window passes through, rather than the whole application (every timer tick of every
        # object would pay for that).
        self.winId()
        handle = self.windowHandle()
        if handle is not None:
            handle.installEventFilter(self)

    def _build_toolbar(self) -> None:
        """Back, forward, the search bar."""
        self.toolbar = toolbar = QToolBar("Navigation")
        toolbar.setMovable(False)
        self.icons = palette_icons(self)
        self.back_action = toolbar.addAction("Back", self.navigator.back)
        self.back_action.setToolTip("Back (Alt+Left)")
        self.forward_action = toolbar.addAction("Forward", self.navigator.forward)
        self.forward_action.setToolTip("Forward (Alt+Right)")
        self.logs_action = toolbar.addAction("Logs", lambda: self.navigator.open_tab(LOGS))
        self.logs_action.setToolTip("Logs explorer: eth_getLogs over any range (new tab)")
        self.broadcast_action = toolbar.addAction(
            "Broadcast", lambda: self.navigator.open_tab(BROADCAST)
        )
        self.broadcast_action.setToolTip("Broadcast a signed transaction and follow it (new tab)")
        for action, icon in (
            (self.back_action, "back"),
            (self.forward_action, "forward"),
            (self.logs_action, "logs"),
            (self.broadcast_action, "broadcast"),
        ):
            self.icons.set_icon(action, icon)
            self.name_button(action, with_text=icon not in ("back", "forward"))
        self.search_bar, self.stop_search_action = search_bar(self.search.recent, self.icons, self)
        toolbar.addWidget(self.search_bar)
        self.addToolBar(toolbar)

    def _build_tools_menu(self) -> None:
        """Add the node page and the watchlist (toolbar and Tools menu) and the tools."""
        self.tools_menu = self.menuBar().addMenu("&Tools")
        after_logs = self.toolbar.actions()[self.toolbar.actions().index(self.logs_action) + 1]
        self.node_action = self._page_action(
            "Node", NODE, "What the node says about itself (new tab)", after_logs
        )
        self.watchlist_action = self._page_action(  # named: the star bookmarks the page
            "Watchlist",
            WATCHLIST,
            "Watched addresses: balances and new activity (new tab)",
            after_logs,
        )
        self.tools_menu.addSeparator()
        for kind, spec in TOOLS.items():
            self.tools_menu.addAction(spec.title, self._opener(tool_route(kind.value)))
        self.bridge_action = add_bridge_action(self, self.tools_menu, self.icons)
        self.name_button(self.bridge_action, with_text=True)

    def _page_action(self, text: str, route: Route, tip: str, before: QAction) -> QAction:
        """Add a toolbar button and a Tools menu entry that open route in a new tab."""
        action = QAction(text, self)
        action.triggered.connect(self._opener(route))
        action.setToolTip(tip)
        self.toolbar.insertAction(before, action)
        self.icons.set_icon(action, route.page.value)
        self.name_button(action, with_text=True)
        self.tools_menu.addAction(action)
        return action

    def _opener(self, route: Route) -> Callable[[], object]:
        """Return a slot that opens route in a new tab."""
        return lambda: self.navigator.open_tab(route)

    def _build_body(self) -> None:
        """Banner, inline search message, tabs."""
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(6, 4, 6, 4)
        self.banner = plain_label("")
        self.banner.setWordWrap(True)
        self.banner_retry = QPushButton("Retry")
        self.banner_retry.setToolTip("Ask the node for its chain id again now")
        self.banner_cancel = QPushButton("Cancel")
        self.banner_cancel.setToolTip("Stop checking the node (Retry starts again)")
        self.banner_close = QToolButton()
        self.banner_close.setText("×")
        self.banner_close.setAutoRaise(True)
        self.banner_close.setToolTip("Close this notice")
        self.banner_bar = QWidget()
        banner_row = QHBoxLayout(self.banner_bar)
        banner_row.setContentsMargins(0, 0, 0, 0)
        banner_row.addWidget(self.banner, 1)
        banner_row.addWidget(self.banner_retry, 0, Qt.AlignmentFlag.AlignTop)
        banner_row.addWidget(self.banner_cancel, 0, Qt.AlignmentFlag.AlignTop)
        banner_row.addWidget(self.banner_close, 0, Qt.AlignmentFlag.AlignTop)
        self.banner_bar.setVisible(False)
        self.search_message = plain_label("", wrap=True)
        self.search_message.setVisible(False)
        self.tabs = QTabWidget()
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(False)
        self.tabs.setDocumentMode(True)
        layout.addWidget(self.banner_bar)
        layout.addWidget(self.search_message)
        layout.addWidget(self.tabs, 1)
        self.setCentralWidget(central)

    def _build_status_bar(self) -> None:
        """Network and connection status."""
        self.network_label = plain_label(self.shell.network, selectable=False)
        self.status_label = plain_label(self.shell.status, selectable=False)
        self.statusBar().addWidget(self.network_label)
        self.statusBar().addWidget(self.status_label, 1)
        self.budget_label = plain_label(self.shell.budget.text, selectable=False)
        self.budget_label.setIndent(24)  # clear of the status text, however long that runs
        self.budget_label.setToolTip(
            "Requests this key spent today (UTC) by every window and command line, against "
            "the network's daily quota (Settings › Saved data and requests)"
        )
        self.statusBar().addPermanentWidget(self.budget_label)

    def _bind(self) -> None:
        """Connect view models, shortcuts and widgets."""
        self.shell.network_changed.connect(self.network_label.setText)
        self.shell.status_changed.connect(self.status_label.setText)
        self.shell.banner_changed.connect(self._show_banner)
        self.shell.budget_changed.connect(self._show_budget)
        self.shell.session_changed.connect(self.reload_all)
        self.shell.head_changed.connect(PageWarmer(self).start)  # the window is up: at rest
        self.search_messages = SearchMessage(
            self.search, self.search_message, self.stop_search_action, self
        )
        self.search.text_changed.connect(self._show_search_text)
        self.search_bar.textEdited.connect(self.search.edit)
        self.search_bar.returnPressed.connect(lambda: self.search.on_submit(self.search_bar.text()))
        self.stop_search_action.triggered.connect(lambda: self.search.cancel())
        escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self.search_bar)
        escape.setContext(Qt.ShortcutContext.WidgetShortcut)
        escape.activated.connect(self.search.on_escape)
        self.banner_retry.clicked.connect(self.shell.recheck)
        self.banner_cancel.clicked.connect(self.shell.cancel_check)
        self.banner_close.clicked.connect(self.shell.dismiss_notice)
        self.help.guide.triggered.connect(lambda: GuideDialog(self).show())
        self.help.shortcuts.triggered.connect(self.show_shortcuts)
        for name, action in self.menus.themes.items():
            action.triggered.connect(lambda _=False, name=name: self.theme_chosen.emit(name))
        nav = self.navigator
        nav.tab_opened.connect(self._on_tab_opened)
        nav.tab_closed.connect(self._on_tab_closed)
        nav.current_changed.connect(self.tabs.setCurrentIndex)
        nav.route_changed.connect(self._on_route_changed)
        self.tabs.currentChanged.connect(nav.set_current)
        self.tabs.tabCloseRequested.connect(nav.close_tab)
        self._show_banner(self.shell.banner)

    def attach_networks(
        self, model: NetworksViewModel, open_settings: Callable[[], QDialog]
    ) -> None:
        """Add the network switcher and the Settings button to the toolbar."""
        self.attached = (model, open_settings)  # a second window of the app shows the same
        self.network_combo = network_combo(model, self)
        self.network_combo.setToolTip("Network")
        self.toolbar.addWidget(self.network_combo)
        self.settings_action = self.toolbar.addAction("Settings…", lambda: open_settings().exec())
        self.settings_action.setToolTip("Settings: networks, API keys, the keyring (Ctrl+,)")
        self.settings_action.setShortcut(QKeySequence("Ctrl+,"))
        self.icons.set_icon(self.settings_action, "settings")
        self.name_button(self.settings_action)
        self.menus.file.insertAction(self.menus.quit, self.settings_action)
        self.menus.file.insertSeparator(self.menus.quit)

    def show_theme(self, name: str) -> None:
        """Tick the theme in use in View > Theme."""
        self.menus.themes.get(name, self.menus.themes[THEMES[0][0]]).setChecked(True)

    def show_shortcuts(self) -> ShortcutsDialog:
        """Open Help > Keyboard shortcuts: every menu's, then the others."""
        menus = (self.menus.file, self.menus.view, self.menus.go, self.tools_menu, self.help.menu)
        dialog = ShortcutsDialog([*menu_shortcuts(menus), *OTHER_SHORTCUTS], self)
        dialog.show()
        return dialog

    def name_button(self, action: QAction, *, with_text: bool = False) -> None:
        """Give a toolbar action's button an accessible name, and its text beside the icon."""
        button = self.toolbar.widgetForAction(action)
        if button is None:
            return
        button.setAccessibleName(action.text().replace("&", "").removesuffix("…"))
        if with_text and isinstance(button, QToolButton):
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)

    def focus_search(self) -> None:
        """Put the cursor in the search bar with its text selected."""
        self.search_bar.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_bar.selectAll()

    def _show_banner(self, banner: Banner) -> None:
        """Show or hide the banner in its tone, with Retry when it offers one."""
        self.banner.setText(banner.text)
        self.banner.setVisible(bool(banner.text))
        self.banner_bar.setVisible(bool(banner.text))
        self.banner_retry.setVisible(banner.retry)
        self.banner_cancel.setVisible(banner.cancel)
        self.banner_close.setVisible(banner.dismiss)
        tone_palette(self.banner, banner.tone)

    def _show_budget(self, budget: Budget) -> None:
        """Show the requests spent today against the quota, in its tone."""
        self.budget_label.setText(budget.text)
        tone_palette(self.budget_label, budget.tone)

    def _show_search_text(self, text: str) -> None:
        """Show the current page's query in the search bar (its cursor at the start)."""
        if self.search_bar.text() != text:
            self.search_bar.setText(text)
            self.search_bar.setCursorPosition(0)

    def open_route(self, route: Route, new_tab: bool) -> None:
        """Open a route (from search or a link), in a new tab or the current one."""
        self.navigator.go(route, new_tab=new_tab)

    def _page_widget(self, route: Route, replaced: QWidget | None = None) -> QWidget:
        """Return the widget of a route's page (it owns the page's view model).

        What the user typed on the page it replaces (Logs fields, a pasted transaction) is
        kept, on the new network.
        """
        model = self.shell.create_page(route)
        carry_draft(replaced, model)
        if model is None:
            idle = plain_label(self.shell.idle_text(route))
            idle.setAlignment(Qt.AlignmentFlag.AlignCenter)
            return idle
        view = page_view(model)
        model.setParent(view)
        view.link_activated.connect(self.open_route)
        if route.page is Page.BROADCAST:  # a sent transaction's page opens in front
            from explorer.views.broadcast_view import BroadcastView

            if isinstance(view, BroadcastView):
                view.model.tracking_started.connect(self.navigator.open_tab)
        return view

    def _on_tab_opened(self, index: int, route: Route) -> None:
        """Add a tab's widget."""
        self.tabs.insertTab(index, self._page_widget(route), tab_title(route))
        self.icons.set_tab_icon(self.tabs, index, PAGE_ICONS[route.page])

    def _on_tab_closed(self, index: int) -> None:
        """Remove a tab's widget and stop its work."""
        widget = self.tabs.widget(index)
        self.tabs.removeTab(index)
        discard_page(widget)

    def _on_route_changed(self, index: int, route: Route) -> None:
        """Replace a tab's page after navigation."""
        old = self.tabs.widget(index)
        self.tabs.blockSignals(True)
        self.tabs.removeTab(index)
        self.tabs.insertTab(index, self._page_widget(route, old), tab_title(route))
        self.icons.set_tab_icon(self.tabs, index, PAGE_ICONS[route.page])
        self.tabs.setCurrentIndex(index)
        self.tabs.blockSignals(False)
        discard_page(old)

    def reload_all(self) -> None:
        """Rebuild every tab for a new session."""
        for index in range(self.tabs.count()):
            self._on_route_changed(index, self.navigator.route(index))
        self.tabs.setCurrentIndex(max(self.navigator.current_index, 0))

    def changeEvent(self, event: QEvent) -> None:
        """Stop the head poll while the window is minimised."""
        if event.type() == QEvent.Type.WindowStateChange:
            self.shell.poller.set_minimised(self.isMinimized())
        super().changeEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Stop every page's work (loads, refresh timers) and the head poll on closing.

        With the tray choice on, the window only hides: the app keeps watching.
        """
        if self.close_to_tray():
            event.ignore()
            self.hide()
            return
        for index in range(self.tabs.count()):
            dispose_page(self.tabs.widget(index))
        self.shell.poller.stop()
        super().closeEvent(event)

    def current_page(self) -> PageView | None:
        """Return the page view of the current tab, if it shows one."""
        from explorer.views.page_view import PageView  # not for the first screen (home)

        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, PageView) else None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Mouse back/forward buttons anywhere in this window move through the tab's history."""
        kind = event.type()
        if kind == QEvent.Type.Expose and watched is self.windowHandle():
            handle = self.windowHandle()  # not exposed: hidden, or on another desktop
            self.shell.poller.set_hidden(handle is not None and not handle.isExposed())
        if kind in MOUSE_BUTTON_EVENTS and watched is self.windowHandle():
            button = event.button()  # type: ignore[attr-defined]
            if button in HISTORY_BUTTONS:
                if kind == QEvent.Type.MouseButtonRelease:
                    HISTORY_BUTTONS[button](self.navigator)
                return True
        return super().eventFilter(watched, event)
