"""The network view models: what is stored, what opens at start, what a draft shows."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from explorer.services.endpoints import EndpointBook
from explorer.services.network_forms import FormField, parse_chain_id
from explorer.services.networks import DEVNET, GET_A_KEY, MAINNET, TESTNET, key_needed
from explorer.settings.store import USE_PUBLIC_NODE, Settings
from explorer.viewmodels.network_settings import NetworkSettingsViewModel
from explorer.viewmodels.networks import NetworksViewModel
from tests.helpers.settings import KEY, custom_form, reread
from tests.helpers.timing import WAIT


def test_nothing_configured_opens_the_devnet_without_a_key_banner(
    model: NetworksViewModel,
) -> None:
    """Fresh settings: devnet is current, and nothing nags about a key it does not need."""
    assert [n.name for n in model.networks] == [
        "Rootstock Mainnet",
        "Rootstock Testnet",
        "Local devnet",
    ]
    assert model.current_id == DEVNET.id
    assert model.startup() == (DEVNET, "")
    assert model.endpoint_for(MAINNET) is None
    assert model.unavailable_reason(MAINNET) == key_needed(MAINNET.name)


def test_hosted_network_without_key_falls_back_to_devnet_at_start(
    model: NetworksViewModel,
) -> None:
    """A stored hosted network that has no key opens the devnet, saying why."""
    model.set_current(TESTNET.id)
    network, info = model.startup()
    assert network is DEVNET
    assert info.startswith("Rootstock Testnet has no API key")
    model.save(dataclasses.replace(model.form_for(TESTNET.id), use_public_node=True))
    assert model.startup() == (TESTNET, "")
    endpoint = model.endpoint_for(TESTNET)
    assert endpoint is not None
    assert endpoint.url == "https://public-node.testnet.rsk.co"


def test_a_broken_custom_endpoint_falls_back_to_devnet_at_start(settings: Settings) -> None:
    """A stored custom endpoint that no longer validates opens the devnet and says why."""
    entry = '{"name": "Gone", "url": "ftp://x", "chain_id": 31, "allow_insecure_http": false}'
    settings.set_custom_networks([entry, "not json"])
    settings.set_current_network("custom:Gone")
    model = NetworksViewModel(settings)
    assert [c.name for c in model.customs()] == ["Gone"]
    network, info = model.startup()
    assert network is DEVNET
    assert info.startswith(
        "Gone cannot be used, so this is the Local devnet: the endpoint URL must start with https://"
    )


def test_the_old_global_public_node_choice_still_counts(settings: Settings) -> None:
    """network/use_public_node set by an earlier version is each hosted network's default."""
    settings.set(USE_PUBLIC_NODE, True)
    settings.set_current_network(MAINNET.id)
    model = NetworksViewModel(settings)
    assert model.form_for(TESTNET.id).use_public_node is True
    assert model.startup() == (MAINNET, "")
    settings.set_use_public_node(MAINNET.id, False)
    assert model.startup()[0] is DEVNET


def test_key_and_url_form_are_stored_and_persist(
    store: QSettings, model: NetworksViewModel
) -> None:
    """The key goes into QSettings; /v2/<KEY> is chosen per network; redacted hides the key."""
    errors = model.save(dataclasses.replace(model.form_for(MAINNET.id), api_key=KEY, v2=True))
    assert errors == {}
    again = NetworksViewModel(reread(store))
    endpoint = again.endpoint_for(MAINNET)
    assert endpoint is not None
    assert endpoint.url == f"https://rpc.mainnet.rootstock.io/v2/{KEY}"
    assert KEY not in endpoint.redacted
    assert endpoint.redacted.endswith(KEY[-4:])
    assert again.form_for(MAINNET.id).v2 is True


def test_bad_key_characters_are_refused_without_echoing_the_key(
    settings: Settings, model: NetworksViewModel
) -> None:
    """A key with a space or slash is an error that does not repeat the key."""
    errors = model.save(dataclasses.replace(model.form_for(TESTNET.id), api_key="abc/def ghi"))
    assert set(errors) == {FormField.API_KEY}
    assert "abc" not in errors[FormField.API_KEY]
    assert settings.api_key(TESTNET.id) == ""


@pytest.mark.parametrize("text", ["0", "-3", "abc", "3.5", "", "0x0", "३१"])
def test_chain_id_must_be_a_positive_whole_number(model: NetworksViewModel, text: str) -> None:
    """Zero, negatives, fractions, words and non-ASCII digits are refused."""
    errors = model.validate(custom_form("https://node.example", chain_id=text))
    assert errors == {FormField.CHAIN_ID: "the chain id must be a positive whole number, e.g. 31"}


def test_chain_id_in_hex_or_decimal() -> None:
    """31 and 0x1f are the same chain id."""
    assert parse_chain_id(" 31 ") == parse_chain_id("0x1F") == 31


def test_names_must_be_unique_and_present(model: NetworksViewModel) -> None:
    """A name already used (any case) or empty is refused; nothing is lost."""
    assert model.save(custom_form("https://a.example", name="Node A")) == {}
    for name, message in [
        ("node a", "another network is already called node a"),
        ("rootstock testnet", "another network is already called rootstock testnet"),
        ("  ", "give the endpoint a name"),
    ]:
        form = custom_form("https://b.example", name=name)
        assert model.save(form) == {FormField.NAME: message}
    assert [c.name for c in model.customs()] == ["Node A"]


