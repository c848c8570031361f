"""The Method column: a method's name as its ABI writes it; a call without one, in brackets."""

from __future__ import annotations

import dataclasses

from explorer.chain.keccak import keccak
from explorer.chain.records import Transaction
from explorer.presentation.tx_text import method_text
from tests.helpers.testnet import TX_REMASC, load

TOKEN = "0x" + "11" * 20


def test_a_value_transfer_does_not_read_like_a_transfer_method() -> None:
    """A plain send read "Value transfer" beside a token's "transfer": one word, two things."""
    base = Transaction.from_json(load(TX_REMASC))
    selector = keccak(b"transfer(address,uint256)")[:4]
    plain = dataclasses.replace(base, to=TOKEN, input=b"")
    token = dataclasses.replace(base, to=TOKEN, input=selector + bytes(64))
    creation = dataclasses.replace(base, to=None, input=bytes.fromhex("6080604052"))
    assert method_text(token) == "transfer"
    assert method_text(plain) == "(value transfer)"
    assert method_text(creation) == "(contract creation)"
