"""Icons from the bundled resources: the app icon, and action icons tinted with the palette."""

from __future__ import annotations

import functools

import shiboken6
from PySide6.QtCore import QByteArray, QEvent, QObject, Qt
from PySide6.QtGui import QAction, QColor, QIcon, QImage, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QTabWidget, QWidget

from explorer.chain.bundled import read_bytes
from explorer.services.routes import Page

# Action icons are monochrome SVGs rendered with QSvgRenderer and filled with a palette colour,
# so they read in light and dark mode alike; PaletteIcons re-tints them when the palette changes.
APP_ICON_NAME = "explorer"  # the desktop entry's Icon= and the hicolor file names
APP_ICON_SIZES = (16, 32, 48, 64, 128, 256)
APP_ICON_SVG = f"icons/hicolor/scalable/apps/{APP_ICON_NAME}.svg"
ACTION_ICONS = (
    *("back", "forward", "home", "logs", "settings", "bookmark", "search", "copy"),
    *("block", "transaction", "address", "node", "tools", "broadcast", "bridge"),
    *("watchlist", "star", "starred"),
)
PAGE_ICONS: dict[Page, str] = {
    Page.HOME: "home",
    Page.BLOCK: "block",
    Page.TX: "transaction",
    Page.ADDRESS: "address",
    Page.LOGS: "logs",
    Page.NODE: "node",
    Page.TOOL: "tools",
    Page.BROADCAST: "broadcast",
    Page.WATCHLIST: "watchlist",
    Page.BRIDGE: "bridge",
    Page.PEGIN: "bridge",
}

# Toolbar (24), small (16) and in-between sizes some styles use, and each at twice the scale.
RENDER_SIZES = (16, 20, 22, 24, 32, 40, 44, 48)
ButtonText, WindowText = QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText


def app_icon_png(size: int) -> str:
    """Return the resource path of the app icon PNG of one size (hicolor layout)."""
    return f"icons/hicolor/{size}x{size}/apps/{APP_ICON_NAME}.png"


def action_icon_svg(name: str) -> str:
    """Return the resource path of a monochrome action icon."""
    return f"icons/actions/{name}.svg"


def svg_renderer(data: bytes) -> QSvgRenderer:
    """Parse SVG data; ValueError when it is not a valid SVG image."""
    renderer = QSvgRenderer(QByteArray(data))
    if not renderer.isValid():
        raise ValueError("not a valid SVG image")
    return renderer


def render_svg(data: bytes | QSvgRenderer, size: int) -> QImage:
    """Render SVG (data, or parsed) into a transparent size×size image."""
    renderer = data if isinstance(data, QSvgRenderer) else svg_renderer(data)
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    return image


@functools.cache
def app_icon() -> QIcon:
    """Return the application icon with its PNG sizes (the window's and the desktop's)."""
    icon = QIcon()
    for size in APP_ICON_SIZES:
        pixmap = QPixmap()
        if pixmap.loadFromData(read_bytes(app_icon_png(size)), "PNG"):
            icon.addPixmap(pixmap)
    return icon


@functools.cache
def _parsed(name: str) -> QSvgRenderer:
    """Return an action icon's SVG, parsed once for all its sizes."""
    return svg_renderer(read_bytes(action_icon_svg(name)))


@functools.cache
def _shape(name: str, size: int) -> QImage:
    """Return an action icon rendered at one size (its colour is replaced when tinted)."""
    return render_svg(_parsed(name), size)


def _tinted(shape: QImage, rgba: int) -> QPixmap:
    """Return the shape filled with one colour, keeping its antialiased edges."""
    image = shape.copy()
    painter = QPainter(image)
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceIn)
    painter.fillRect(image.rect(), QColor.fromRgba(rgba))
    painter.end()
    return QPixmap.fromImage(image)


@functools.lru_cache(maxsize=128)
def _action_icon(name: str, normal: int, disabled: int) -> QIcon:
    """Build an action icon once per name and pair of colours."""
    icon = QIcon()
    for size in RENDER_SIZES:
        shape = _shape(name, size)
        icon.addPixmap(_tinted(shape, normal), QIcon.Mode.Normal)
        icon.addPixmap(_tinted(shape, disabled), QIcon.Mode.Disabled)
    return icon


def action_icon(name: str, palette: QPalette, role: QPalette.ColorRole = ButtonText) -> QIcon:
    """Return a monochrome icon in the palette's colour for role (greyed when disabled)."""
    normal = palette.color(QPalette.ColorGroup.Normal, role).rgba()
    return _action_icon(name, normal, palette.color(QPalette.ColorGroup.Disabled, role).rgba())


class PaletteIcons(QObject):
    """Keeps the named icons of a widget's actions and tabs in its palette's colours."""

    def __init__(self, widget: QWidget) -> None:
        """Follow widget's palette changes."""
        super().__init__(widget)
        self._widget = widget
        self._actions: dict[QAction, str] = {}
        self._tab_widgets: list[QTabWidget] = []
        widget.installEventFilter(self)

    def set_icon(self, action: QAction, name: str) -> None:
        """Give an action a named icon (button text colour) and keep it tinted."""
        self._actions[action] = name
        action.setIcon(action_icon(name, self._widget.palette()))

    def set_tab_icon(self, tabs: QTabWidget, index: int, name: str) -> None:
        """Give a tab a named icon (window text colour) and keep it tinted."""
        if tabs not in self._tab_widgets:
            self._tab_widgets.append(tabs)
        tabs.tabBar().setTabData(index, name)
        tabs.setTabIcon(index, action_icon(name, self._widget.palette(), WindowText))

    def refresh(self) -> None:
        """Re-tint every icon with the widget's current palette."""
        palette = self._widget.palette()
        for action, name in list(self._actions.items()):
            if shiboken6.isValid(action):
                action.setIcon(action_icon(name, palette))
            else:
                del self._actions[action]
        self._tab_widgets = [tabs for tabs in self._tab_widgets if shiboken6.isValid(tabs)]
        for tabs in self._tab_widgets:
            for index in range(tabs.count()):
                name = tabs.tabBar().tabData(index)
                if isinstance(name, str):
                    tabs.setTabIcon(index, action_icon(name, palette, WindowText))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Re-tint when the followed widget's palette changes."""
        if watched is self._widget and event.type() == QEvent.Type.PaletteChange:
            self.refresh()
        return super().eventFilter(watched, event)


def palette_icons(widget: QWidget) -> PaletteIcons:
    """Return the widget's PaletteIcons, made on first use (one per widget)."""
    found = widget.findChild(PaletteIcons, options=Qt.FindChildOption.FindDirectChildrenOnly)
    return found if isinstance(found, PaletteIcons) else PaletteIcons(widget)
