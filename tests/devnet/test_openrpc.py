"""Every devnet answer checked against the Ethereum execution-apis OpenRPC schemas.

The schemas are vendored in tests/fixtures/execution-apis (commit and licence there). For each
method they cover that the devnet serves, answers of both profiles are validated against the
method's result schema. Where an answer differs from the schema on purpose — Rootstock is not
Ethereum, and the devnet answers as rskj 9 does — the difference is in RSK_DIFFERENCES with its
reason; an answer that differs in any other way fails, and so does an entry no answer needs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from eth_account import Account
from jsonschema import Draft7Validator
from jsonschema.exceptions import ValidationError

from tests.helpers.devnet import PROFILES, profile_devnet
from tests.helpers.devnet_client import RawRpc

SPEC = Path(__file__).resolve().parents[1] / "fixtures" / "execution-apis"
TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"


@dataclass(frozen=True)
class Difference:
    """One way answers depart from the schema on purpose: where, how, which methods, why."""

    path: str  # the answer's JSON path; [] stands for any array index
    kind: str  # the schema keyword that fails, with the missing member for `required`
    methods: frozenset[str]
    profiles: frozenset[str]
    reason: str


def _differences(
    methods: str, paths: str, kind: str, reason: str, profiles: str = "service rskj"
) -> tuple[Difference, ...]:
    """Return the differences of space-separated methods at space-separated paths."""
    return tuple(
        Difference(path, kind, frozenset(methods.split()), frozenset(profiles.split()), reason)
        for path in paths.split(" ")
    )


TX_METHODS = (
    "eth_getTransactionByHash eth_getTransactionByBlockHashAndIndex "
    "eth_getTransactionByBlockNumberAndIndex"
)
BLOCK_METHODS = "eth_getBlockByNumber eth_getBlockByHash"
NO_PATH = ""

#: The deliberate RSK differences, each with its reason (docs/service.md §15.9 lists them too).
RSK_DIFFERENCES = (
    *_differences(
        TX_METHODS,
        NO_PATH,
        "required:blockTimestamp",
        "rskj 9 sends no blockTimestamp on transactions (org/ethereum/rpc/dto/"
        "TransactionResultDTO.java); the field is newer than rskj's API",
    ),
    *_differences(
        BLOCK_METHODS,
        ".transactions[]",
        "required:blockTimestamp",
        "the same transaction objects inside a block with full transactions",
    ),
    *_differences(
        "eth_getBlockByNumber",
        ".number .hash .logsBloom .miner",
        "type",
        "the pending block has no number, hash, bloom or miner yet: null, as rskj sends it "
        "(BlockResultDTO) and the service describes it (§2.3); the schema has no pending block",
    ),
    *_differences(
        "eth_getBlockByNumber",
        ".transactions[].blockHash .transactions[].blockNumber .transactions[].transactionIndex",
        "type",
        "the service's pending block lists its transactions with null block fields (§2.4, §3); "
        "rskj fills in the sample block's (§15.2)",
        profiles="service",
    ),
)


@dataclass(frozen=True)
class Observed:
    """A schema failure seen in an answer (its message apart: two alike are one)."""

    method: str
    path: str
    kind: str
    detail: str = field(compare=False)


def _load(folder: str) -> dict[str, Any]:
    """Merge the JSON files of a folder of the vendored spec."""
    merged: Any = {} if folder == "schemas" else []
    for path in sorted((SPEC / folder).glob("*.json")):
        data = json.loads(path.read_text())
        merged.update(data) if isinstance(merged, dict) else merged.extend(data)
    return merged if isinstance(merged, dict) else {m["name"]: m for m in merged}


SCHEMAS = _load("schemas")
METHODS = _load("eth")


def result_validator(method: str) -> Draft7Validator:
    """Return a validator of a method's result, its references resolved in the spec."""
    schema = {**METHODS[method]["result"]["schema"], "components": {"schemas": SCHEMAS}}
    return Draft7Validator(schema)


def leaf_failures(error: ValidationError) -> Iterator[ValidationError]:
    """Yield the deepest failures of an error, following the best branch of oneOf/anyOf."""
    if not error.context:
        yield error
        return
    branches: dict[Any, list[ValidationError]] = {}
    for inner in error.context:
        branches.setdefault(inner.relative_schema_path[0], []).append(inner)
    # The branch the answer means is the one it follows furthest before failing (a null block
    # fails `notFound` at once, a block object fails `Block` deep inside): the branch whose
    # shallowest failure is deepest in the schema, then the one with the fewest failures.
    closest = max(
        branches.values(),
        key=lambda inner: (min(len(e.relative_schema_path) for e in inner), -len(inner)),
    )
    for inner in closest:
        yield from leaf_failures(inner)


