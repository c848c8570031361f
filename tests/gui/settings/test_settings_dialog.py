"""The Settings dialog and the toolbar's network combo, driven as a user would."""

from __future__ import annotations

import dataclasses

import pytest
import qasync
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDialog, QLineEdit
from pytestqt.qtbot import QtBot

from explorer.services.network_forms import FormField
from explorer.services.networks import DEVNET, MAINNET, TESTNET, Network
from explorer.settings import store as keys
from explorer.settings.store import Settings
from explorer.viewmodels.bitcoin_links import BitcoinLinksViewModel
from explorer.viewmodels.network_settings import NetworkSettingsViewModel
from explorer.viewmodels.networks import NetworksViewModel
from explorer.viewmodels.wait_option import CallTimeoutOption
from explorer.views.network_combo import network_combo
from explorer.views.settings_dialog import SettingsDialog
from tests.helpers.elision import cut_texts
from tests.helpers.settings import KEY, choose, custom_form, reread, type_into
from tests.helpers.timing import WAIT


def test_key_field_is_masked_and_saved_on_ok(
    store: QSettings, settings: Settings, dialog: SettingsDialog, qtbot: QtBot
) -> None:
    """The key is typed masked, shown masked, and stored only when OK is pressed."""
    form = dialog.form_panel
    choose(dialog, TESTNET.id)
    type_into(qtbot, form.key_edit, KEY)
    assert form.key_edit.echoMode() == QLineEdit.EchoMode.Password
    assert KEY not in form.key_edit.displayText()
    assert KEY not in form.endpoint_label.text()
    assert KEY[-4:] in form.endpoint_label.text()
    assert settings.api_key(TESTNET.id) == ""
    qtbot.mouseClick(
        dialog.buttons.button(dialog.buttons.StandardButton.Ok), Qt.MouseButton.LeftButton
    )
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert reread(store).api_key(TESTNET.id) == KEY


def test_reveal_toggles_and_resets_on_another_network(dialog: SettingsDialog, qtbot: QtBot) -> None:
    """Show reveals the key, Hide masks it; choosing another network masks it again."""
    form = dialog.form_panel
    choose(dialog, TESTNET.id)
    type_into(qtbot, form.key_edit, KEY)
    qtbot.mouseClick(form.reveal_button, Qt.MouseButton.LeftButton)
    assert form.key_edit.displayText() == KEY
    assert form.reveal_button.text() == "Hide"
    qtbot.mouseClick(form.reveal_button, Qt.MouseButton.LeftButton)
    assert KEY not in form.key_edit.displayText()
    assert form.reveal_button.text() == "Show"
    qtbot.mouseClick(form.reveal_button, Qt.MouseButton.LeftButton)
    choose(dialog, MAINNET.id)
    choose(dialog, TESTNET.id)
    assert form.key_edit.text() == KEY
    assert form.key_edit.echoMode() == QLineEdit.EchoMode.Password


def test_cancel_keeps_what_was_saved(
    settings: Settings, model: NetworksViewModel, qtbot: QtBot
) -> None:
    """Edits and removals are dropped by Cancel."""
    model.save(dataclasses.replace(model.form_for(TESTNET.id), api_key=KEY))
    model.save(custom_form("https://a.example", name="Kept"))
    window = SettingsDialog(NetworkSettingsViewModel(model))
    form = window.form_panel
    qtbot.addWidget(window)
    choose(window, TESTNET.id)
    type_into(qtbot, form.key_edit, "other-key-1234567890")
    choose(window, "custom:Kept")
    qtbot.mouseClick(window.list_panel.remove_button, Qt.MouseButton.LeftButton)
    window.reject()
    assert settings.api_key(TESTNET.id) == KEY
    assert [c.name for c in model.customs()] == ["Kept"]


def test_invalid_custom_url_shows_a_message_and_keeps_the_text(
    dialog: SettingsDialog, qtbot: QtBot
) -> None:
    """OK with a bad URL stays open, says what is wrong under the field, loses nothing."""
    form = dialog.form_panel
    qtbot.mouseClick(dialog.list_panel.add_button, Qt.MouseButton.LeftButton)
    type_into(qtbot, form.name_edit, "My node")
    type_into(qtbot, form.url_edit, "node.example:4444")
    type_into(qtbot, form.chain_edit, "0x1f")
    assert form.errors[FormField.URL].isVisible()
    dialog.accept()
    assert dialog.isVisible()
    assert dialog.result() != QDialog.DialogCode.Accepted
    assert form.url_edit.text() == "node.example:4444"
    assert form.name_edit.text() == "My node"
    assert form.chain_edit.text() == "0x1f"
    assert (
        form.errors[FormField.URL].text()
        == "the endpoint URL must start with https:// and name a host"
    )
    assert form.errors[FormField.URL].textFormat() == Qt.TextFormat.PlainText
    assert not form.errors[FormField.NAME].isVisible()
    assert dialog.model.networks.customs() == []
    type_into(qtbot, form.url_edit, "https://node.example:4444")
    assert not form.errors[FormField.URL].isVisible()
    dialog.accept()
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert [(c.name, c.url, c.chain_id) for c in dialog.model.networks.customs()] == [
        ("My node", "https://node.example:4444", 31)
    ]


