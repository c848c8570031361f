"""Clipboard and the shared context menu: Copy, Copy as JSON, Open in new tab, app extras."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Protocol

from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QMenu, QWidget

from explorer.services.routes import Route

COPY = "Copy"
COPY_JSON = "Copy as JSON"
OPEN_NEW_TAB = "Open in new tab"


class EntityActions(Protocol):
    """Extra menu entries the app offers for any linked entity (labels, bookmarks)."""

    def add_actions(self, menu: QMenu, route: Route, parent: QWidget) -> None:
        """Append actions for the entity at route (e.g. "address/0x…") to menu."""
        ...


class _Extras:
    """Holds the installed EntityActions (none until the app installs them)."""

    actions: EntityActions | None = None


def set_entity_actions(actions: EntityActions | None) -> None:
    """Install (or remove) the extra entries added to every linked value's menu."""
    _Extras.actions = actions


def copy_to_clipboard(text: str) -> None:
    """Put text on the system clipboard."""
    QGuiApplication.clipboard().setText(text)


def json_text(value: object) -> str:
    """Return value as compact JSON text (ints beyond 2^53 are the caller's to stringify)."""
    return json.dumps(value, ensure_ascii=False)


def build_context_menu(
    parent: QWidget,
    copy_text: str,
    json_value: object,
    route: Route | None = None,
    open_route: Callable[[Route, bool], None] | None = None,
) -> QMenu:
    """Build the menu for a value; "Open in new tab" only when it has a route and a handler.

    A value with a route also gets the installed EntityActions (e.g. Edit label…, Bookmark).
    """
    menu = QMenu(parent)
    menu.addAction(COPY).triggered.connect(lambda: copy_to_clipboard(copy_text))
    menu.addAction(COPY_JSON).triggered.connect(lambda: copy_to_clipboard(json_text(json_value)))
    if route is not None and open_route is not None:
        menu.addSeparator()
        menu.addAction(OPEN_NEW_TAB).triggered.connect(lambda: open_route(route, True))
    if route is not None and _Extras.actions is not None:
        menu.addSeparator()
        _Extras.actions.add_actions(menu, route, parent)
    return menu


def menu_action(menu: QWidget, text: str) -> QAction | None:
    """Return the menu's action with this text, or None (for tests and keyboard use)."""
    return next((a for a in menu.actions() if a.text() == text), None)
