"""The window's way to the Bridge page: a toolbar button and a Tools menu entry."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QToolBar

from explorer.services.routes import BRIDGE_PAGE
from explorer.viewmodels.navigator import Navigator
from explorer.views.icons import PaletteIcons


class _Window(Protocol):
    """What the action needs of the main window."""

    toolbar: QToolBar
    node_action: QAction
    navigator: Navigator


def add_bridge_action(window: _Window, menu: QMenu, icons: PaletteIcons) -> QAction:
    """Add "Bridge" after the Node button and to the Tools menu; it opens in a new tab."""
    action = QAction("Bridge", menu)
    action.setToolTip("The Bridge: federation, the peg, queued peg-outs (new tab)")
    action.triggered.connect(lambda: window.navigator.open_tab(BRIDGE_PAGE))
    actions = window.toolbar.actions()
    after_node = actions[actions.index(window.node_action) + 1]
    window.toolbar.insertAction(after_node, action)
    icons.set_icon(action, "bridge")
    menu.insertAction(menu.actions()[1], action)  # after Node, before the separator
    return action