def test_http_remote_in_the_dialog_needs_the_checkbox(dialog: SettingsDialog, qtbot: QtBot) -> None:
    """The http:// message shows under the URL and goes once the flag is ticked."""
    form = dialog.form_panel
    qtbot.mouseClick(dialog.list_panel.add_button, Qt.MouseButton.LeftButton)
    type_into(qtbot, form.name_edit, "Plain")
    type_into(qtbot, form.url_edit, "http://rsk.example.org:4444")
    type_into(qtbot, form.chain_edit, "30")
    dialog.accept()
    assert "clear text" in form.errors[FormField.URL].text()
    assert dialog.isVisible()
    form.insecure_check.setChecked(True)
    assert not form.errors[FormField.URL].isVisible()
    dialog.accept()
    assert dialog.model.networks.customs()[0].allow_insecure_http is True


def test_duplicate_names_across_new_drafts_are_caught(dialog: SettingsDialog, qtbot: QtBot) -> None:
    """Two new endpoints with one name: OK shows the error and saves neither."""
    form = dialog.form_panel
    for _ in range(2):
        qtbot.mouseClick(dialog.list_panel.add_button, Qt.MouseButton.LeftButton)
        type_into(qtbot, form.name_edit, "Twin")
        type_into(qtbot, form.url_edit, "https://twin.example")
        type_into(qtbot, form.chain_edit, "31")
    assert form.errors[FormField.NAME].text() == "another network is already called Twin"
    dialog.accept()
    assert dialog.isVisible()
    assert dialog.model.networks.customs() == []


def test_pasting_a_keyed_url_fills_the_key_field(dialog: SettingsDialog, qtbot: QtBot) -> None:
    """Leaving the URL field moves the pasted key into the masked key field."""
    form = dialog.form_panel
    qtbot.mouseClick(dialog.list_panel.add_button, Qt.MouseButton.LeftButton)
    type_into(qtbot, form.url_edit, f"https://rpc.example.org/v2/{KEY}")
    assert form.url_edit.text() == "https://rpc.example.org"
    assert form.key_edit.text() == KEY
    assert form.url_form_combo.currentIndex() == 1
    assert form.url_form_combo.currentText() == "https://rpc.example.org/v2/<KEY>"


@pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing)")  # the list, offscreen
def test_network_combo_lists_and_switches(model: NetworksViewModel, qtbot: QtBot) -> None:
    """The combo lists every network, sets the current one, follows the model."""
    combo = network_combo(model)
    qtbot.addWidget(combo)
    assert [combo.itemText(i) for i in range(combo.count())] == [n.name for n in model.networks]
    assert combo.currentData() == DEVNET.id
    with qtbot.waitSignal(model.current_changed, timeout=WAIT) as changed:
        combo.activated.emit(combo.findData(TESTNET.id))
    assert changed.args == [TESTNET.id]
    assert model.current_id == TESTNET.id
    model.save(custom_form("https://a.example", name="Added"))
    assert combo.itemText(combo.count() - 1) == "Added"
    assert combo.currentData() == TESTNET.id
    model.set_current("custom:Added")
    assert combo.currentData() == "custom:Added"
    assert combo.itemData(combo.findData(MAINNET.id), Qt.ItemDataRole.ToolTipRole) is None
    combo.showPopup()  # where each network connects is read as the list opens
    tip = combo.itemData(combo.findData(MAINNET.id), Qt.ItemDataRole.ToolTipRole)
    combo.hidePopup()
    assert "needs an API key" in tip


@pytest.mark.parametrize("network", [MAINNET, TESTNET, DEVNET])
def test_every_networks_page_reads_whole_in_the_full_dialog(
    qloop: qasync.QEventLoop,
    model: NetworksViewModel,
    settings: Settings,
    qtbot: QtBot,
    network: Network,
) -> None:
    """As the app builds it (Bitcoin links, call timeout): Testnet's key hint was cut below."""
    dialog = SettingsDialog(
        NetworkSettingsViewModel(model, safe=settings),
        bitcoin=BitcoinLinksViewModel(settings, keys.BTC_EXPLORERS),
        call_timeout=CallTimeoutOption(settings),
    )
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.model.select(network.id)
    qtbot.wait(50)
    assert cut_texts(dialog) == []
