"""The bookmarks dock (open, rename, remove, import/export JSON) and label/bookmark menu entries."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QGridLayout,
    QInputDialog,
    QLineEdit,
    QListView,
    QMenu,
    QMessageBox,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from explorer.services.label_entries import MAX_LABEL
from explorer.services.labels_file import ImportReport
from explorer.services.routes import Page, Route
from explorer.viewmodels.labels import LabelsViewModel, Overwrite
from explorer.viewmodels.observable import TypedSignal
from explorer.viewmodels.roles import ROUTE_ROLE
from explorer.views.star_action import install_star
from explorer.views.theme import plain_label
from explorer.views.widgets.address import USER_LABELS, set_label_lookup
from explorer.views.widgets.menus import set_entity_actions
from explorer.views.widgets.sortable import make_sortable

if TYPE_CHECKING:
    from explorer.views.main_window import MainWindow

EDIT_LABEL = "Edit label…"
BOOKMARK = "Bookmark"
REMOVE_BOOKMARK = "Remove bookmark"
JSON_FILTER = "Labels and bookmarks (*.json);;All files (*)"


AskText = Callable[[QWidget, str, str, str], str | None]
AskPath = Callable[[QWidget, str], Path | None]
AskOverwrite = Callable[[QWidget, int], Overwrite]


def ask_text(parent: QWidget, title: str, prompt: str, text: str) -> str | None:
    """Ask for one line of text; None when cancelled."""
    dialog = QInputDialog(parent)
    dialog.setWindowTitle(title)
    dialog.setLabelText(prompt)
    dialog.setTextValue(text)
    line = dialog.findChild(QLineEdit)
    if line is not None:
        line.setMaxLength(MAX_LABEL)
    return dialog.textValue() if dialog.exec() else None


def ask_open_path(parent: QWidget, title: str) -> Path | None:
    """Ask for a JSON file to read."""
    name, _ = QFileDialog.getOpenFileName(parent, title, "", JSON_FILTER)
    return Path(name) if name else None


def ask_save_path(parent: QWidget, title: str) -> Path | None:
    """Ask where to write a JSON file."""
    name, _ = QFileDialog.getSaveFileName(parent, title, "labels.json", JSON_FILTER)
    return Path(name) if name else None


def ask_overwrite(parent: QWidget, conflicts: int) -> Overwrite:
    """Ask whether the file's entries replace the user's differing ones."""
    box = QMessageBox(parent)
    box.setWindowTitle("Import labels and bookmarks")
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(
        f"{conflicts} entries in the file differ from yours. Replace yours with the file's?"
    )
    replace = box.addButton("Replace mine", QMessageBox.ButtonRole.YesRole)
    keep = box.addButton("Keep mine", QMessageBox.ButtonRole.NoRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    answers = {id(replace): Overwrite.REPLACE, id(keep): Overwrite.KEEP}
    return answers.get(id(box.clickedButton()), Overwrite.CANCEL)


def edit_label(model: LabelsViewModel, ask: AskText, parent: QWidget, address: str) -> None:
    """Ask for an address's label and save it when it changed (empty removes it)."""
    current = model.get(address) or ""
    text = ask(parent, "Edit label", f"Label for {address} (empty removes it):", current)
    if text is not None and text != current:
        model.set_label(address, text)


class LabelMenuActions:
    """Adds "Edit label…" (addresses) and "Bookmark"/"Remove bookmark" to value menus."""

    def __init__(self, model: LabelsViewModel, ask: AskText = ask_text) -> None:
        self.model = model
        self.ask = ask

    def add_actions(self, menu: QMenu, route: Route, parent: QWidget) -> None:
        """Append the entries for the entity at route."""
        if route.page is Page.ADDRESS:
            menu.addAction(EDIT_LABEL).triggered.connect(
                lambda: self.edit_label(route.target, parent)
            )
        if self.model.is_bookmarked(route):
            action = menu.addAction(REMOVE_BOOKMARK)
            action.triggered.connect(lambda: self.model.remove_bookmark(route))
        else:
            menu.addAction(BOOKMARK).triggered.connect(lambda: self.model.add_bookmark(route))

    def edit_label(self, address: str, parent: QWidget) -> None:
        """Ask for an address's label and save it (empty removes it)."""
        edit_label(self.model, self.ask, parent, address)


