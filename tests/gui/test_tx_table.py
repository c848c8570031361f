"""The block's transactions table: rows parsed when shown, a malformed one said so."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from explorer.chain.records import Block
from explorer.services.networks import DEVNET
from explorer.viewmodels.tx_table import BlockTransactionsModel, Column
from tests.helpers.testnet import BLOCK, TX_EIP155, load


def test_a_malformed_transaction_row_says_so_and_the_others_show(qtbot: QtBot) -> None:
    """A row whose transaction cannot be parsed shows why; the rows around it are intact."""
    good = load(TX_EIP155)
    broken = {**good, "hash": "0x" + "ee" * 32, "gas": "not a number"}
    block = Block.from_json({**load(BLOCK), "transactions": [good, broken, good]})
    model = BlockTransactionsModel(DEVNET)
    model.set_block(block)
    assert model.rowCount() == 3
    assert model.data(model.index(0, Column.HASH)) == good["hash"]
    assert str(model.data(model.index(1, Column.HASH))).startswith("malformed transaction:")
    assert "gas" in str(model.data(model.index(1, Column.HASH)))
    assert model.data(model.index(1, Column.FROM)) is None
    assert model.data(model.index(2, Column.METHOD)) == model.data(model.index(0, Column.METHOD))
