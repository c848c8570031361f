"""eth_estimateGas under Rootstock's rules: exactly enough, the basic cost rskj's own."""

from __future__ import annotations

from explorer.devnet.abi import constructor_data
from explorer.devnet.accounts import derive_account
from explorer.devnet.contracts import load_artifact
from explorer.devnet.node import DevnetNode


def test_a_creation_s_estimate_is_exactly_what_it_needs(fresh_node: DevnetNode) -> None:
    """The estimate counts RSKIP438's 2 gas a word of init code: one gas less runs out."""
    deployer = derive_account("deployer")
    code = constructor_data(load_artifact("DevToken").bytecode, ["string", "string", "uint256"],
                            "Client Token", "CLT", 10**24)  # fmt: skip
    call = {"from": "0x" + deployer.address.hex(), "data": "0x" + code.hex()}
    estimate = int(fresh_node.handle("eth_estimateGas", [call, "latest"]), 16)
    nonce = int(fresh_node.handle("eth_getTransactionCount", [call["from"], "latest"]), 16)
    engine, head = fresh_node.ledger.engine, fresh_node.ledger.head
    ran = []
    for gas in (estimate, estimate - 1):
        tx = engine.sign(deployer.private_key, nonce=nonce, gas_price=66_000_000, gas=gas,
                         to=None, data=code)  # fmt: skip
        receipts, _state = engine.preview([tx], head.timestamp + 1)
        ran.append((receipts[0].state_root == b"\x01", receipts[0].gas_used))
    assert ran[0] == (True, estimate)
    assert ran[1][0] is False
