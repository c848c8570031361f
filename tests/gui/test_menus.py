"""The menu bar: File > Quit (Ctrl+Q), View (theme, panels), Go, Help (guide, shortcuts, About)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QToolButton
from pytestqt.qtbot import QtBot

from explorer.app.application import Application
from explorer.presentation.document import Tone
from explorer.presentation.guide import SEARCH_EXAMPLES
from explorer.services.routes import HOME
from explorer.settings import store as keys
from explorer.settings.store import Settings
from explorer.views.help_dialog import GuideDialog, ShortcutsDialog
from explorer.views.main_window import MainWindow
from explorer.views.theme import is_dark
from tests.helpers.qt import run_in_qloop
from tests.helpers.settings import private_home


@pytest.fixture
def app(
    qtbot: QtBot, qloop: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Application]:
    """Yield the whole app in a private home, shown, connected to nothing."""
    qt_app = QApplication.instance()
    assert isinstance(qt_app, QApplication)
    palette = qt_app.palette()
    with private_home(tmp_path / "home", monkeypatch):
        settings, _ = Settings.for_app()
        made = Application(settings, use_devnet=False)
        made.window.show()
        qtbot.waitExposed(made.window)
        try:
            yield made
        finally:
            qt_app.setPalette(palette)
            made.window.close()
            run_in_qloop(qtbot, made.aclose())  # its saved data's timer and files go with it


def activate(qtbot: QtBot, window: MainWindow) -> None:
    """Make the window the active one, as a user's is, so its shortcuts answer."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5_000)


def test_ctrl_q_quits(qtbot: QtBot, app: Application) -> None:
    """File > Quit is Ctrl+Q and closes the window (the app ends with it)."""
    assert app.window.menus.quit.shortcut().toString() == "Ctrl+Q"
    assert app.window.menus.quit in app.window.menus.file.actions()
    activate(qtbot, app.window)
    qtbot.keyClick(app.window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not app.window.isVisible(), timeout=5_000)


def test_view_theme_switches_and_is_remembered(qtbot: QtBot, app: Application) -> None:
    """View > Theme > Dark colours the app dark at once and the choice is stored."""
    app.window.menus.themes["dark"].trigger()
    assert is_dark(QApplication.palette())
    assert app.window.menus.themes["dark"].isChecked()
    assert app.settings.get(keys.THEME) == "dark"
    app.window.menus.themes["light"].trigger()
    assert not is_dark(QApplication.palette())
    assert app.settings.get(keys.THEME) == "light"


def test_view_shows_the_bookmarks_panel(qtbot: QtBot, app: Application) -> None:
    toggle = next(a for a in app.window.menus.view.actions() if a.text() == "Bookmarks")
    assert not app.bookmarks_dock.isVisible()
    toggle.trigger()
    assert app.bookmarks_dock.isVisible()


def test_help_opens_the_guide_and_every_shortcut(qtbot: QtBot, app: Application) -> None:
    """The guide is there (F1), and the shortcuts table lists the menus' keys and the others."""
    app.window.help.guide.trigger()
    guides = app.window.findChildren(GuideDialog)
    assert guides
    assert "Try:" in guides[-1].text.toPlainText()
    assert "alice.rsk" in guides[-1].text.toPlainText()
    dialog = app.window.show_shortcuts()
    assert isinstance(dialog, ShortcutsDialog)
    table = dialog.table
    cells = [(table.item(r, 1), table.item(r, 0)) for r in range(table.rowCount())]
    rows = {what.text(): keys.text() for what, keys in cells if what and keys}
    first = table.item(0, 1)
    assert first is not None
    assert first.text() == "New tab"  # in the menus' order, File first
    assert rows["Quit"] == "Ctrl+Q"
    assert rows["New tab"] == "Ctrl+T"
    assert rows["Settings"] == "Ctrl+,"
    assert rows["Bookmarks"] == "Ctrl+Shift+B"
    assert rows["Back"] == "Alt+Left"
    assert "Open a link in a new tab" in rows


def test_every_toolbar_button_is_named_and_explained(app: Application) -> None:
    """Each button has an accessible name, and its text beside the icon or a tooltip."""
    buttons = [
        app.window.toolbar.widgetForAction(action) for action in app.window.toolbar.actions()
    ]
    named = [b for b in buttons if isinstance(b, QToolButton)]
    assert len(named) >= 7
    for button in named:
        assert button.accessibleName(), button.text()
        shows_text = button.toolButtonStyle() is Qt.ToolButtonStyle.ToolButtonTextBesideIcon
        assert shows_text or len(button.toolTip()) > len(button.text()), button.text()
    logs = next(b for b in named if b.accessibleName() == "Logs")
    assert logs.toolButtonStyle() is Qt.ToolButtonStyle.ToolButtonTextBesideIcon


def test_the_guides_search_examples_each_open_a_page(qtbot: QtBot, window: MainWindow) -> None:
    """Each search the user guide suggests, typed in, opens a page or a tool (no error)."""
    for example in SEARCH_EXAMPLES:
        window.navigator.go(HOME)
        window.search_bar.setText(example)  # typed, its recent searches would pop up
        qtbot.keyClick(window.search_bar, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: window.navigator.route() != HOME, timeout=10_000)
        said, tone = window.search.notice
        assert not (said and tone is Tone.BAD), (example, said)
