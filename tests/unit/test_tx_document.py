"""The transaction page document built from real testnet records: words where the node sent null."""

from __future__ import annotations

from explorer.chain.records import Receipt, Transaction
from explorer.presentation.tx_document import TxFacts, tx_document
from tests.helpers.testnet import RECEIPT, TX_REMASC, load


def test_nulls_from_the_node_are_said_in_words() -> None:
    """An old node's REMASC transaction (v, r, s null) and a creation's receipt (to null).

    The page read `null` three times in the signature and twice in the receipt.
    """
    raw_tx = {**load(TX_REMASC), "v": None, "r": None, "s": None}
    raw_receipt = {**load(RECEIPT), "to": None, "contractAddress": None}
    facts = TxFacts(Transaction.from_json(raw_tx), Receipt.from_json(raw_receipt), None, None)
    document = tx_document(facts, chain_id=31, currency="tRBTC", now=1.7e9)
    texts = {f.label: f.text for s in document.sections for f in s.fields}
    assert [text for text in texts.values() if "null" in text] == []
    assert texts["v"] == texts["r"] == texts["s"] == "not given by the node"
    assert texts["Contract address"] == "none"
    assert document.raw["transaction"]["v"] is None  # the raw JSON keeps what the node sent
