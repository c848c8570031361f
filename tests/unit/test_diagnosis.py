"""What holds a pending transaction, said in one sentence with its numbers; why one failed."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from explorer.chain.pooled import PooledTx
from explorer.chain.records import Receipt, Transaction
from explorer.presentation.diagnosis_document import (
    eviction_text,
    pending_sentence,
    wait_text,
)
from explorer.presentation.tx_document import TxFacts, status_field
from explorer.rpc.nodefailures import NodeFailure
from explorer.saved.seen import SeenTx
from explorer.services.diagnosis import (
    POOL_EXPIRY_SECONDS,
    Hold,
    SenderState,
    judge_pending,
    wait_since,
)

RBTC = 10**18
CANDIDATE = PooledTx("0x" + "aa" * 32, "0x" + "bb" * 20, 185, 66_000_000, 21_000, 10**15)
STATE = SenderState(
    mined_nonce=185,
    pending_nonce=186,
    balance=RBTC,
    head=1_000,
    head_timestamp=1_700_000_000,
    minimum_gas_price=60_000_000,
    gas_price=66_000_000,
    block_gas_limit=6_800_000,
)


def judged(candidate: PooledTx = CANDIDATE, **state: Any) -> tuple[tuple[Hold, ...], str]:
    """Return the reasons and the sentence for a candidate against a changed state."""
    diagnosis = judge_pending(candidate, replace(STATE, **state), None)
    return diagnosis.holds, pending_sentence(diagnosis, "tRBTC")


def test_next_in_line() -> None:
    holds, sentence = judged()
    assert holds == (Hold.NEXT_IN_LINE,)
    assert sentence.startswith("next in line: nonce 185 is the sender's next")


def test_behind_the_senders_pending_transactions() -> None:
    holds, sentence = judged(replace(CANDIDATE, nonce=188), pending_nonce=189)
    assert holds == (Hold.BEHIND_PENDING,)
    assert "behind 3 pending transactions from this sender (nonces 185–187)" in sentence


def test_a_nonce_gap_names_the_missing_nonces() -> None:
    holds, sentence = judged(replace(CANDIDATE, nonce=189), pending_nonce=185)
    assert holds == (Hold.NONCE_GAP,)
    assert sentence == ("waiting for nonces 185–188 from this sender, which the node has not seen")
    _, single = judged(replace(CANDIDATE, nonce=186), pending_nonce=185)
    assert "waiting for nonce 185 from" in single


def test_a_price_below_the_block_minimum_holds_it_first() -> None:
    holds, sentence = judged(minimum_gas_price=70_000_000)
    assert holds[0] is Hold.PRICE_BELOW_MINIMUM
    assert "0.066 gwei is below the latest block's minimum 0.07 gwei" in sentence


def test_insufficient_funds_say_how_much_is_missing() -> None:
    holds, sentence = judged(balance=10**14)
    assert holds[0] is Hold.INSUFFICIENT_FUNDS
    assert "a balance of 0.0001 tRBTC" in sentence
    # amounts as people read them (issue 31 item 5): four significant digits
    assert "value + gas × gas price = 0.001001 tRBTC" in sentence
    assert "short by 0.0009014 tRBTC" in sentence


def test_a_gap_and_no_funds_are_both_said() -> None:
    holds, sentence = judged(replace(CANDIDATE, nonce=190), pending_nonce=185, balance=0)
    assert holds == (Hold.INSUFFICIENT_FUNDS, Hold.NONCE_GAP)
    assert "cannot pay" in sentence
    assert "; and waiting for nonces 185–189" in sentence


def test_a_used_nonce_can_never_be_mined() -> None:
    holds, sentence = judged(mined_nonce=190, pending_nonce=190)
    assert holds[0] is Hold.NONCE_USED
    assert "can never be mined" in sentence


def seen(first_seen: float, first_block: int | None) -> SeenTx:
    """Return a record of the candidate first seen then."""
    return SeenTx(31, CANDIDATE, first_seen, first_block, first_seen, first_block)


def test_waiting_is_measured_against_rskjs_eviction() -> None:
    now = 1_700_000_100.0
    wait = wait_since(seen(now - 100, 997), head=1_000, now=now)
    assert wait is not None
    assert (wait.seconds, wait.blocks, wait.blocks_left, wait.seconds_left) == (100, 3, 7, 550)
    assert not wait.expired
    assert wait_text(wait, now).startswith("1 min 40 s and 3 blocks since this app first saw it")
    assert eviction_text(wait).endswith("at most 7 blocks or 9 min 10 s left")
    late = wait_since(seen(now - POOL_EXPIRY_SECONDS, 999), head=1_000, now=now)
    assert late is not None
    assert late.expired
    assert "may be dropped any time" in eviction_text(late)
    assert wait_since(None, 1_000, now) is None
    assert wait_text(None, now) == "not seen by this app before"


def test_a_replacement_must_pay_rskjs_bump() -> None:
    assert CANDIDATE.bump_price == 92_400_000
    assert replace(CANDIDATE, gas_price=1).bump_price == 2


def records(gas_used: int, reason: str | None) -> TxFacts:
    """Return a mined, failed transaction with this gas used and replay reason."""
    tx = Transaction.from_json(
        {
            "hash": "0x" + "aa" * 32,
            "nonce": "0x1",
            "from": "0x" + "bb" * 20,
            "to": "0x" + "cc" * 20,
            "gas": "0x55f0",
            "gasPrice": "0x1",
            "value": "0x0",
            "input": "0x",
            "blockHash": "0x" + "dd" * 32,
            "blockNumber": "0x10",
            "transactionIndex": "0x0",
            "v": "0x62",
            "r": "0x1",
            "s": "0x1",
            "type": "0x0",
        }
    )
    receipt = Receipt.from_json(
        {
            "transactionHash": tx.hash,
            "transactionIndex": "0x0",
            "blockHash": tx.block_hash,
            "blockNumber": "0x10",
            "cumulativeGasUsed": hex(gas_used),
            "gasUsed": hex(gas_used),
            "logs": [],
            "status": "0x0",
        }
    )
    return TxFacts(tx, receipt, 1_700_000_000, 20, reason)


@pytest.mark.parametrize(
    ("gas_used", "reason", "expected"),
    [
        (
            22_000,
            "out of gas or an error that does not repeat in a replay",
            "FAILED: ran out of gas (used all 22,000 gas of its limit)",
        ),
        (21_500, "Reverter: value too large", "FAILED: reverted with “Reverter: value too large”"),
        (
            21_500,
            NodeFailure.INSUFFICIENT_FUNDS.human + " (node error -32010: insufficient funds)",
            "FAILED: out of funds — the sender could not pay value + gas × gas price then",
        ),
    ],
)
def test_why_a_transaction_failed(gas_used: int, reason: str, expected: str) -> None:
    assert status_field(records(gas_used, reason)).text.startswith(expected)
