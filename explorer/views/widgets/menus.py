"""Clipboard and the shared context menu: Copy, Copy as JSON, Open in new tab."""

from __future__ import annotations

import json
from collections.abc import Callable

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMenu, QWidget

COPY = "Copy"
COPY_JSON = "Copy as JSON"
OPEN_NEW_TAB = "Open in new tab"


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
    route: str | None = None,
    open_route: Callable[[str, bool], None] | None = None,
) -> QMenu:
    """Build the menu for a value; "Open in new tab" only when it has a route and a handler."""
    menu = QMenu(parent)
    menu.addAction(COPY).triggered.connect(lambda: copy_to_clipboard(copy_text))
    menu.addAction(COPY_JSON).triggered.connect(lambda: copy_to_clipboard(json_text(json_value)))
    if route is not None and open_route is not None:
        menu.addSeparator()
        menu.addAction(OPEN_NEW_TAB).triggered.connect(lambda: open_route(route, True))
    return menu


def menu_action(menu: QMenu, text: str) -> object | None:
    """Return the menu's action with this text, or None (for tests and keyboard use)."""
    return next((a for a in menu.actions() if a.text() == text), None)