def _path(error: ValidationError) -> str:
    """Return an error's path in the answer, array indexes written []."""
    return "".join("[]" if isinstance(part, int) else f".{part}" for part in error.absolute_path)


def _kind(error: ValidationError) -> str:
    """Return the failing keyword, with the missing member for `required`."""
    if error.validator == "required":
        return f"required:{error.message.split(chr(39))[1]}"
    return str(error.validator)


def failures(method: str, result: Any) -> list[Observed]:
    """Return how an answer departs from its method's result schema."""
    found = []
    for error in result_validator(method).iter_errors(result):
        for leaf in leaf_failures(error):
            found.append(Observed(method, _path(leaf), _kind(leaf), leaf.message[:120]))
    return found


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    """One HTTP client for the module."""
    with httpx.Client(timeout=60) as client:
        yield client


def answers(rpc: RawRpc, seed: dict[str, Any], chain_id: int, rskj: bool) -> list[tuple[str, Any]]:
    """Ask every covered method in its interesting forms; return (method, result) pairs."""
    calls: list[tuple[str, list[Any]]] = [
        ("eth_chainId", []),
        ("eth_blockNumber", []),
        ("eth_accounts", []),
        ("net_version", []),
        ("eth_gasPrice", []),
    ]
    big = hex(seed["big_block"])
    for selector in ("latest", "earliest", "pending", big):
        calls += [("eth_getBlockByNumber", [selector, full]) for full in (False, True)]
        calls.append(("eth_getBlockTransactionCountByNumber", [selector]))
        calls.append(("eth_getTransactionByBlockNumberAndIndex", [selector, "0x0"]))
    block = rpc("eth_getBlockByNumber", big, False)
    calls += [("eth_getBlockByHash", [block["hash"], full]) for full in (False, True)]
    calls += [
        ("eth_getBlockByHash", ["0x" + "ab" * 32, False]),
        ("eth_getBlockByNumber", ["0xffffff", False]),
        ("eth_getBlockTransactionCountByHash", [block["hash"]]),
        ("eth_getTransactionByBlockHashAndIndex", [block["hash"], "0x1"]),
        ("eth_getTransactionByBlockHashAndIndex", [block["hash"], "0xffff"]),
    ]
    for name in ("plain_transfer", "token_transfer", "contract_creation", "failed_tx"):
        calls.append(("eth_getTransactionByHash", [seed[name]]))
        calls.append(("eth_getTransactionReceipt", [seed[name]]))
    calls += [("eth_getTransactionByHash", [tx]) for tx in seed["pending_txs"]]
    calls.append(("eth_getTransactionReceipt", ["0x" + "cd" * 32]))
    account, token = seed["accounts"][1], seed["token"]
    calls += [
        ("eth_getBalance", [account, "latest"]),
        ("eth_getBalance", [account, big]),
        ("eth_getTransactionCount", [account, "pending"]),
        ("eth_getCode", [token, "latest"]),
        ("eth_getCode", [account, "earliest"]),
        ("eth_getStorageAt", [token, "0x2", "latest"]),
        ("eth_getLogs", [{"fromBlock": big, "toBlock": big, "topics": [TRANSFER]}]),
        ("eth_getLogs", [{"blockHash": block["hash"], "address": token}]),
        ("eth_call", [{"to": token, "data": "0x95d89b41"}, "latest"]),
        ("eth_estimateGas", [{"to": account, "value": "0x1"}, "latest"]),
    ]
    calls.append(("eth_sendRawTransaction", [_signed_transfer(rpc, seed, chain_id)]))
    if rskj:
        calls += [("eth_syncing", []), ("eth_coinbase", [])]
    results = [(method, rpc(method, *params)) for method, params in calls]
    if rskj:
        results += _filter_answers(rpc, seed, chain_id)
    return results


