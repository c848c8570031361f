"""The main window's menu bar: File, View, Go, Tools and Help, each item with its shortcut."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from explorer.services.routes import HOME
from explorer.viewmodels.navigator import Navigator

#: The colour themes of View > Theme: (setting value, menu text).
THEMES = (("system", "&System"), ("light", "&Light"), ("dark", "&Dark"))


@dataclass(frozen=True)
class MainMenus:
    """File, View and Go, and the items others connect to or add beside."""

    file: QMenu
    view: QMenu
    go: QMenu
    quit: QAction
    themes: dict[str, QAction]


@dataclass(frozen=True)
class HelpMenu:
    """Help: the guide, the shortcuts and About."""

    menu: QMenu
    guide: QAction
    shortcuts: QAction
    about: QAction


def item(menu: QMenu, text: str, slot: Callable[[], object], keys: str = "") -> QAction:
    """Add a menu item with its shortcut (active anywhere in the window)."""
    action = menu.addAction(text)
    action.triggered.connect(slot)
    if keys:
        action.setShortcut(QKeySequence(keys))
    return action


def build_menus(
    window: QMainWindow, navigator: Navigator, focus_search: Callable[[], None]
) -> MainMenus:
    """Add File, View and Go to the window's menu bar; Tools and Help follow (add_help)."""
    bar = window.menuBar()
    file = bar.addMenu("&File")
    item(file, "&New tab", lambda: navigator.open_tab(), "Ctrl+T")
    item(file, "&Close tab", lambda: navigator.close_tab(navigator.current_index), "Ctrl+W")
    file.addSeparator()
    quit_action = item(file, "&Quit", window.close)
    quit_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Quit))
    if quit_action.shortcut().isEmpty():  # a platform with no standard one
        quit_action.setShortcut(QKeySequence("Ctrl+Q"))
    view = bar.addMenu("&View")
    theme_menu = view.addMenu("&Theme")
    group = QActionGroup(window)
    themes: dict[str, QAction] = {}
    for name, text in THEMES:
        themes[name] = action = theme_menu.addAction(text)
        action.setCheckable(True)
        group.addAction(action)
    themes["system"].setChecked(True)
    view.addSeparator()
    go = bar.addMenu("&Go")
    item(go, "&Back", navigator.back, "Alt+Left")
    item(go, "&Forward", navigator.forward, "Alt+Right")
    item(go, "&Home", lambda: navigator.go(HOME), "Alt+Home")
    item(go, "&Search", focus_search, "Ctrl+L")
    return MainMenus(file, view, go, quit_action, themes)


def add_help(window: QMainWindow) -> HelpMenu:
    """Add the Help menu last: the guide, the shortcuts and About."""
    menu = window.menuBar().addMenu("&Help")
    guide = menu.addAction("&User guide")
    guide.setShortcut(QKeySequence(QKeySequence.StandardKey.HelpContents))
    shortcuts = menu.addAction("&Keyboard shortcuts")
    shortcuts.setShortcut(QKeySequence("Ctrl+/"))
    menu.addSeparator()
    return HelpMenu(menu, guide, shortcuts, menu.addAction("&About Rootstock Explorer"))
