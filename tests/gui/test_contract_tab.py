"""The contract tab and proxy-aware decoding, driven through widgets against the devnet."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from explorer.chain.checksum import to_checksum_address
from explorer.presentation.contract_facts import USER_TABLES
from explorer.presentation.document import Document
from explorer.presentation.signature_choice import CHOICE
from explorer.services.proxies import SEEN_PROXIES
from explorer.services.routes import address_route, tx_route
from explorer.services.session import Session
from explorer.viewmodels.address.read_contract import AbiChoice
from explorer.views.address.page import AddressView
from explorer.views.main_window import MainWindow
from explorer.views.page_view import PageView
from tests.helpers.address import open_address
from tests.helpers.gui import field_text, wait_loaded

HARDHAT = Path(__file__).resolve().parents[1] / "fixtures/hardhat-notary"


@pytest.fixture
def proxies(devnet_manifest: dict[str, Any]) -> dict[str, Any]:
    """Return the seeded proxies of the test network."""
    return dict(devnet_manifest["proxies"])


def section_text(document: Document | None, title: str) -> str:
    """Return every field of a document's section as `label: text` lines."""
    assert document is not None
    for section in document.sections:
        if section.title == title:
            return "\n".join(f"{f.label}: {f.text}" for f in section.fields)
    raise AssertionError(f"no section {title!r} in {[s.title for s in document.sections]}")


def shows(page: PageView, label: str) -> bool:
    """Tell whether a page shows a field with this label."""
    return label in page.document_view.value_labels


def wait_contract(qtbot: QtBot, view: AddressView) -> None:
    """Wait until the contract tab's facts arrived and its view shows them."""
    info = view.address_model.contract
    qtbot.waitUntil(lambda: info.facts is not None and not info.running, timeout=30_000)
    qtbot.waitUntil(lambda: view.contract_tab.info_box.facts_view.is_complete, timeout=10_000)


def test_upgraded_proxy_names_its_implementation_since_the_upgrade(
    qtbot: QtBot, session: Session, proxies: dict[str, Any]
) -> None:
    """The summary says `Proxy (EIP-1967) → implementation … since block B`.

    The tab lists the implementation's functions, and a read function is called through it.
    """
    view = open_address(qtbot, session, proxies["proxy"])
    wait_contract(qtbot, view)
    implementation = to_checksum_address(proxies["box_v2"], 31)
    since = f"since block {proxies['proxy_upgrade_block']:,}"
    model = view.address_model
    qtbot.waitUntil(lambda: since in section_text(model.document, "Proxy"), timeout=10_000)
    assert f"Proxy (EIP-1967) → implementation {implementation} {since}" in section_text(
        model.document, "Proxy"
    )
    tab = section_text(model.contract.document, "Implementation's functions")
    assert "increment()" in tab
    assert "store(" not in tab
    reader = model.read_contract
    assert reader.abi is AbiChoice.CONTRACT
    view.contract_tab.read_box.function_choice.setCurrentIndex(
        reader.function_names.index("retrieve()")
    )
    view.contract_tab.read_box.on_call()
    qtbot.waitUntil(lambda: "word 0" in reader.result, timeout=10_000)
    assert "= 43" in reader.result  # stored 7, then 42, upgraded, incremented once


def test_a_write_function_is_simulated_not_sent(
    qtbot: QtBot, session: Session, proxies: dict[str, Any]
) -> None:
    """A write function of the recovered list is run through eth_call and eth_estimateGas."""
    view = open_address(qtbot, session, proxies["proxy"])
    wait_contract(qtbot, view)
    reader = view.address_model.read_contract
    box = view.contract_tab.read_box
    box.function_choice.setCurrentIndex(reader.function_names.index("increment() — simulate"))
    box.on_call()
    qtbot.waitUntil(lambda: "eth_estimateGas" in reader.result, timeout=10_000)
    assert "eth_call: succeeds" in reader.result