def test_http_to_a_remote_host_needs_the_explicit_flag(model: NetworksViewModel) -> None:
    """http:// to another machine is refused unless allowed; loopback http is fine."""
    form = custom_form("http://rsk.example.org:4444")
    assert "allow insecure http" in model.validate(form)[FormField.URL]
    assert model.validate(custom_form("http://127.0.0.1:4444")) == {}
    assert model.save(dataclasses.replace(form, allow_insecure_http=True)) == {}
    assert model.customs()[0].allow_insecure_http is True


def test_key_pasted_in_the_url_is_split_off(model: NetworksViewModel) -> None:
    """…/v2/<KEY> becomes the base URL, the key and the v2 form; a short segment is a key too.

    A segment of characters no key may hold is refused, rather than kept in the saved URL.
    """
    assert model.save(custom_form(f"https://rpc.example.org/v2/{KEY}")) == {}
    form = model.form_for("custom:Mine")
    assert (form.url, form.api_key, form.v2) == ("https://rpc.example.org", KEY, True)
    assert model.save(custom_form("https://rpc.example.org/short7", name="Short")) == {}
    short = model.form_for("custom:Short")
    assert (short.url, short.api_key, short.v2) == ("https://rpc.example.org", "short7", False)
    network = model.network("custom:Short")
    assert network is not None
    endpoint = model.endpoint_for(network)
    assert endpoint is not None
    assert endpoint.url == "https://rpc.example.org/short7"  # what is sent is what was pasted
    assert "short7" not in endpoint.redacted
    errors = model.save(custom_form("https://rpc.example.org/a%20b", name="Odd"))
    assert list(errors) == [FormField.URL]
    assert model.network("custom:Odd") is None


def test_rename_and_remove_follow_the_current_network(
    settings: Settings, model: NetworksViewModel, qtbot: QtBot
) -> None:
    """Renaming the current custom keeps it current (with its key); removing it falls back."""
    model.save(custom_form("https://a.example", name="Old", api_key=KEY))
    model.set_current("custom:Old")
    with qtbot.waitSignal(model.current_changed, timeout=WAIT) as changed:
        model.save(dataclasses.replace(model.form_for("custom:Old"), name="New"))
    assert changed.args == ["custom:New"]
    assert settings.api_key("custom:New") == KEY
    assert settings.api_key("custom:Old") == ""
    with qtbot.waitSignal(model.current_changed, timeout=WAIT) as changed:
        model.remove("custom:New")
    assert changed.args == [DEVNET.id]
    assert model.customs() == []
    assert settings.api_key("custom:New") == ""


def test_custom_testnet_endpoint_keeps_currency_and_rns(model: NetworksViewModel) -> None:
    """A custom endpoint on chain 31 is a testnet: tRBTC and the testnet RNS registry."""
    model.save(custom_form("http://localhost:4444", name="Local rskj"))
    network = model.network("custom:Local rskj")
    assert network is not None
    assert (network.currency, network.rns_registry) == ("tRBTC", TESTNET.rns_registry)


def test_settings_model_lays_out_each_kind_and_follows_add_and_remove(
    model: NetworksViewModel, qtbot: QtBot
) -> None:
    """Hosted, devnet and custom drafts show their own fields; Remove shows the neighbour."""
    model.save(custom_form("https://a.example", name="Kept"))
    editor = NetworkSettingsViewModel(model)
    assert editor.selected_id == DEVNET.id
    assert editor.layout.fields == frozenset()
    editor.select(TESTNET.id)
    assert editor.layout.fields == {
        FormField.API_KEY,
        FormField.URL_FORM,
        FormField.PUBLIC_NODE,
    }
    assert editor.layout.key_hint == GET_A_KEY
    assert not editor.layout.removable
    with qtbot.waitSignal(editor.drafts_changed, timeout=WAIT):
        editor.add_custom()
    assert [e.title for e in editor.drafts][-2:] == ["Kept", "New endpoint"]
    assert editor.selected_id == "new:1"
    assert FormField.PUBLIC_NODE not in editor.layout.fields
    editor.edit(FormField.NAME, "Fresh")
    assert editor.drafts[-1].title == "Fresh"
    assert editor.layout.title == "Fresh"
    editor.remove_shown()
    assert editor.selected_id == "custom:Kept"
    editor.remove_shown()
    assert editor.selected_id == DEVNET.id
    assert [e.draft_id for e in editor.drafts] == [
        MAINNET.id,
        TESTNET.id,
        DEVNET.id,
    ]
    assert [c.name for c in model.customs()] == ["Kept"]
    assert editor.accept() is True
    assert model.customs() == []


def test_connecting_builds_no_settings_form(
    model: NetworksViewModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Start-up and the network switch read the stored settings, not the dialog's form."""
    assert model.save(custom_form("http://127.0.0.1:4444", api_key=KEY)) == {}
    model.set_current("custom:Mine")
    monkeypatch.setattr(EndpointBook, "form_for", None)
    network, _ = model.startup()
    assert network.id == "custom:Mine"
    endpoint = model.endpoint_for(network)
    assert endpoint is not None
    assert endpoint.api_key == KEY
    assert [n.id for n, _ in model.reachable()] == ["custom:Mine"]
    assert "needs an API key" in model.unavailable_reason(TESTNET)
    assert model.where(network) == endpoint.redacted
