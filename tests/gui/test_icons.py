"""Icons: every file the code names exists and renders, and the app shows them.

The app icon's PNGs match its SVG, action icons take the palette's colours, and the window, toolbar
and tabs show icons.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QSize
from PySide6.QtGui import QColor, QIcon, QImage, QPalette
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from explorer.chain.bundled import read_bytes
from explorer.services.routes import LOGS, Page, block_route, tx_route
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.icons import (
    ACTION_ICONS,
    APP_ICON_NAME,
    APP_ICON_SIZES,
    APP_ICON_SVG,
    PAGE_ICONS,
    action_icon,
    action_icon_svg,
    app_icon,
    app_icon_png,
    render_svg,
)
from explorer.views.main_window import MainWindow

REPO = Path(__file__).resolve().parents[2]
RESOURCES = REPO / "resources"
DARK_TEXT, DARK_DISABLED = "#e8eaed", "#6b7075"


def dark_palette() -> QPalette:
    """Return a palette with light text on dark, as a dark desktop theme gives."""
    palette = QPalette()
    for role, colour in (
        (QPalette.ColorRole.Window, "#202124"),
        (QPalette.ColorRole.Button, "#2d2e31"),
        (QPalette.ColorRole.WindowText, DARK_TEXT),
        (QPalette.ColorRole.ButtonText, DARK_TEXT),
    ):
        palette.setColor(role, QColor(colour))
    palette.setColor(
        QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor(DARK_DISABLED)
    )
    return palette


def opaque_colours(icon: QIcon, size: int = 24, mode: QIcon.Mode = QIcon.Mode.Normal) -> set[str]:
    """Return the colours of an icon's fully opaque pixels at one size."""
    image = icon.pixmap(QSize(size, size), 1.0, mode).toImage()
    return {
        image.pixelColor(x, y).name()
        for x in range(image.width())
        for y in range(image.height())
        if image.pixelColor(x, y).alpha() == 255
    }


def coverage(image: QImage) -> float:
    """Return the share of an image's pixels that are not fully transparent."""
    painted = sum(
        image.pixelColor(x, y).alpha() > 0
        for x in range(image.width())
        for y in range(image.height())
    )
    return painted / (image.width() * image.height())


@pytest.mark.parametrize("name", ACTION_ICONS)
def test_action_icons_exist_and_render(qapp: QApplication, name: str) -> None:
    """Each named action icon is a valid SVG that paints something, but not a filled square."""
    assert QSvgRenderer(QByteArray(read_bytes(action_icon_svg(name)))).isValid()
    share = coverage(render_svg(read_bytes(action_icon_svg(name)), 24))
    assert 0.05 < share < 0.7, f"{name} covers {share:.0%} of its square"


def test_every_icon_file_is_named_by_the_code() -> None:
    """The page icons are action icons, and no SVG in resources/icons/actions is left unused."""
    assert set(PAGE_ICONS) == set(Page)
    assert set(PAGE_ICONS.values()) <= set(ACTION_ICONS)
    files = {path.stem for path in (RESOURCES / "icons" / "actions").glob("*.svg")}
    assert files == set(ACTION_ICONS)


@pytest.mark.parametrize("size", APP_ICON_SIZES)
def test_app_icon_pngs_are_the_svg_rendered(qapp: QApplication, size: int) -> None:
    """Each PNG has its size and equals a fresh render of the SVG.

    packaging/render_app_icon.py writes them: run it after editing the SVG.
    """
    png = QImage.fromData(read_bytes(app_icon_png(size)))
    assert (png.width(), png.height()) == (size, size)
    assert coverage(png) > 0.5
    fresh = render_svg(read_bytes(APP_ICON_SVG), size).convertToFormat(QImage.Format.Format_ARGB32)
    assert png.convertToFormat(QImage.Format.Format_ARGB32) == fresh


def test_app_icon_has_every_size(qapp: QApplication) -> None:
    """The window icon offers every PNG size, so the window manager never scales far."""
    sizes = app_icon().availableSizes()
    assert [s.width() for s in sizes] == list(APP_ICON_SIZES)
    assert all(s.width() == s.height() for s in sizes)


def test_desktop_entry_names_the_icon_in_the_hicolor_layout() -> None:
    """The desktop entry's icon is installed where the icon theme spec looks.

    packaging/explorer.desktop says Icon=explorer, and resources/icons/hicolor holds that icon
    under the names and sizes the spec looks up.
    """
    entry = (REPO / "packaging" / "explorer.desktop").read_text().splitlines()
    assert f"Icon={APP_ICON_NAME}" in entry
    hicolor = RESOURCES / "icons" / "hicolor"
    for size in APP_ICON_SIZES:
        assert (hicolor / f"{size}x{size}" / "apps" / f"{APP_ICON_NAME}.png").is_file()
    assert (hicolor / "scalable" / "apps" / f"{APP_ICON_NAME}.svg").is_file()


def test_tinted_icon_follows_a_dark_palette(qapp: QApplication) -> None:
    """A tinted action icon's pixels are the palette's text colour.

    Its disabled form is the palette's disabled text colour (light text on a dark window stays
    visible).
    """
    palette = dark_palette()
    for size in (16, 24, 48):
        assert opaque_colours(action_icon("back", palette), size) == {DARK_TEXT}
        assert opaque_colours(action_icon("back", palette), size, QIcon.Mode.Disabled) == {
            DARK_DISABLED
        }
    light = QPalette()
    light.setColor(QPalette.ColorRole.ButtonText, QColor("#101010"))
    assert opaque_colours(action_icon("back", light)) == {"#101010"}
    assert action_icon("back", palette) is action_icon("back", dark_palette())  # cached


def test_toolbar_and_tabs_show_icons_that_follow_the_palette(qtbot: QtBot) -> None:
    """The toolbar's actions and every tab show their icon; a palette change re-tints them."""
    window = MainWindow(ShellViewModel())
    qtbot.addWidget(window)
    window.navigator.go(block_route(7))
    window.navigator.open_tab(tx_route("0x" + "ab" * 32))
    window.navigator.open_tab(LOGS)
    actions = [window.back_action, window.forward_action, window.logs_action]
    assert all(not action.icon().isNull() for action in actions)
    names = [window.tabs.tabBar().tabData(i) for i in range(window.tabs.count())]
    assert names == ["block", "transaction", "logs"]
    window.setPalette(dark_palette())
    for icon in [a.icon() for a in actions] + [
        window.tabs.tabIcon(i) for i in range(window.tabs.count())
    ]:
        assert opaque_colours(icon) == {DARK_TEXT}
