"""The window verifies what it shows: a badge on block and transaction pages, forgery in red."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from explorer.presentation.document import Field, Tone
from explorer.services.routes import block_route, tx_route
from explorer.views.page_view import PageView
from tests.gui.reliability.conftest import AppFactory
from tests.helpers.forged_node import NUMBER, ForgedNode
from tests.helpers.timing import WAIT
from tests.helpers.widget_texts import visible_texts

VERIFIED_BLOCK = (
    "Verified: hash, transactions root, receipts root, "
    "bound to Bitcoin work (difficulty 542,568,309)"
)


@pytest.fixture
def honest() -> Iterator[ForgedNode]:
    """Serve testnet block 798,248 as it is."""
    node = ForgedNode()
    yield node
    node.close()


@pytest.fixture
def forger() -> Iterator[ForgedNode]:
    """Serve the same block with transaction 2's value raised to 21 RBTC (hash kept)."""
    node = ForgedNode(lambda d: d["block"]["transactions"][2].update(value=hex(21 * 10**18)))
    yield node
    node.close()


def badge(view: PageView) -> str:
    """Return the page's verification text as the view shows it ("" before it shows one)."""
    texts = visible_texts(view)
    return next((t for t in texts if t.startswith(("Verified:", "Does not verify"))), "")


def badge_field(view: PageView) -> Field | None:
    """Return the page's verification field (first in its first section), if shown."""
    document = view.model.document
    if document is None or not document.sections:
        return None
    return next((f for f in document.sections[0].fields if f.label == "Verification"), None)


def document_badge(view: PageView) -> str:
    """Return the verification text of the page's current document."""
    found = badge_field(view)
    return "" if found is None else found.text


def verification_tone(view: PageView) -> Tone | None:
    """Return the colour the document gives the badge."""
    found = badge_field(view)
    return None if found is None else found.tone


def test_block_page_shows_what_it_verified(
    app_on: AppFactory, honest: ForgedNode, qtbot: QtBot
) -> None:
    """Hash, roots and work verified; the receipts root once the table read every receipt."""
    app = app_on({"Honest": (honest.url, 31)})
    view = app.open_loaded(block_route(NUMBER))  # its table first, the verdict after
    verified = "Verified: hash, transactions root, bound to Bitcoin work"
    qtbot.waitUntil(lambda: badge(view).startswith(verified), timeout=WAIT)
    assert "eth_getTransactionReceipt" not in honest.methods()
    view.content.setCurrentIndex(1)  # the Transactions tab: its rows read their receipts
    qtbot.waitUntil(lambda: document_badge(view).startswith(VERIFIED_BLOCK), timeout=WAIT)
    view.content.setCurrentIndex(0)
    qtbot.waitUntil(lambda: badge(view).startswith(VERIFIED_BLOCK), timeout=WAIT)
    assert verification_tone(view) is Tone.GOOD
    asked = {m for m in honest.methods() if m.startswith("eth_get")}
    page_reads = {"eth_getBlockByNumber", "eth_getTransactionReceipt"}  # and, slow, its counts
    counts = {"eth_getBlockTransactionCountByNumber", "eth_getUncleCountByBlockNumber"}
    assert asked - counts <= page_reads
    assert "rsk_getRawBlockHeaderByHash" not in honest.methods()  # no request to verify


def test_a_forged_transaction_is_named_in_red(
    app_on: AppFactory, forger: ForgedNode, qtbot: QtBot
) -> None:
    """The block and the transaction's page say which check fails, and mark the page."""
    app = app_on({"Forger": (forger.url, 31)})
    view = app.open_loaded(block_route(NUMBER))
    qtbot.waitUntil(lambda: badge(view).startswith("Does not verify"), timeout=WAIT)
    assert "transactions root" in badge(view)
    assert "transaction 2: its fields do not hash to its hash" in badge(view)
    assert verification_tone(view) is Tone.BAD
    document = view.model.document
    assert document is not None
    assert document.headline.text.startswith("Unverified — transactions root does not match")
    forged = forger.block["transactions"][2]["hash"]
    tx_view = app.open_loaded(tx_route(forged))
    qtbot.waitUntil(lambda: badge(tx_view).startswith("Does not verify"), timeout=WAIT)
    assert "its fields do not hash to its hash" in badge(tx_view)
