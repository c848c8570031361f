"""Keys: a short key pasted at the end of a URL is a key; reports and files are private and clean.

Every file the app writes is 0600 in a 0700 folder, and holds no key the app knows, by value.
"""

from __future__ import annotations

import logging
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from explorer.diagnostics import log as diagnostics
from explorer.diagnostics.crash import CrashReporter
from explorer.saved.seen import FILE_NAME
from explorer.services.network_forms import NetworkForm
from explorer.views.settings_dialog import SettingsDialog
from tests.gui.reliability.checks import files_with
from tests.gui.reliability.conftest import AppFactory, NodeFactory
from tests.gui.reliability.harness import App
from tests.gui.reliability.node import Mode
from tests.helpers.qt import run_in_qloop
from tests.helpers.settings import choose, type_into
from tests.helpers.timing import WAIT
from tests.helpers.widget_texts import every_text

SHORT = "shortKey9"  # nine characters: no pattern takes it for a key
UNUSED = "otherKey7"  # a stored key of a network never opened


@pytest.fixture
def logged(home: Path) -> Iterator[diagnostics.Diagnostics]:
    """Log as the app does (a rotating file, its tail for reports) in the private home."""
    root = logging.getLogger()
    before = list(root.handlers)
    found = diagnostics.setup("INFO", home / "state" / "explorer" / "log" / diagnostics.LOG_NAME)
    yield found
    for handler in root.handlers[:]:
        if handler not in before:
            root.removeHandler(handler)
            handler.close()


def add_short_key_network(app: App, qtbot: QtBot, url: str) -> SettingsDialog:
    """Add a custom network in Settings with the key pasted at the end of its URL; save it."""
    dialog = app.app._settings_dialog()
    assert isinstance(dialog, SettingsDialog)
    qtbot.addWidget(dialog)
    form = dialog.form_panel
    qtbot.mouseClick(dialog.list_panel.add_button, Qt.MouseButton.LeftButton)
    type_into(qtbot, form.name_edit, "Short")
    type_into(qtbot, form.url_edit, f"{url}/{SHORT}")
    type_into(qtbot, form.chain_edit, "31")
    assert form.url_edit.text() == url  # moved over when the field was left, as the hint says
    assert dialog.model.draft.api_key == SHORT
    assert SHORT not in form.key_edit.displayText()  # masked
    assert SHORT not in form.endpoint_label.text()
    dialog.accept()
    return dialog


def modes(root: Path) -> list[str]:
    """Return every file under root not 0600, or whose folder is not 0700."""
    wrong = []
    for path in root.rglob("*"):
        if path.is_file():
            for target, wanted in ((path, 0o600), (path.parent, 0o700)):
                mode = stat.S_IMODE(target.stat().st_mode)
                if mode != wanted:
                    wrong.append(f"{target} is {mode:o}, not {wanted:o}")
    return sorted(set(wrong))


def test_a_short_key_is_moved_redacted_and_kept_out_of_reports_and_files(
    app_on: AppFactory,
    nodes: NodeFactory,
    qtbot: QtBot,
    home: Path,
    logged: diagnostics.Diagnostics,
) -> None:
    """A 9-character key: split off, shown redacted, never in the entry, a report or a file."""
    app = app_on({"Mine": (nodes(Mode.GOOD), 31)})
    node = nodes(Mode.GOOD)
    add_short_key_network(app, qtbot, node.url)
    combo = app.window.network_combo
    combo.activated.emit(combo.findData("custom:Short"))
    qtbot.waitUntil(lambda: app.session.network.name == "Short", timeout=WAIT)
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    assert node.server.requests[0].path == f"/{SHORT}"  # the key still goes where it was
    assert app.window.network_label.text() == f"Short · {node.url}/<key>"
    assert SHORT not in app.window.status_label.text()
    assert [entry for entry in app.settings.custom_networks() if SHORT in entry] == []
    again = app.app._settings_dialog()
    qtbot.addWidget(again)
    choose(again, "custom:Short")
    assert again.form_panel.url_edit.text() == node.url
    assert SHORT not in again.form_panel.endpoint_label.text()
    again.reject()
    other = NetworkForm(name="Other", url="https://other.example", chain_id="31", api_key=UNUSED)
    assert app.app.networks.save(other) == {}  # stored, never used: known all the same
    reporter = CrashReporter(logged, app.window)
    logged.endpoint = app.app.endpoint_text
    try:
        raise RuntimeError(f"a bug that printed {node.url}/{SHORT}, {SHORT} and {UNUSED}")
    except RuntimeError as error:
        reporter.report_exception("An unexpected error occurred", error)
    qtbot.waitUntil(
        lambda: reporter.dialog is not None and reporter.dialog.isVisible(), timeout=WAIT
    )
    assert reporter.dialog is not None
    shown = reporter.dialog.report.toPlainText()
    assert f"Endpoint: Short: {node.url}/<key>" in shown
    assert SHORT not in shown
    assert UNUSED not in shown
    assert "has no API key in it" in reporter.dialog.explanation.text()
    store = app.app.shell.pages.support.store  # what was seen: opened on its first use
    assert store is not None
    run_in_qloop(qtbot, store.find(31, "0x" + "00" * 32, ""))
    reports = list(logged.directory.glob(f"{diagnostics.REPORT_PREFIX}*.txt"))
    assert len(reports) == 1
    assert [text for text in every_text() if SHORT in text] == []
    reporter.dialog.close()
    app.close()
    assert files_with(SHORT, home, app.settings_path) == []
    assert files_with(UNUSED, home, app.settings_path) == []
    assert modes(home) == []
    written = {path.name for path in home.rglob("*") if path.is_file()}
    assert written >= {diagnostics.LOG_NAME, reports[0].name, "explorer.conf", FILE_NAME}
