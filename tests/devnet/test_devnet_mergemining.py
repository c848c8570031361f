"""The merge-mining fields served over HTTP verify end to end with chain.mergemining."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from explorer.chain.blockverify import Check, Outcome, verify_block
from explorer.chain.hexutil import parse_data
from explorer.chain.mergemining import verify_merge_mining
from explorer.chain.rawheader import cross_check
from explorer.chain.rskrules import MAINNET_RULES, TESTNET_RULES, NetworkRules
from tests.helpers.devnet import Devnet
from tests.helpers.devnet_client import RawRpc

RULES = {"testnet": TESTNET_RULES, "mainnet": MAINNET_RULES}


def assert_structurally_real(report: Any, where: object) -> None:
    """Coinbase tag, merkle proof, Bitcoin work and (from RSKIP110) block number check out."""
    assert not report.problems, (where, report.problems)
    assert report.tag_matches, where
    assert report.root_matches, where
    assert report.block_number_matches in (True, None), where


def report_for(block: dict[str, Any], rules: NetworkRules = TESTNET_RULES, **tamper: bytes) -> Any:
    """Verify a block object's merge-mining fields (optionally with some replaced)."""
    fields = {
        "header": parse_data(block["bitcoinMergedMiningHeader"]),
        "coinbase": parse_data(block["bitcoinMergedMiningCoinbaseTransaction"]),
        "proof": parse_data(block["bitcoinMergedMiningMerkleProof"]),
        "hash_for_merged_mining": parse_data(block["hashForMergedMining"]),
    } | tamper
    number = None if block["number"] is None else int(block["number"], 16)
    return verify_merge_mining(
        **fields,
        block_number=number,
        difficulty=int(block["difficulty"], 16),
        rskip92=rules.merge_mining_compressed(number or 0),
        fork_detection=rules.fork_detection_data(number or 0),
    )


@pytest.mark.parametrize("network", ["testnet", "mainnet"])
def test_seeded_blocks_verify(devnet: Devnet, rpc: RawRpc, rpc_main: RawRpc, network: str) -> None:
    """Blocks of every kind (first, big, with uncles, empty, latest) are real Rootstock blocks.

    Their hashes, transactions roots and merge mining recompute under the network's rules
    (testnet: RSKIP92, fork detection from block 449; mainnet at these heights: proof and
    coinbase in the hash, a partial merkle tree, Orchid tries).
    """
    client = rpc if network == "testnet" else rpc_main
    rules = RULES[network]
    seed = devnet.manifest(network)
    numbers = [1, 500, seed["big_block"], seed["uncle_blocks"][0], seed["empty_runs"][0][0]]
    selectors = [hex(number) for number in numbers] + ["latest"]
    for selector in selectors:
        block = client("eth_getBlockByNumber", selector, True)
        assert_structurally_real(report_for(block, rules), selector)
        verdict = verify_block(block, rules)
        assert verdict.verified, (selector, verdict.findings)
        number = int(block["number"], 16)
        if rules.fork_detection_data(number):
            assert parse_data(block["hashForMergedMining"])[-4:] == number.to_bytes(4, "big")


def test_a_freshly_mined_block_verifies(rpc: RawRpc, devnet: Devnet) -> None:
    """A block mined after start (by a sent transaction) carries real fields too."""
    head = rpc("eth_getBlockByNumber", "latest", False)
    assert_structurally_real(report_for(head), "latest")
    assert int(head["number"], 16) >= devnet.manifest()["head_at_build"]


def test_tampering_is_detected(rpc: RawRpc) -> None:
    """One changed byte of the proof or coinbase makes verification fail."""
    block = rpc("eth_getBlockByNumber", "0x2", False)
    proof = bytearray(parse_data(block["bitcoinMergedMiningMerkleProof"]))
    coinbase = bytearray(parse_data(block["bitcoinMergedMiningCoinbaseTransaction"]))
    assert proof, "the devnet's blocks should have a non-trivial merkle proof"
    proof[0] ^= 1
    coinbase[-40] ^= 1
    assert report_for(block).root_matches
    assert not report_for(block, proof=bytes(proof)).root_matches
    assert not report_for(block, coinbase=bytes(coinbase)).root_matches


def test_pending_block_has_no_merge_mining_data(rpc: RawRpc) -> None:
    """The pending block's fields are `0x`: nothing to verify, and the report says so."""
    pending = rpc("eth_getBlockByNumber", "pending", False)
    report = verify_merge_mining(
        header=parse_data(pending["bitcoinMergedMiningHeader"]),
        coinbase=parse_data(pending["bitcoinMergedMiningCoinbaseTransaction"]),
        proof=parse_data(pending["bitcoinMergedMiningMerkleProof"]),
        hash_for_merged_mining=parse_data(pending["hashForMergedMining"]),
    )
    assert not report.verified
    assert "pending" in report.problems[0]


@pytest.mark.parametrize("devnet", ["rskj"], indirect=True)
def test_receipts_root_and_raw_header_recompute(devnet: Devnet, http: httpx.Client) -> None:
    """The big block's receipts root recomputes, and rskj's raw header agrees with its JSON."""
    client = RawRpc(http, devnet.url("testnet"))
    block = client("eth_getBlockByNumber", hex(devnet.manifest()["big_block"]), True)
    receipts = [client("eth_getTransactionReceipt", tx["hash"]) for tx in block["transactions"]]
    verdict = verify_block(block, TESTNET_RULES, receipts=receipts)
    assert verdict.verified, verdict.findings
    outcomes = {finding.check: finding.outcome for finding in verdict.findings}
    assert outcomes[Check.RECEIPTS_ROOT] is Outcome.VERIFIED
    raw = parse_data(client("rsk_getRawBlockHeaderByHash", block["hash"]))
    assert cross_check(raw, block, TESTNET_RULES).outcome is Outcome.VERIFIED
    forged = {**block, "gasUsed": hex(int(block["gasUsed"], 16) + 1)}
    assert cross_check(raw, forged, TESTNET_RULES).outcome is Outcome.MISMATCH