class BookmarksView(QDockWidget):
    """A dock with the network's bookmarks and labels (tabs), with import and export.

    Signals:
        link_activated(route, new_tab): a bookmark or labelled address was opened
        (double-click or Enter; the context menu's "Open in new tab" gives new_tab True).
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, model: LabelsViewModel, parent: QWidget | None = None) -> None:
        super().__init__("Bookmarks and labels", parent)
        self.setObjectName("bookmarks")
        self.model = model
        self.ask_text: AskText = ask_text
        self.ask_open_path: AskPath = ask_open_path
        self.ask_save_path: AskPath = ask_save_path
        self.ask_overwrite: AskOverwrite = ask_overwrite
        self.bookmark_page_action: QAction | None = None
        self._build()
        model.message_changed.connect(self._show_message)

    def _build(self) -> None:
        """Tabs of bookmarks and labels, buttons and the message line."""
        body = QWidget()
        layout = QVBoxLayout(body)
        self.list = QListView()
        self.list.setModel(self.model.bookmarks)
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setUniformItemSizes(True)
        self.table = QTableView()
        self.table.setModel(self.model.table)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        make_sortable(self.table)
        for view in (self.list, self.table):
            view.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
            view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            view.activated.connect(lambda index: self._open(index, False))  # double-click, Enter
        self.list.customContextMenuRequested.connect(self._show_list_menu)
        self.empty_label = plain_label(
            "No bookmarks yet: right-click a block, transaction or address, or press Ctrl+D."
        )
        self.empty_label.setWordWrap(True)
        bookmarks_page = QWidget()
        page_layout = QVBoxLayout(bookmarks_page)
        page_layout.setContentsMargins(0, 0, 0, 0)
        page_layout.addWidget(self.empty_label)
        page_layout.addWidget(self.list, 1)
        self.tabs = QTabWidget()
        self.tabs.addTab(bookmarks_page, "Bookmarks")
        self.tabs.addTab(self.table, "Labels")
        buttons = QGridLayout()  # two by two: the panel stays narrow beside the pages
        self.rename_button = QPushButton("Rename…")
        self.remove_button = QPushButton("Remove")
        self.import_button = QPushButton("Import…")
        self.export_button = QPushButton("Export…")
        self.rename_button.clicked.connect(self.on_rename)
        self.remove_button.clicked.connect(self.on_remove)
        self.import_button.clicked.connect(self.on_import)
        self.export_button.clicked.connect(self.on_export)
        for index, button in enumerate(
            (self.rename_button, self.remove_button, self.import_button, self.export_button)
        ):
            buttons.addWidget(button, index // 2, index % 2)
        self.message_label = plain_label("", selectable=False)
        self.message_label.setWordWrap(True)
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.message_label)
        self.setWidget(body)
        self.model.bookmarks.modelReset.connect(self._refresh_empty)
        self.model.table.modelReset.connect(self._refresh_empty)
        self.tabs.currentChanged.connect(self._refresh_empty)
        self._refresh_empty()

    def labels_shown(self) -> bool:
        """Tell whether the Labels tab is the current one."""
        return self.tabs.currentWidget() is self.table

    def on_rename(self) -> None:
        """Rename the selected bookmark, or edit the selected label."""
        if self.labels_shown():
            self.edit_label(self.table.currentIndex())
        else:
            self.rename(self.list.currentIndex())

    def on_remove(self) -> None:
        """Remove the selected bookmark or label."""
        if self.labels_shown():
            index = self.table.currentIndex()
            if index.isValid():
                self.model.set_label(self.model.table.address(index.row()), "")
        else:
            self.remove(self.list.currentIndex())

    def edit_label(self, index: QModelIndex) -> None:
        """Ask for a new label of the address at index (empty removes it)."""
        if not index.isValid():
            return
        edit_label(self.model, self.ask_text, self, self.model.table.address(index.row()))

    def _refresh_empty(self) -> None:
        """Show the hint when there are no bookmarks; enable what the current tab allows."""
        self.empty_label.setVisible(self.model.bookmarks.rowCount() == 0)
        shown = self.model.table if self.labels_shown() else self.model.bookmarks
        self.rename_button.setText("Edit…" if self.labels_shown() else "Rename…")
        self.rename_button.setEnabled(shown.rowCount() > 0)
        self.remove_button.setEnabled(shown.rowCount() > 0)

    def _show_message(self, text: str) -> None:
        """Show the model's latest message."""
        self.message_label.setText(text)

    def _open(self, index: QModelIndex, new_tab: bool) -> None:
        """Open the bookmark at index."""
        route = index.data(ROUTE_ROLE) if index.isValid() else None
        if isinstance(route, Route):
            self.link_activated.emit(route, new_tab)

    def _show_list_menu(self, position: QPoint) -> None:
        """Open, open in new tab, rename or remove the bookmark under the mouse."""
        index = self.list.indexAt(position)
        if not index.isValid():
            return
        self.list_menu(index).exec(self.list.viewport().mapToGlobal(position))

    def list_menu(self, index: QModelIndex) -> QMenu:
        """Return the context menu of one bookmark."""
        menu = QMenu(self)
        menu.addAction("Open").triggered.connect(lambda: self._open(index, False))
        menu.addAction("Open in new tab").triggered.connect(lambda: self._open(index, True))
        menu.addSeparator()
        menu.addAction("Rename…").triggered.connect(lambda: self.rename(index))
        menu.addAction("Remove").triggered.connect(lambda: self.remove(index))
        return menu

    def rename(self, index: QModelIndex) -> None:
        """Ask for a new title of the bookmark at index."""
        if not index.isValid():
            return
        bookmark = self.model.bookmarks.bookmark(index.row())
        title = self.ask_text(self, "Rename bookmark", str(bookmark.route), bookmark.title)
        if title:
            self.model.add_bookmark(bookmark.route, title)

    def remove(self, index: QModelIndex) -> None:
        """Remove the bookmark at index."""
        if index.isValid():
            self.model.remove_bookmark(self.model.bookmarks.bookmark(index.row()).route)

    def on_import(self) -> asyncio.Task[ImportReport | None] | None:
        """Import a file the user picks (the model asks before replacing their entries)."""
        return self.model.import_asking(
            lambda: self.ask_open_path(self, "Import labels and bookmarks"),
            lambda conflicts: self.ask_overwrite(self, conflicts),
        )

    def on_export(self) -> asyncio.Task[str | None] | None:
        """Export every label and bookmark to a file the user picks."""
        return self.model.export_asking(
            lambda: self.ask_save_path(self, "Export labels and bookmarks")
        )