@pytest.mark.parametrize(
    ("name", "kind", "target"),
    [
        ("beacon_proxy", "EIP-1967 beacon", "greeter"),
        ("uups_proxy", "EIP-1822 UUPS", "uups_counter"),
        ("clones", "EIP-1167 clone", "vault"),
    ],
)
def test_every_proxy_kind_is_named(
    qtbot: QtBot, session: Session, proxies: dict[str, Any], name: str, kind: str, target: str
) -> None:
    """Each seeded proxy's page names its kind and current implementation."""
    address = proxies[name][0] if name == "clones" else proxies[name]
    view = open_address(qtbot, session, address)
    implementation = to_checksum_address(proxies[target], 31)
    text = section_text(view.address_model.document, "Proxy")
    assert f"Proxy ({kind}) → implementation {implementation}" in text


def test_calls_decode_by_the_implementation_of_their_block(
    qtbot: QtBot, window: MainWindow, proxies: dict[str, Any]
) -> None:
    """Before the upgrade a call decodes by BoxV1 (store), after it by BoxV2 (increment).

    A call the bundled list decodes is read through its contract once the contract is known
    as a proxy (its page was seen): that costs no request on every other transaction page.
    """
    SEEN_PROXIES.clear()
    window.navigator.go(tx_route(proxies["proxy_call_v1"]))
    first = wait_loaded(qtbot, window)  # not yet known as a proxy: the bundled list names it
    assert field_text(first, "Method") == "store(uint256 newValue)"
    assert "Called through" not in first.document_view.value_labels
    window.navigator.go(address_route(proxies["proxy"]))
    qtbot.waitUntil(lambda: proxies["proxy"] in SEEN_PROXIES, timeout=20_000)
    for key, implementation, method in (
        ("proxy_call_v1", "box_v1", "store(uint256 newValue)"),
        ("proxy_call_v2", "box_v2", "increment()"),
    ):
        window.navigator.go(tx_route(proxies[key]))
        page = wait_loaded(qtbot, window)
        target = to_checksum_address(proxies[implementation], 31)
        qtbot.waitUntil(partial(shows, page, "Called through"), timeout=10_000)
        assert "a proxy (EIP-1967)" in field_text(page, "Called through")
        assert target in field_text(page, "Implementation then")
        assert field_text(page, "Method") == method
        assert "functions recovered from bytecode" in field_text(page, "Decoded by")


def test_artifacts_chosen_in_the_tab_match_and_are_kept(
    qtbot: QtBot, session: Session, proxies: dict[str, Any]
) -> None:
    """Matching the Hardhat project names the Notary's source; an invalid folder is said."""
    view = open_address(qtbot, session, proxies["notary"])
    wait_contract(qtbot, view)
    info = view.address_model.contract
    info.choose_artifacts(str(HARDHAT.parent / "nowhere"))
    qtbot.waitUntil(lambda: "does not exist" in info.result, timeout=10_000)
    info.choose_artifacts(str(HARDHAT))
    qtbot.waitUntil(
        lambda: "Matches exactly" in section_text(info.document, "Code"), timeout=20_000
    )
    assert "Files document hashes" in section_text(info.document, "Code")
    functions = section_text(info.document, "Functions")
    assert "file(bytes32 digest, string note)" in functions
    assert "The block a hash was filed in" in functions


def test_a_signature_list_is_read_and_remembered(
    qtbot: QtBot, session: Session, proxies: dict[str, Any], tmp_path: Path
) -> None:
    """A chosen list is read (its bad lines counted) and handed to the app to keep."""
    kept: list[str] = []
    CHOICE.remember = kept.append
    mine = tmp_path / "mine.txt"
    mine.write_text("store(uint256)\nnot a signature(\n")
    try:
        view = open_address(qtbot, session, proxies["box_v1"])
        wait_contract(qtbot, view)
        info = view.address_model.contract
        info.choose_signatures(str(tmp_path / "missing.txt"))
        qtbot.waitUntil(lambda: "could not be read" in info.result, timeout=10_000)
        assert kept == []
        info.choose_signatures(str(mine))
        qtbot.waitUntil(lambda: "read from mine.txt" in info.result, timeout=20_000)
        assert "1 signature(s)" in info.result
        assert "1 line(s) skipped" in info.result
        assert kept == [str(mine)]
    finally:
        CHOICE.remember = None
        USER_TABLES.clear()
