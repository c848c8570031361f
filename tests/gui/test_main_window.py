"""The first main window: title, empty search bar, status bar, Ctrl+L."""

from __future__ import annotations

import os
import subprocess
import sys

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from explorer.services.routes import Route
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.main_window import TITLE, MainWindow


def test_window_opens_with_empty_search_and_status(qtbot: QtBot) -> None:
    """The window shows its title, an empty search bar and the status text."""
    shell = ShellViewModel()
    window = MainWindow(shell)
    qtbot.addWidget(window)
    window.show()
    assert window.windowTitle() == TITLE
    assert window.search_bar.text() == ""
    shell.show_progress("Starting the local devnet…")
    assert window.status_label.text() == "Starting the local devnet…"
    assert window.statusBar().isVisible()


def test_ctrl_l_focuses_search(qtbot: QtBot) -> None:
    """Ctrl+L puts the cursor in the search bar."""
    window = MainWindow(ShellViewModel())
    qtbot.addWidget(window)
    with qtbot.waitActive(window):
        window.show()
        window.activateWindow()
    window.search_bar.setText("123")
    window.tabs.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    window.tabs.setFocus()
    assert not window.search_bar.hasFocus()
    qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert window.search_bar.hasFocus()
    assert window.search_bar.selectedText() == "123"


def test_smoke_test_flag_prints_one_line_and_exits_zero() -> None:
    """`explorer --smoke-test` opens the window with its icon, prints one line and exits 0."""
    done = subprocess.run(
        [sys.executable, "-m", "explorer", "--smoke-test"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.strip().splitlines()) == 1
    assert "opened, icon 16, 32, 48, 64, 128, 256 px" in done.stdout


def test_mouse_back_and_forward_buttons(qtbot: QtBot) -> None:
    """The mouse's back/forward buttons, pressed over any child, move through the history.

    The clicks go to the window as the platform delivers them, at a child's position.
    """
    window = MainWindow(ShellViewModel())
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.navigator.go(Route.parse("block/1"))
    window.navigator.go(Route.parse("block/2"))

    def click_over_page(button: Qt.MouseButton) -> None:
        page = window.tabs.currentWidget()
        where = page.mapTo(window, page.rect().center())
        QTest.mouseClick(window.windowHandle(), button, Qt.KeyboardModifier.NoModifier, where)

    click_over_page(Qt.MouseButton.BackButton)
    assert str(window.navigator.route()) == "block/1"
    click_over_page(Qt.MouseButton.ForwardButton)
    assert str(window.navigator.route()) == "block/2"
    click_over_page(Qt.MouseButton.LeftButton)
    assert str(window.navigator.route()) == "block/2"


def test_a_notice_can_be_closed(qtbot: QtBot) -> None:
    """The app's own notice (a key to get, a start-up fix) closes with ×; it could not before."""
    shell = ShellViewModel()
    window = MainWindow(shell)
    qtbot.addWidget(window)
    window.show()
    shell.show_startup_notices(["Your settings file was damaged: it was moved aside."])
    shell.show_notice("Rootstock Testnet has no API key, so this is the Local devnet.")
    assert window.banner_bar.isVisible()
    assert window.banner_close.isVisible()
    assert window.banner.text().startswith("Rootstock Testnet has no API key")
    qtbot.mouseClick(window.banner_close, Qt.MouseButton.LeftButton)
    assert not window.banner_bar.isVisible()
    assert shell.banner.text == ""
