"""The Settings form holds still while the user types: error lines keep their space."""

from __future__ import annotations

import qasync
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from explorer.services.network_forms import FormField
from explorer.views.settings_dialog import SettingsDialog
from tests.helpers.settings import type_into


def field_tops(dialog: SettingsDialog) -> list[int]:
    """Return where each text field of the form sits in the dialog."""
    form = dialog.form_panel
    edits = (form.name_edit, form.url_edit, form.key_edit, form.chain_edit)
    return [edit.mapTo(dialog, QPoint(0, 0)).y() for edit in edits]


def test_fields_do_not_move_as_error_lines_come_and_go(
    dialog: SettingsDialog, qtbot: QtBot
) -> None:
    """Typing a URL over its error, a long error, and clearing the name: nothing moves."""
    form = dialog.form_panel
    qtbot.mouseClick(dialog.list_panel.add_button, Qt.MouseButton.LeftButton)
    type_into(qtbot, form.name_edit, "Mine")
    type_into(qtbot, form.url_edit, "x")  # left with a bad URL: its error shows from now on
    type_into(qtbot, form.chain_edit, "31")
    qtbot.wait(50)
    tops = [field_tops(dialog)]
    shown: set[bool] = set()
    form.url_edit.setFocus()
    form.url_edit.selectAll()
    for key in "http://rsk.example.org:4444":  # a long error (clear text) on the way
        qtbot.keyClicks(form.url_edit, key)
        qtbot.wait(5)
        tops.append(field_tops(dialog))
        shown.add(form.errors[FormField.URL].isVisible())
    form.insecure_check.setChecked(True)  # the error goes
    qtbot.wait(5)
    tops.append(field_tops(dialog))
    shown.add(form.errors[FormField.URL].isVisible())
    type_into(qtbot, form.name_edit, "")  # the name's error comes
    qtbot.wait(5)
    tops.append(field_tops(dialog))
    assert form.errors[FormField.NAME].isVisible()
    assert shown == {True, False}  # errors came and went while typing
    assert all(top == tops[0] for top in tops), tops
    long_error = form.errors[FormField.URL]
    form.insecure_check.setChecked(False)
    assert "clear text" in long_error.text()
    assert long_error.height() == long_error.fontMetrics().lineSpacing()


def test_ticking_the_public_node_clears_the_keyless_test_and_holds_the_button(
    qloop: qasync.QEventLoop, dialog: SettingsDialog, qtbot: QtBot
) -> None:
    """Testnet without a key: the test says so in red; ticking the public node clears that.

    The Test connection button stays where it is while the key hint goes (it jumped up).
    """
    form = dialog.form_panel
    dialog.model.select("testnet")
    qtbot.wait(5)
    top = form.test_button.mapTo(dialog, QPoint(0, 0)).y()
    qtbot.mouseClick(form.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "needs an API key" in form.test_result.text(), timeout=5_000)
    assert form.key_hint.isVisible()
    qtbot.mouseClick(form.public_check, Qt.MouseButton.LeftButton)
    qtbot.wait(5)
    assert form.public_check.isChecked()
    assert form.test_result.text() == ""
    assert not form.key_hint.isVisible()
    assert form.test_button.mapTo(dialog, QPoint(0, 0)).y() == top
    assert "public-node.testnet.rsk.co" in form.endpoint_label.text()