def _signed_transfer(rpc: RawRpc, seed: dict[str, Any], chain_id: int) -> str:
    """Return a signed transfer from a seeded user, ready to send."""
    sender = Account.from_key(seed["private_keys"][-2])
    fields = {
        "nonce": int(rpc("eth_getTransactionCount", sender.address, "pending"), 16),
        "gasPrice": int(rpc("eth_gasPrice"), 16),
        "gas": 21_000,
        "to": "0x" + "42" * 20,
        "value": 1,
        "chainId": chain_id,
    }
    raw: bytes = sender.sign_transaction(fields).raw_transaction
    return "0x" + raw.hex()


def _filter_answers(rpc: RawRpc, seed: dict[str, Any], chain_id: int) -> list[tuple[str, Any]]:
    """Install filters of each kind, make them see something, and collect every answer."""
    results: list[tuple[str, Any]] = []
    recent = hex(int(rpc("eth_blockNumber"), 16) - 100)
    log_filter = rpc("eth_newFilter", {"fromBlock": recent, "toBlock": "latest"})
    blocks = rpc("eth_newBlockFilter")
    pending = rpc("eth_newPendingTransactionFilter")
    results += [
        ("eth_newFilter", log_filter),
        ("eth_newBlockFilter", blocks),
        ("eth_newPendingTransactionFilter", pending),
    ]
    rpc("eth_sendRawTransaction", _signed_transfer(rpc, seed, chain_id))
    for filter_id in (log_filter, blocks, pending):
        results.append(("eth_getFilterChanges", rpc("eth_getFilterChanges", filter_id)))
    results.append(("eth_getFilterLogs", rpc("eth_getFilterLogs", log_filter)))
    results.append(("eth_uninstallFilter", rpc("eth_uninstallFilter", blocks)))
    return results


@pytest.fixture(scope="module", params=PROFILES)
def observed(request: pytest.FixtureRequest, http: httpx.Client) -> tuple[str, list[Observed]]:
    """Every failure of every answer of one profile, both networks; and the profile."""
    profile = request.param
    devnet = profile_devnet(profile, request.getfixturevalue("tmp_path_factory"))
    found: list[Observed] = []
    for network, chain_id in (("testnet", 31), ("mainnet", 30)):
        rpc = RawRpc(http, devnet.url(network))
        for method, result in answers(rpc, devnet.manifest(network), chain_id, profile == "rskj"):
            found += failures(method, result)
    return profile, found


def _explained(seen: Observed, profile: str) -> Difference | None:
    """Return the table entry that explains a failure on a profile, if any."""
    for difference in RSK_DIFFERENCES:
        same_failure = (seen.path, seen.kind) == (difference.path, difference.kind)
        if same_failure and seen.method in difference.methods and profile in difference.profiles:
            return difference
    return None


def test_every_answer_fits_the_schemas_but_for_the_listed_rsk_differences(
    observed: tuple[str, list[Observed]],
) -> None:
    profile, found = observed
    unexplained = sorted({seen for seen in found if _explained(seen, profile) is None}, key=str)
    assert not unexplained, "\n".join(map(str, unexplained))


def test_every_listed_difference_is_seen(observed: tuple[str, list[Observed]]) -> None:
    profile, found = observed
    used = {_explained(seen, profile) for seen in found}
    stale = [d for d in RSK_DIFFERENCES if d not in used and profile in d.profiles]
    assert not stale, "\n".join(map(str, stale))


def test_the_spec_covers_the_methods_asked(observed: tuple[str, list[Observed]]) -> None:
    """Each method asked has a result schema in the vendored spec (the list is not stale)."""
    asked = {
        "eth_chainId", "eth_blockNumber", "eth_accounts", "net_version", "eth_gasPrice",
        "eth_getBlockByNumber", "eth_getBlockByHash", "eth_getBlockTransactionCountByNumber",
        "eth_getBlockTransactionCountByHash", "eth_getTransactionByHash",
        "eth_getTransactionByBlockHashAndIndex", "eth_getTransactionByBlockNumberAndIndex",
        "eth_getTransactionReceipt", "eth_getBalance", "eth_getTransactionCount", "eth_getCode",
        "eth_getStorageAt", "eth_getLogs", "eth_call", "eth_estimateGas",
        "eth_sendRawTransaction", "eth_syncing", "eth_coinbase", "eth_newFilter",
        "eth_newBlockFilter", "eth_newPendingTransactionFilter", "eth_getFilterChanges",
        "eth_getFilterLogs", "eth_uninstallFilter",
    }  # fmt: skip
    assert asked <= set(METHODS)
