"""rskj's error texts and other nodes' for the same refusal get the same human message.

rskj's words are from its source (TxPendingValidator.java and txvalidator/*.java,
TransactionPoolImpl.java, LogFilter.java, EthModule.java, JsonRpcCustomServer.java,
Web3InformationRetriever.java, EthModuleTransactionBase.java, JsonRpcTimeoutError.java,
JsonRpcResponseLimitError.java); the others are the words Ethereum nodes and hosted providers
use for the same refusals.
"""

from __future__ import annotations

import pytest

from explorer.rpc.errors import NodeError
from explorer.rpc.nodefailures import NodeFailure, classify

SAME_REFUSAL = [
    (NodeFailure.NONCE_TOO_LOW, (-32010, "transaction nonce too low"), (-32000, "nonce too low")),
    (
        NodeFailure.NONCE_TOO_HIGH,
        (-32010, "transaction nonce too high"),
        (-32000, "nonce too high"),
    ),
    (
        NodeFailure.INSUFFICIENT_FUNDS,
        (-32010, "insufficient funds to pay for pending and new transactions"),
        (-32000, "insufficient funds for gas * price + value"),
    ),
    (
        NodeFailure.GAS_PRICE_TOO_LOW,
        (-32010, "transaction's gas price lower than block's minimum"),
        (-32000, "transaction underpriced"),
    ),
    (
        NodeFailure.REPLACEMENT_TOO_CHEAP,
        (-32010, "gas price not enough to bump transaction"),
        (-32000, "replacement transaction underpriced"),
    ),
    (
        NodeFailure.ALREADY_KNOWN,
        (-32010, "pending transaction with same hash already exists"),
        (-32000, "already known"),
    ),
    (
        NodeFailure.GAS_ABOVE_BLOCK_LIMIT,
        (
            -32010,
            "transaction's gas limit of 50000000 is higher than the block's gas limit of 6800000",
        ),
        (-32000, "exceeds block gas limit"),
    ),
    (
        NodeFailure.GAS_BELOW_BASIC_COST,
        (-32010, "transaction's basic cost is above the gas limit"),
        (-32000, "intrinsic gas too low"),
    ),
    (
        NodeFailure.WRONG_CHAIN,
        (-32602, "Invalid chainId: 30"),
        (-32000, "invalid chain id for signer"),
    ),
    (
        NodeFailure.REVERTED,
        (-32015, "VM Exception while processing transaction: revert Reverter: always fails"),
        (3, "execution reverted: Reverter: always fails"),
    ),
    (
        NodeFailure.LOG_LIMIT,
        (-32012, "Cannot query more than 5000 blocks at once"),
        (-32005, "query returned more than 10000 results"),
    ),
    (
        NodeFailure.LOG_LIMIT,
        (-32012, "Filter returned more than 20000 logs."),
        (
            -32012,
            "Cannot query more than 2000 blocks at once. Filter returned more than 10000 logs.",
        ),
    ),
    (
        NodeFailure.BLOCK_NOT_FOUND,
        (-32600, "Block 0xffffff not found"),
        (-32000, "header not found"),
    ),
    (
        NodeFailure.BLOCK_NOT_FOUND,
        (-32602, "Invalid block number 16777215"),
        (-32000, "unknown block"),
    ),
    (
        NodeFailure.METHOD_NOT_FOUND,
        (-32601, "method not found"),
        (-32601, "The method eth_sign does not exist/is not available"),
    ),
    (
        NodeFailure.TIMEOUT,
        (-32011, "Execution has got timeout out."),
        (-32000, "request timed out"),
    ),
    (
        NodeFailure.ANSWER_TOO_LARGE,
        (-32011, "Response size limit of 10485760 bytes exceeded"),
        (-32000, "response is too big"),
    ),
    (
        NodeFailure.BAD_PARAMETERS,
        (-32602, "method parameters invalid"),
        (-32602, "invalid argument 0: hex string has length 4, want 40 for RSK address"),
    ),
]


@pytest.mark.parametrize(("failure", "rskj", "other"), SAME_REFUSAL)
def test_the_same_refusal_reads_the_same(
    failure: NodeFailure, rskj: tuple[int, str], other: tuple[int, str]
) -> None:
    """Both texts name the same failure and open with the same human sentence."""
    from_rskj, from_other = NodeError(*rskj), NodeError(*other)
    assert (from_rskj.failure, from_other.failure) == (failure, failure)
    assert from_rskj.message.startswith(failure.human)
    assert from_other.message.startswith(failure.human)
    assert f"node error {rskj[0]}: {rskj[1]}" in from_rskj.message


def test_a_revert_names_its_reason_and_unknown_words_stay_as_they_are() -> None:
    data = "0x08c379a0" + (32).to_bytes(32, "big").hex() + (5).to_bytes(32, "big").hex()
    data += b"no go".ljust(32, b"\0").hex()
    reverted = NodeError(-32015, "VM Exception while processing transaction: revert no go", data)
    assert reverted.message.startswith("the execution reverts: no go (node error -32015")
    unknown = NodeError(-32000, "something else entirely")
    assert unknown.failure is None
    assert unknown.message == "node error -32000: something else entirely"
    assert classify(
        -32010, "transaction's size is higher than defined maximum: 200000 > 131072"
    ) is (NodeFailure.TRANSACTION_TOO_LARGE)
