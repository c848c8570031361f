"""Check a decoded signed transaction with reads only, then send it exactly once.

The check reads what the node will judge it by (docs/service.md §15.5): the sender's nonces
and balance, the latest block's minimum gas price and gas limit, eth_gasPrice, and runs the
same call through eth_call beside eth_estimateGas (services/estimate.py: a revert is seen on
either node, and the service's estimate for a failing call is flagged, §4.3.1). Sending is
one eth_sendRawTransaction that is never resent (the client retries it only when the request
never left); its answer is checked against the hash decoded here.
"""

from __future__ import annotations

import asyncio
import enum
import time
from dataclasses import dataclass

from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import (
    AuthError,
    InvalidInput,
    MalformedResponse,
    NodeError,
    RateLimited,
    RpcError,
    TransportError,
)
from explorer.saved.seen import SeenStore, SeenTx, seen_by
from explorer.services.diagnosis import SenderState, read_sender_state
from explorer.services.estimate import Preflight, preflight
from explorer.services.rawtx import SignedTx
from explorer.services.reader import ChainReader

ZERO_HASH = "0x" + "00" * 32
MAX_SIZE = 128 * 1024  # rskj's TxPendingValidator.TX_MAX_SIZE


class Issue(enum.Enum):
    """Something the check found; `refused` ones make the node say no."""

    NONCE_USED = "nonce already used"
    NONCE_REPLACES = "replaces a pending transaction"
    NONCE_GAP = "nonce gap: it will queue"
    PRICE_BELOW_MINIMUM = "gas price below the block minimum"
    PRICE_BELOW_NODE = "gas price below the node's price"
    INSUFFICIENT_FUNDS = "the sender cannot pay"
    FUNDS_SHORT = "the sender cannot pay it yet"  # queued: rskj checks only gas × price then
    GAS_ABOVE_BLOCK_LIMIT = "more gas than a block holds"
    TOO_LARGE = "larger than the node accepts"
    REVERTS = "the call reverts"
    CALL_FAILED = "the dry run failed"
    GAS_BELOW_ESTIMATE = "gas limit below the estimate"
    ESTIMATE_DESPITE_FAILURE = "an estimate for a call that fails"
    NO_CHAIN_ID = "no chain id (replayable)"
    NOT_SIMULATED = "a contract creation is not simulated"

    @property
    def refused(self) -> bool:
        """Tell whether the node refuses a transaction with this issue."""
        return self in REFUSED


REFUSED = frozenset(
    {
        Issue.NONCE_USED,
        Issue.PRICE_BELOW_MINIMUM,
        Issue.INSUFFICIENT_FUNDS,
        Issue.GAS_ABOVE_BLOCK_LIMIT,
        Issue.TOO_LARGE,
    }
)


@dataclass(frozen=True)
class BroadcastCheck:
    """The reads before sending: the sender's state, the dry run, and what they show."""

    tx: SignedTx
    state: SenderState
    execution: Preflight | None  # None for a contract creation: a call object needs `to` (§2.2)
    issues: tuple[Issue, ...]

    @property
    def refused(self) -> bool:
        """Tell whether the node will most likely refuse it."""
        return any(issue.refused for issue in self.issues)


def find_issues(tx: SignedTx, state: SenderState, execution: Preflight | None) -> tuple[Issue, ...]:
    """Name everything worth saying before the transaction is sent."""
    issues: list[Issue] = []
    if tx.nonce < state.mined_nonce:
        issues.append(Issue.NONCE_USED)
    elif tx.nonce < state.pending_nonce:
        issues.append(Issue.NONCE_REPLACES)
    elif tx.nonce > state.pending_nonce:
        issues.append(Issue.NONCE_GAP)
    queues = tx.nonce > state.pending_nonce
    if state.balance < tx.gas * tx.gas_price or (state.balance < tx.max_cost and not queues):
        issues.append(Issue.INSUFFICIENT_FUNDS)
    elif state.balance < tx.max_cost:
        issues.append(Issue.FUNDS_SHORT)
    if state.minimum_gas_price is not None and tx.gas_price < state.minimum_gas_price:
        issues.append(Issue.PRICE_BELOW_MINIMUM)
    elif tx.gas_price < state.gas_price:
        issues.append(Issue.PRICE_BELOW_NODE)
    if state.block_gas_limit and tx.gas > state.block_gas_limit:
        issues.append(Issue.GAS_ABOVE_BLOCK_LIMIT)
    if len(tx.raw) > MAX_SIZE:
        issues.append(Issue.TOO_LARGE)
    if tx.chain_id is None:
        issues.append(Issue.NO_CHAIN_ID)
    if execution is None:
        issues.append(Issue.NOT_SIMULATED)
        return tuple(issues)
    if execution.call_reverts or execution.estimate.reverts:
        issues.append(Issue.REVERTS)
    elif execution.call_error is not None:
        issues.append(Issue.CALL_FAILED)
    if execution.estimate_despite_failure:
        issues.append(Issue.ESTIMATE_DESPITE_FAILURE)
    estimated = execution.estimate.gas
    if estimated is not None and not execution.would_fail and tx.gas < estimated:
        issues.append(Issue.GAS_BELOW_ESTIMATE)
    return tuple(issues)


