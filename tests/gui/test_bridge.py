"""The peg's pages in the window on the devnet: the Bridge, peg-ins, peg-outs, Bitcoin links."""

from __future__ import annotations

import re
from typing import Any

import pytest
from PySide6.QtCore import QObject, QSettings, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from pytestqt.qtbot import QtBot

from explorer.chain.checksum import to_checksum_address
from explorer.chain.known import BRIDGE
from explorer.presentation.document import Document
from explorer.services.routes import BRIDGE_PAGE, Page, Route, address_route, pegin_route, tx_route
from explorer.settings import store as keys
from explorer.settings.store import Settings
from explorer.viewmodels.bitcoin_links import BitcoinLinksViewModel
from explorer.viewmodels.page import PageState
from explorer.viewmodels.peg_page import PegPageViewModel
from explorer.views.main_window import MainWindow
from explorer.views.page_view import PageView
from explorer.views.widgets.bitcoin import BitcoinValue, set_bitcoin_links
from tests.helpers.devnet import PROFILES
from tests.helpers.gui import field_text, wait_loaded


def open_route(qtbot: QtBot, window: MainWindow, route: Route) -> PageView:
    """Navigate the current tab and wait until the page and its later stages are loaded."""
    window.navigator.go(route)
    return wait_loaded(qtbot, window, timeout=60_000)


def value(document: Document | None, label: str) -> str:
    """Return the text of the first field with label in a document."""
    assert document is not None
    for section in document.sections:
        for field in section.fields:
            if field.label == label:
                return field.text
    raise KeyError(label)


def peg(manifest: dict[str, Any]) -> dict[str, Any]:
    """Return the peg's facts of the seeded history."""
    facts = manifest["bridge"]
    assert facts, "the seeded history has no peg"
    return dict(facts)


def test_bridge_page_reads_the_bridge(qtbot: QtBot, window: MainWindow) -> None:
    page = open_route(qtbot, window, BRIDGE_PAGE)
    assert isinstance(page.model, PegPageViewModel)
    assert page.model.state is PageState.LOADED
    document = page.model.document
    assert value(document, "Federation address").startswith("2N")  # testnet P2SH
    assert value(document, "Signing") == "2 of 3 federators sign each peg-out"
    assert value(document, "Queued requests") == "1"
    assert value(document, "Next peg-out creation").startswith("block ")
    assert value(document, "Retiring federation") == "none"
    assert "BTC" in value(document, "Minimum peg-in")
    assert value(document, "Bridge's Bitcoin tip").startswith("block 2,800,")
    assert "not on this network" not in str(document.to_text() if document else "")
    text = document.to_text() if document else ""
    # The chain's coin by its name here (tRBTC), BTC where it is Bitcoin: never a bare RBTC.
    assert re.findall(r"(?<![t\w])RBTC", text) == []
    assert "tRBTC locked in the peg" in text


def test_the_bridges_address_page_is_the_bridge_page(qtbot: QtBot, window: MainWindow) -> None:
    page = open_route(qtbot, window, address_route(BRIDGE))
    assert isinstance(page.model, PegPageViewModel)
    assert page.model.document is not None
    assert page.model.document.title.startswith("The Bridge")


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_pegin_accepted(qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]) -> None:
    facts = peg(devnet_manifest)
    page = open_route(qtbot, window, pegin_route(facts["pegin_accepted"]))
    document = page.model.document
    assert document is not None
    assert document.headline.text.startswith("ACCEPTED — 1.00000000 BTC credited")
    receiver = to_checksum_address(devnet_manifest["accounts"][1], 31)  # users[0]
    assert value(document, "Receiver") == receiver
    assert value(document, "Protocol version").startswith("0 (legacy")
    assert value(document, "Registration") == "a federator (registerBtcTransaction)"
    assert value(document, "Registered in block") == f"{facts['pegin_accepted_block']:,}"
    assert field_text(page, "Registering RSK transaction")


