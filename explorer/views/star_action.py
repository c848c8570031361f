"""The toolbar's star: bookmark the page shown, or remove its bookmark; filled when it is one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence

from explorer.services.routes import route_words
from explorer.viewmodels.labels import LabelsViewModel

if TYPE_CHECKING:
    from explorer.views.main_window import MainWindow

MESSAGE_MS = 4000  # how long the status bar says what the star did


def install_star(window: MainWindow, model: LabelsViewModel) -> QAction:
    """Add the star (Ctrl+D) to the toolbar and the View menu; return its action.

    It toggles the current tab's block, transaction or address in the bookmarks, and shows
    whether that page is bookmarked (filled) or not (outline); elsewhere it is greyed.
    """
    navigator = window.navigator
    star = QAction("Bookmark this page", window)
    star.setCheckable(True)
    star.setShortcut(QKeySequence("Ctrl+D"))

    def refresh() -> None:
        """Show whether the current page is bookmarked, and whether it can be."""
        route = navigator.route()
        possible = model.can_bookmark(route)
        marked = possible and model.is_bookmarked(route)
        star.setEnabled(possible)
        star.setChecked(marked)
        window.icons.set_icon(star, "starred" if marked else "star")
        star.setToolTip(
            "Remove this page from the bookmarks (Ctrl+D)"
            if marked
            else "Bookmark this page (Ctrl+D)"
            if possible
            else "Only a block, transaction or address page can be bookmarked"
        )

    def toggle() -> None:
        """Bookmark the current page, or remove its bookmark."""
        route = navigator.route()
        if not model.can_bookmark(route):
            return
        if model.is_bookmarked(route):
            model.remove_bookmark(route)
            text = f"Removed the bookmark of {route_words(route)}"
        else:
            model.add_bookmark(route)
            text = f"Bookmarked {route_words(route)}"
        window.statusBar().showMessage(text, MESSAGE_MS)

    star.triggered.connect(toggle)
    navigator.current_changed.connect(lambda _index: refresh())
    navigator.route_changed.connect(lambda _index, _route: refresh())
    model.labels_changed.connect(refresh)
    model.bookmarks.modelReset.connect(refresh)
    refresh()
    window.toolbar.addAction(star)
    window.name_button(star, with_text=False)
    window.menus.view.addAction(star)
    return star