async def check_before_sending(reader: ChainReader, tx: SignedTx) -> BroadcastCheck:
    """Read the sender's state and dry-run the call, all at once (seven requests, reads only)."""
    if tx.to is None:
        state = await read_sender_state(reader, tx.sender)
        return BroadcastCheck(tx, state, None, find_issues(tx, state, None))
    state, execution = await asyncio.gather(
        read_sender_state(reader, tx.sender), preflight(reader.client, tx.call_object())
    )
    return BroadcastCheck(tx, state, execution, find_issues(tx, state, execution))


class Answer(enum.Enum):
    """How the node answered the one eth_sendRawTransaction."""

    ACCEPTED = "accepted"  # it answered the hash decoded here
    ACCEPTED_LATER = "accepted, not yet available"  # the zero hash (§4.2)
    OTHER_HASH = "answered another hash"
    REFUSED = "refused"  # a node error, shown as the node said it
    NOT_SENT = "not sent"  # the request never reached the node, or the service refused it
    UNKNOWN = "may have arrived"  # the connection failed after sending: never resent


@dataclass(frozen=True)
class SendResult:
    """The node's answer to the one send; the transaction is tracked by its decoded hash."""

    tx: SignedTx
    answer: Answer
    node_hash: str | None = None
    error: RpcError | None = None

    @property
    def in_flight(self) -> bool:
        """Tell whether the node may have the transaction (worth tracking)."""
        return self.answer not in (Answer.REFUSED, Answer.NOT_SENT)


async def send_once(reader: ChainReader, tx: SignedTx) -> SendResult:
    """Send the transaction with one eth_sendRawTransaction and read the answer."""
    try:
        answered = await reader.client.send_raw_transaction(tx.raw)
    except NodeError as error:
        return SendResult(tx, Answer.REFUSED, error=error)
    except (AuthError, RateLimited, InvalidInput) as error:
        return SendResult(tx, Answer.NOT_SENT, error=error)
    except TransportError as error:
        return SendResult(tx, Answer.UNKNOWN if error.maybe_sent else Answer.NOT_SENT, error=error)
    except (MalformedResponse, RpcError) as error:
        return SendResult(tx, Answer.UNKNOWN, error=error)
    if answered == ZERO_HASH:
        return SendResult(tx, Answer.ACCEPTED_LATER, answered)
    if answered != tx.hash:
        return SendResult(tx, Answer.OTHER_HASH, answered)
    return SendResult(tx, Answer.ACCEPTED, answered)


def sent_record(
    tx: SignedTx, chain_id: int, head: int | None, endpoint: str, now: float | None = None
) -> SeenTx:
    """Return the local record of a transaction sent from here through an endpoint (`seen_by`)."""
    when = time.time() if now is None else now
    return SeenTx(chain_id, tx.pooled, when, head, when, head, sent_here=True, seen_by=endpoint)


async def remember_sent(
    store: SeenStore | None,
    result: SendResult,
    chain_id: int,
    head: int | None,
    endpoint: Endpoint | None,
) -> None:
    """Keep a sent transaction that the node may have, so a later page can explain it."""
    if store is not None and result.in_flight:
        await store.note(sent_record(result.tx, chain_id, head, seen_by(endpoint)))
