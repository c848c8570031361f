"""The devnet against a table of rskj's answers, both profiles where the spec is silent.

Each row names the rskj source file its answer was read from (paths under
rskj-core/src/main/java/ of rsksmart/rskj, VETIVER 9), what is sent, and what rskj answers;
`service` says what the service profile answers instead, where the spec has its own rule.
docs/service.md §15 lists the same rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from eth_account import Account

from tests.helpers.devnet import PROFILES, Devnet
from tests.helpers.devnet_client import JSON_HEADERS

ADDRESS = "0x" + "12" * 20
UNKNOWN_HASH = "0x" + "ab" * 32
SAME = object()  # the service answers as rskj does
Facts = dict[str, Any]
Params = Callable[[Facts], list[Any]]


@dataclass(frozen=True)
class Answer:
    """An expected answer: HTTP status with a result, or with an error code and message."""

    status: int = 200
    result: Any = None
    code: int | None = None
    message: str | None = None
    check: Callable[[Any, Facts], bool] | None = None  # for results that vary

    def assert_matches(self, status: int, envelope: dict[str, Any], facts: Facts) -> None:
        """Compare an answer with this one."""
        assert status == self.status, envelope
        if self.code is not None:
            assert envelope["error"]["code"] == self.code, envelope
            assert self.message is None or envelope["error"]["message"] == self.message
        elif self.check is not None:
            assert "result" in envelope, envelope
            assert self.check(envelope["result"], facts), envelope
        else:
            assert envelope == {**envelope, "result": self.result}, envelope


@dataclass(frozen=True)
class Row:
    """One rule: the rskj source it follows, the call, rskj's answer, the service's."""

    source: str
    method: str
    params: Params
    rskj: Answer
    service: Answer | object = SAME


def _reverting(facts: Facts) -> dict[str, str]:
    """Return the call object of Reverter.fail()."""
    return {"to": facts["reverter"], "data": "0xa9cc4718"}


PARAMS_INVALID = Answer(400, code=-32602, message="method parameters invalid")
ROWS: dict[str, Row] = {
    "nonce without block": Row(
        "co/rsk/rpc/Web3EthModule.java",
        "eth_getTransactionCount",
        lambda f: [f["account"]],
        PARAMS_INVALID,
        Answer(check=lambda value, f: int(value, 16) > 0),
    ),
    "block without the boolean": Row(
        "co/rsk/rpc/Web3EthModule.java",
        "eth_getBlockByNumber",
        lambda f: ["0x1"],
        PARAMS_INVALID,
        Answer(check=lambda value, f: value["number"] == "0x1"),
    ),
    "call without block": Row(
        "co/rsk/rpc/Web3EthModule.java", "eth_call", lambda f: [_reverting(f)], PARAMS_INVALID
    ),
    "balance without block": Row(
        "co/rsk/rpc/Web3EthModule.java",
        "eth_getBalance",
        lambda f: [ADDRESS],
        Answer(result="0x0"),
    ),
    "unknown method": Row(
        "co/rsk/rpc/netty/JsonRpcCustomServer.java",
        "eth_madeUp",
        lambda f: [],
        Answer(200, code=-32601, message="method not found"),
    ),
    "a method rskj has but does not offer": Row(
        "co/rsk/rpc/exception/RskErrorResolver.java; co/rsk/rpc/JsonRpcMethodFilter.java",
        "debug_traceTransaction",
        lambda f: [f["queued"]],
        Answer(
            200,
            code=-32601,
            message="the method debug_traceTransaction does not exist/is not available",
        ),
        Answer(200, code=-32601, message="method not found"),
    ),
    "the wallet is disabled": Row(
        "co/rsk/rpc/modules/eth/EthModuleWalletDisabled.java",
        "eth_sign",
        lambda f: [ADDRESS, "0x00"],
        Answer(400, code=-32602, message="Local wallet is disabled in this node"),
        Answer(200, code=-32601, message="method not found"),
    ),
    "balance at an unknown block": Row(
        "co/rsk/rpc/Web3InformationRetriever.java",
        "eth_getBalance",
        lambda f: [ADDRESS, "0xffffff"],
        Answer(400, code=-32600, message="Block 0xffffff not found"),
    ),
    "nonce at an unknown block hash": Row(
        "org/ethereum/rpc/Web3Impl.java",
        "eth_getTransactionCount",
        lambda f: [ADDRESS, {"blockHash": UNKNOWN_HASH}],
        Answer(400, code=-32600, message=f"Block with hash {UNKNOWN_HASH} not found"),
    ),
    "code at an unknown block": Row(
        "co/rsk/rpc/modules/eth/EthModule.java",
        "eth_getCode",
        lambda f: [f["token"], "0xffffff"],
        Answer(result=None),
    ),
    "code at a bare block hash": Row(
        "co/rsk/rpc/modules/eth/EthModule.java",
        "eth_getCode",
        lambda f: [f["token"], f["block_hash"]],
        Answer(result=None),
        Answer(check=lambda value, f: len(value) > 100),
    ),
    "call at an unknown block": Row(
        "co/rsk/rpc/ExecutionBlockRetriever.java",
        "eth_call",
        lambda f: [_reverting(f), "0xffffff"],
        Answer(400, code=-32602, message="Invalid block number 16777215"),
    ),
    "call that reverts": Row(
        "co/rsk/rpc/modules/eth/EthModule.java",
        "eth_call",
        lambda f: [_reverting(f), "latest"],
        Answer(
            code=-32015,
            message="VM Exception while processing transaction: revert Reverter: always fails",
        ),
    ),
    "estimate of a call that reverts": Row(
        "co/rsk/rpc/modules/eth/EthModule.java",
        "eth_estimateGas",
        lambda f: [_reverting(f)],
        Answer(
            code=-32015,
            message="VM Exception while processing transaction: revert Reverter: always fails",
        ),
        Answer(check=lambda value, f: int(value, 16) > 21_000),
    ),
    "logs of 5,001 blocks": Row(
        "org/ethereum/rpc/LogFilter.java",
        "eth_getLogs",
        lambda f: [{"fromBlock": "0x1", "toBlock": hex(5001), "topics": [UNKNOWN_HASH]}],
        Answer(result=[]),
    ),
    "logs of 5,002 blocks": Row(
        "org/ethereum/rpc/LogFilter.java",
        "eth_getLogs",
        lambda f: [{"fromBlock": "0x1", "toBlock": hex(5002), "topics": [UNKNOWN_HASH]}],
        Answer(code=-32012, message="Cannot query more than 5000 blocks at once"),
        Answer(result=[]),
    ),
    "logs of 5,001 blocks holding more than 10,000": Row(
        "org/ethereum/rpc/LogFilter.java",
        "eth_getLogs",
        lambda f: [{"fromBlock": "0x0", "toBlock": hex(5000)}],
        Answer(check=lambda value, f: 10_000 < len(value) <= 20_000),
        Answer(
            code=-32012,
            message="Cannot query more than 2000 blocks at once. "
            "Filter returned more than 10000 logs.",
        ),
    ),
    "logs with fromBlock after toBlock": Row(
        "org/ethereum/rpc/LogFilter.java",
        "eth_getLogs",
        lambda f: [
            {"fromBlock": hex(f["transfer_block"] + 5), "toBlock": hex(f["transfer_block"])}
        ],
        Answer(
            check=lambda value, f: (
                {log["blockNumber"] for log in value} == {hex(f["transfer_block"])}
            )
        ),
    ),
    "gas price": Row(
        "org/ethereum/listener/GasPriceTracker.java",
        "eth_gasPrice",
        lambda f: [],
        Answer(result=hex(66_000_000)),
    ),
    "client version": Row(
        "org/ethereum/rpc/Web3Impl.java",
        "web3_clientVersion",
        lambda f: [],
        Answer(check=lambda value, f: value.startswith("RskJ/9.") and "/VETIVER-" in value),
    ),
    "block extras": Row(
        "org/ethereum/rpc/dto/BlockResultDTO.java",
        "eth_getBlockByNumber",
        lambda f: ["0x1", False],
        Answer(
            check=lambda value, f: (
                (value["mixHash"], value["nonce"], value["rskPteEdges"])
                == ("0x" + "00" * 32, "0x0000000000000000", None)
                and "baseEvent" in value
            )
        ),
    ),
    "transaction by index has no _id": Row(
        "org/ethereum/rpc/dto/TransactionResultDTO.java",
        "eth_getTransactionByBlockNumberAndIndex",
        lambda f: ["0x1", "0x0"],
        Answer(check=lambda value, f: "_id" not in value),
        Answer(check=lambda value, f: "_id" in value),
    ),
    "uncle count of an unknown block": Row(
        "org/ethereum/rpc/Web3Impl.java",
        "eth_getUncleCountByBlockHash",
        lambda f: [UNKNOWN_HASH],
        Answer(400, code=-32600, message=f"Block with hash {UNKNOWN_HASH} not found"),
    ),
    "transaction count of an unknown block": Row(
        "co/rsk/rpc/Web3InformationRetriever.java",
        "eth_getBlockTransactionCountByNumber",
        lambda f: ["0xffffff"],
        Answer(400, code=-32600, message="Block 0xffffff not found"),
    ),
    "a transaction for another chain": Row(
        "co/rsk/rpc/modules/eth/EthModuleTransactionBase.java",
        "eth_sendRawTransaction",
        lambda f: [f["signed_for_30"]],
        Answer(400, code=-32602, message="Invalid chainId: 30"),
    ),
    "a queued transaction by hash": Row(
        "co/rsk/core/bc/TransactionPoolImpl.java",
        "eth_getTransactionByHash",
        lambda f: [f["queued"]],
        Answer(result=None),
    ),
}


@pytest.fixture(scope="module")
def facts(devnet: Devnet) -> Facts:
    """Addresses, hashes and a signed transaction the rows use."""
    manifest = devnet.manifest()
    sender = Account.from_key(manifest["private_keys"][1])
    fields = {"nonce": 0, "gasPrice": 70_000_000, "gas": 21_000, "to": ADDRESS, "value": 1}
    signed = sender.sign_transaction({**fields, "chainId": 30}).raw_transaction
    with httpx.Client() as http:
        body = {"jsonrpc": "2.0", "id": 1, "method": "eth_getTransactionReceipt"}
        body["params"] = [manifest["token_transfer"]]
        receipt = http.post(devnet.url(), json=body, headers=JSON_HEADERS).json()["result"]
    return {
        "account": manifest["accounts"][1],
        "token": manifest["token"],
        "reverter": manifest["reverter"],
        "block_hash": receipt["blockHash"],
        "transfer_block": int(receipt["blockNumber"], 16),
        "signed_for_30": "0x" + signed.hex(),
        "queued": manifest["pending_txs"][0],
    }


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
@pytest.mark.parametrize("rule", sorted(ROWS))
def test_rskj_answers(devnet: Devnet, facts: Facts, rule: str) -> None:
    """The devnet answers as rskj's source has it (the service where the spec says so)."""
    row = ROWS[rule]
    expected = row.rskj if devnet.profile == "rskj" or row.service is SAME else row.service
    assert isinstance(expected, Answer)
    request = {"jsonrpc": "2.0", "id": 7, "method": row.method, "params": row.params(facts)}
    with httpx.Client(timeout=60) as http:
        response = http.post(devnet.url(), json=request, headers=JSON_HEADERS)
    envelope = response.json()
    assert envelope["id"] == 7, f"{row.source}: {envelope}"
    expected.assert_matches(response.status_code, envelope, facts)