def install_labels(window: MainWindow, model: LabelsViewModel) -> BookmarksView:
    """Wire labels and bookmarks into the main window.

    User labels appear on every AddressLabel, value menus gain Edit label…/Bookmark, a
    hidden Bookmarks dock is toggled from the toolbar (Ctrl+Shift+B), Ctrl+D bookmarks the
    current page (the toolbar's star), and the labels follow the session's network.
    """
    set_label_lookup(model)
    model.labels_changed.connect(USER_LABELS.changed)
    set_entity_actions(LabelMenuActions(model))
    dock = BookmarksView(model, window)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    dock.hide()
    navigator, shell = window.navigator, window.shell
    dock.link_activated.connect(lambda route, new_tab: navigator.go(route, new_tab=new_tab))
    toggle = dock.toggleViewAction()
    toggle.setText("Bookmarks")
    toggle.setShortcut(QKeySequence("Ctrl+Shift+B"))
    toggle.setToolTip("Show or hide your bookmarks and address labels (Ctrl+Shift+B)")
    window.icons.set_icon(toggle, "bookmark")
    dock.bookmark_page_action = install_star(window, model)  # the star, before the list's button
    window.toolbar.addAction(toggle)
    window.name_button(toggle, with_text=True)
    window.menus.view.addAction(toggle)

    def follow_session() -> None:
        """Open the labels of the session's network."""
        session = shell.session
        if session is not None and (session.network.id != model.network_id or not model.is_open):
            model.open_network(session.network.id, session.network.chain_id)

    shell.session_changed.connect(follow_session)
    follow_session()
    return dock
