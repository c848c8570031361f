"""Plain-text labels that act as links: click to open, middle- or Ctrl+click for a new tab."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QModelIndex, QPoint, QSize, Qt
from PySide6.QtGui import (
    QEnterEvent,
    QFontMetrics,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPalette,
    QResizeEvent,
    QShortcut,
)
from PySide6.QtWidgets import QAbstractItemView, QLabel, QMenu, QSizePolicy, QToolButton, QWidget

from explorer.services.routes import Route
from explorer.viewmodels.observable import TypedSignal
from explorer.viewmodels.roles import COPY_ROLE, ROUTE_ROLE
from explorer.views.icons import action_icon
from explorer.views.widgets.menus import COPY, copy_to_clipboard

RouteHandler = Callable[[Route, bool], None]


def open_clicked_routes(table: QAbstractItemView, handler: RouteHandler) -> None:
    """Open the route of a clicked cell (ROUTE_ROLE) through handler; Ctrl+click: new tab.

    Cells copy too (Ctrl+C, or Copy in their menu): the exact value (COPY_ROLE) where the
    cell rounds it, else the text shown.
    """

    def on_click(index: QModelIndex) -> None:
        route = index.data(ROUTE_ROLE)
        if isinstance(route, Route):
            modifiers = QGuiApplication.keyboardModifiers()
            handler(route, bool(modifiers & Qt.KeyboardModifier.ControlModifier))

    table.clicked.connect(on_click)
    copy_cells(table)


def cell_copy_text(index: QModelIndex) -> str:
    """Return what Copy gives for a cell: its exact value (COPY_ROLE), else its text."""
    exact = index.data(COPY_ROLE)
    return str(exact if exact is not None else index.data(Qt.ItemDataRole.DisplayRole) or "")


def copy_cells(table: QAbstractItemView) -> None:
    """Let Ctrl+C and a cell's context menu copy it (see cell_copy_text)."""

    def copy(index: QModelIndex) -> None:
        if index.isValid():
            copy_to_clipboard(cell_copy_text(index))

    shortcut = QShortcut(QKeySequence.StandardKey.Copy, table)
    shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    shortcut.activated.connect(lambda: copy(table.currentIndex()))

    def on_menu(position: QPoint) -> None:
        index = table.indexAt(position)
        if index.isValid():
            menu = QMenu(table)
            menu.addAction(COPY).triggered.connect(lambda: copy(index))
            menu.popup(table.viewport().mapToGlobal(position))

    table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
    table.customContextMenuRequested.connect(on_menu)


class LinkLabel(QLabel):
    """A plain-text label that opens a route when clicked.

    Signals:
        link_activated(route, new_tab): left click (new_tab False), middle click or
        Ctrl+left click (new_tab True), Enter/Return when focused (new_tab False).
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, text: str = "", route: Route | None = None, parent: QWidget | None = None):
        """Show text; act as a link when route is given."""
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text)
        self._pressed: Qt.MouseButton | None = None
        self._route: Route | None = None
        self.set_route(route)

    def route(self) -> Route | None:
        """Return the route this label opens, if any."""
        return self._route

    def set_route(self, route: Route | None) -> None:
        """Make the label a link to route, or plain text when None."""
        self._route = route
        linked = route is not None
        self.setForegroundRole(QPalette.ColorRole.Link if linked else QPalette.ColorRole.WindowText)
        self.setCursor(Qt.CursorShape.PointingHandCursor if linked else Qt.CursorShape.ArrowCursor)
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus if linked else Qt.FocusPolicy.NoFocus)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Remember which button went down on the label."""
        self._pressed = event.button()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """Activate the link when the press and release happened on the label."""
        pressed, self._pressed = self._pressed, None
        inside = self.rect().contains(event.position().toPoint())
        if self._route is not None and inside and pressed == event.button():
            ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
            if event.button() == Qt.MouseButton.LeftButton:
                self.link_activated.emit(self._route, ctrl)
            elif event.button() == Qt.MouseButton.MiddleButton:
                self.link_activated.emit(self._route, True)
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter or Return opens the link."""
        if self._route is not None and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
            self.link_activated.emit(self._route, ctrl)
            return
        super().keyPressEvent(event)

    def enterEvent(self, event: QEnterEvent) -> None:
        """Underline the link under the mouse."""
        self._underline(self._route is not None)
        super().enterEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        """Remove the hover underline."""
        self._underline(False)
        super().leaveEvent(event)

    def _underline(self, on: bool) -> None:
        """Set or clear the font's underline."""
        font = self.font()
        font.setUnderline(on)
        self.setFont(font)


class ElidedLinkLabel(LinkLabel):
    """A LinkLabel whose text is elided in the middle to fit; the full text is kept."""

    MIN_CHARS = 12

    def __init__(self, text: str = "", route: Route | None = None, parent: QWidget | None = None):
        """Show text, elided to the width the layout gives."""
        self._full = text
        super().__init__(text, route, parent)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def full_text(self) -> str:
        """Return the text before elision."""
        return self._full

    def set_full_text(self, text: str) -> None:
        """Replace the full text and re-elide."""
        self._full = text
        self._elide()
        self.updateGeometry()

    def sizeHint(self) -> QSize:
        """Prefer the width of the full text."""
        metrics = QFontMetrics(self.font())
        margins = self.contentsMargins()
        width = metrics.horizontalAdvance(self._full) + margins.left() + margins.right() + 2
        return QSize(width, super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        """Allow shrinking to a few characters either side of the ellipsis."""
        metrics = QFontMetrics(self.font())
        return QSize(metrics.horizontalAdvance("0" * self.MIN_CHARS), super().sizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Re-elide for the new width."""
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        """Show the full text elided in the middle to the current width."""
        metrics = QFontMetrics(self.font())
        width = self.contentsRect().width()
        self.setText(metrics.elidedText(self._full, Qt.TextElideMode.ElideMiddle, width))


class CopyButton(QToolButton):
    """A small flat button that copies a text it asks for when clicked."""

    def __init__(self, what: str, parent: QWidget | None = None):
        """Create the button; `what` names the value in its tooltip."""
        super().__init__(parent)
        self._paint_icon()
        self.setAutoRaise(True)
        self.setToolTip(f"Copy {what}")
        self.setAccessibleName(f"Copy {what}")
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self._text = ""
        self.clicked.connect(lambda: copy_to_clipboard(self._text))

    def changeEvent(self, event: QEvent) -> None:
        """Redraw the icon when the palette changes (light/dark switch)."""
        if event.type() == QEvent.Type.PaletteChange:
            self._paint_icon()
        super().changeEvent(event)

    def _paint_icon(self) -> None:
        """Show the copy icon in the palette's button text colour."""
        self.setIcon(action_icon("copy", self.palette()))

    def set_copy_text(self, text: str) -> None:
        """Set what a click copies."""
        self._text = text