def test_pegin_refused_with_a_refund_follows_the_refund(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    facts = peg(devnet_manifest)
    page = open_route(qtbot, window, pegin_route(facts["pegin_refunded"]))
    document = page.model.document
    assert document is not None
    assert document.headline.text.startswith("REFUSED, REFUNDED")
    assert "multisig sender (reason 2)" in value(document, "Refused because")
    assert value(document, "Refund amount").startswith("0.20000000 BTC")
    titles = [section.title for section in document.sections]
    assert "Release on Bitcoin" in titles  # the refund was followed to its release
    assert len(value(document, "Bitcoin txid").split()[0]) == 64


def test_pegin_refused_without_a_refund(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    """Not marked as processed (RSKIP551): found by searching the recent blocks."""
    facts = peg(devnet_manifest)
    page = open_route(qtbot, window, pegin_route(facts["pegin_unrefundable"]))
    document = page.model.document
    assert document is not None
    assert document.headline.text.startswith("REFUSED, NOT REFUNDED")
    assert "below the minimum peg-in" in value(document, "Refused because")
    assert "too little to refund" in value(document, "No refund because")
    assert value(document, "Registered in block") == f"{facts['pegin_unrefundable_block']:,}"


def test_pegin_not_processed_says_what_that_means(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    facts = peg(devnet_manifest)
    page = open_route(qtbot, window, pegin_route(facts["pegin_unknown"]))
    document = page.model.document
    assert document is not None
    assert document.headline.text == "NOT REGISTERED BY THE BRIDGE"
    assert value(document, "Bridge's Bitcoin tip").startswith("block 2,800,")
    assert value(document, "Needs").startswith("10 Bitcoin confirmations")
    assert "none" in value(document, "Refusals searched")
    words = " ".join(
        [field.text for section in document.sections for field in section.fields]
        + [section.note for section in document.sections]
    )
    for jargon in ("RSKIP", "derivation hash"):  # words a user cannot act on
        assert jargon not in words


@pytest.mark.parametrize("prefix", ["", "0x"])
def test_searching_a_processed_bitcoin_txid_opens_its_pegin(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any], prefix: str
) -> None:
    txid = peg(devnet_manifest)["pegin_accepted_v1"]
    window.search_bar.setText(prefix + txid)
    window.search_bar.returnPressed.emit()
    qtbot.waitUntil(
        lambda: window.navigator.route().page is Page.PEGIN,
        timeout=20_000,
    )
    page = wait_loaded(qtbot, window)
    assert value(page.model.document, "Protocol version").startswith("1 (OP_RETURN")


def pegout_page(qtbot: QtBot, window: MainWindow, tx_hash: str) -> Document:
    """Open a peg-out's transaction page and wait until its stages are found."""
    page = open_route(qtbot, window, tx_route(tx_hash))
    qtbot.waitUntil(lambda: not page.model.busy, timeout=60_000)
    assert page.model.document is not None
    return page.model.document


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_pegout_delivered_has_its_real_bitcoin_txid_and_fee(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    facts = peg(devnet_manifest)
    document = pegout_page(qtbot, window, facts["pegout_batch"][0])
    txid = facts["pegout_btc_txid"]
    assert value(document, "Stage") == f"SENT TO BITCOIN as {txid}"
    assert value(document, "Requested") == "0.01000000 BTC"
    assert value(document, "Requests in it") == "3"
    assert value(document, "Batched in block") == f"{facts['pegout_batch_block']:,}"
    assert value(document, "Confirmed in block") == f"{facts['pegout_confirmed_block']:,}"
    unsigned = value(document, "Bitcoin txid (unsigned)").split()[0]
    assert unsigned != txid  # the signed transaction's txid is not the batch's
    received = value(document, "Received").split()[0]
    fee = value(document, "Peg-out fee")
    assert float(received) + float(fee.split()[0]) == pytest.approx(0.01)
    assert "requested 0.01000000 BTC less received" in fee
    assert "sat/vB" in value(document, "Bitcoin fee")


@pytest.mark.parametrize(
    ("key", "stage"),
    [
        ("pegout_signing", "CONFIRMED — waiting for the federators' signatures"),
        ("pegout_confirming", "IN A BATCH — waiting for confirmations"),
        ("pegout_queued", "QUEUED — waiting for the next batched peg-out"),
        ("pegout_rejected", "REFUSED, REFUNDED — 0.001 tRBTC came back to the sender"),
    ],
)
def test_pegout_at_each_stage(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any], key: str, stage: str
) -> None:
    document = pegout_page(qtbot, window, peg(devnet_manifest)[key])
    assert value(document, "Stage").startswith(stage)
    if key == "pegout_rejected":
        assert "below the minimum peg-out" in value(document, "Refused because")
        assert value(document, "Refund").startswith("0.001 tRBTC came back")
    if key == "pegout_queued":
        assert value(document, "Next peg-out creation").startswith("block ")
    if key == "pegout_signing":
        titles = [section.title for section in document.sections]
        assert "Release on Bitcoin" not in titles


class UrlCatcher(QObject):
    """Receives the URLs the desktop would open (QDesktopServices' handler)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        """Remember a URL."""
        self.urls.append(url.toString())


def test_bitcoin_txid_opens_in_the_bitcoin_explorer(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any], tmp_path: Any
) -> None:
    store = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings = Settings(store)
    links = BitcoinLinksViewModel(settings, keys.BTC_EXPLORERS)
    set_bitcoin_links(links.url)
    catcher = UrlCatcher()
    QDesktopServices.setUrlHandler("https", catcher, "open")  # type: ignore[arg-type]

    try:
        txid = peg(devnet_manifest)["pegin_accepted"]
        page = open_route(qtbot, window, pegin_route(txid))
        values = page.document_view.findChildren(BitcoinValue)
        shown = next(v for v in values if v.value == txid)
        assert shown.copy_text() == txid
        shown.open_button.click()
        assert catcher.urls == [f"https://mempool.space/testnet/tx/{txid}"]
        settings.set(keys.BTC_EXPLORER_TEST, "https://blockstream.info/testnet/{kind}/{id}")
        shown.open_in_explorer()
        assert catcher.urls[-1] == f"https://blockstream.info/testnet/tx/{txid}"
    finally:
        QDesktopServices.unsetUrlHandler("https")
        set_bitcoin_links(None)


def test_the_bridge_button_opens_the_bridge_page(qtbot: QtBot, window: MainWindow) -> None:
    assert window.bridge_action in window.toolbar.actions()
    assert window.bridge_action in window.tools_menu.actions()
    window.bridge_action.trigger()
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Bridge"
    page = wait_loaded(qtbot, window)
    assert isinstance(page.model, PegPageViewModel)
    assert page.model.route == BRIDGE_PAGE
