"""Why an address's balance changed in a block: its transactions, REMASC, a peg-in, or a contract.

The block (full transactions, from the cache when settled) names what the address sent and
received; the receipts of what it sent give the fees and whether the value moved. What is
left of the change is asked of the node's logs in one request: REMASC's payments name their
receiver in topic 1 (`mining_fee_topic`), as the Bridge's `pegin_btc` and `lock_btc` do.
Whatever is left after that moved inside a contract's execution.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import rlp
from eth_hash.auto import keccak

from explorer.chain.bridge_abi import bridge_topic
from explorer.chain.bridge_events import DecodedBridgeLog, LockBtc, PeginBtc
from explorer.chain.bridge_logs import decode_system_log
from explorer.chain.history import NATIVE, Direction, EntryKind, HistoryEntry
from explorer.chain.known import REMASC
from explorer.chain.records import Block, Log, Receipt, Transaction
from explorer.chain.remasc import MINING_FEE_TOPIC, RemascPayment
from explorer.services.balance_search import Change
from explorer.services.reader import ChainReader

PEGIN_BTC_TOPIC = bridge_topic("pegin_btc")
LOCK_BTC_TOPIC = bridge_topic("lock_btc")
WEI_PER_SATOSHI = 10**10
PLAIN_TRANSFER_GAS = 21_000  # a transaction's intrinsic gas: a gas limit this low runs no code
UNEXPLAINED_ORDER = 1 << 30  # after the block's transactions, before REMASC (the last one)


class Inside(Protocol):
    """Finds the calls behind a block's contract execution (services/history_inside.py)."""

    async def explain(self, entries: list[HistoryEntry], block: Block) -> list[HistoryEntry]:
        """Return entries with the contract execution split into the moves behind it."""
        ...


@dataclass(frozen=True)
class Attribution:
    """A change's entries; whether the block could not explain the nonce's rise, or the value.

    `impossible` says why the change could not have happened at all (value moved by no
    transaction of the address, no logged payment, and no code run in the block): the node
    answered a state that was not, such as old state as 0x0 ('' when it could).
    """

    entries: list[HistoryEntry]
    nonce_unexplained: bool = False
    impossible: str = ""


def topic_of(address: str) -> str:
    """Return an address as a 32-byte topic."""
    return "0x" + address[2:].rjust(64, "0")


def created_address(tx: Transaction) -> str | None:
    """Return the address a contract creation makes (keccak of RLP [sender, nonce]), else None."""
    if tx.to is not None:
        return None
    sender = bytes.fromhex(tx.sender[2:])
    return "0x" + keccak(rlp.encode([sender, tx.nonce]))[12:].hex()


def receiver_of(tx: Transaction) -> str | None:
    """Return who a transaction's value goes to: `to`, or the contract it creates."""
    return tx.to if tx.to is not None else created_address(tx)


def direction_of(tx: Transaction, address: str) -> Direction:
    """Return which way a transaction of the address goes."""
    if tx.sender == address and receiver_of(tx) == address:
        return Direction.SELF
    return Direction.OUT if tx.sender == address else Direction.IN


def tx_entry(
    tx: Transaction, address: str, receipt: Receipt | None, timestamp: int | None
) -> HistoryEntry:
    """Return the entry of a transaction sent by or to the address (value lost if it failed)."""
    direction = direction_of(tx, address)
    failed = receipt is not None and receipt.succeeded is False
    kind = {Direction.SELF: EntryKind.SELF, Direction.OUT: EntryKind.SENT}.get(
        direction, EntryKind.RECEIVED
    )
    counterparty = tx.sender if direction is Direction.IN else receiver_of(tx)
    fee = (
        receipt.fee(tx.gas_price) if receipt is not None and direction is not Direction.IN else None
    )
    return HistoryEntry(
        block=tx.block_number or 0,
        timestamp=timestamp,
        tx_hash=tx.hash,
        kind=kind,
        asset=NATIVE,
        counterparty=counterparty,
        amount=0 if failed else tx.value,
        direction=direction,
        fee=fee,
        order=tx.transaction_index or 0,
        failed=failed,
    )


def own_transactions(block: Block, address: str) -> list[Transaction]:
    """Return the block's transactions sent by or to the address (or creating it), in order.

    Only candidates are parsed (a 1,000-transaction block is passed over in its raw form).
    """
    transactions = block.transactions
    if transactions is None:
        return []
    candidates = transactions.involving(address)
    return [tx for tx in candidates if address in (tx.sender, receiver_of(tx))]


def with_balances(entries: Sequence[HistoryEntry], before: int) -> list[HistoryEntry]:
    """Return entries in block order with the native balance after each."""
    running, result = before, []
    for entry in sorted(entries, key=lambda e: e.sort_key):
        running += entry.signed_amount
        result.append(replace(entry, balance_after=running))
    return result


def residual_entries(
    logs: Sequence[Log], residual: int, block: Block, address: str
) -> list[HistoryEntry]:
    """Return the REMASC payments and peg-ins the logs name, then what is still unexplained."""
    entries: list[HistoryEntry] = []
    for log in logs:
        amount, kind = _credit(log)
        if amount <= 0 or kind is None or _receiver(log) != address:
            continue
        entries.append(_credited(block, kind, log, amount))
        residual -= amount
    if residual:
        direction = Direction.IN if residual > 0 else Direction.OUT
        entries.append(
            HistoryEntry(
                block.number or 0,
                block.timestamp,
                None,
                EntryKind.CONTRACT,
                NATIVE,
                None,
                abs(residual),
                direction,
                order=UNEXPLAINED_ORDER,
            )
        )
    return entries


def runs_code(block: Block) -> bool:
    """Tell whether any transaction of a block could run a contract (REMASC's aside).

    One with a gas limit of a plain transfer's intrinsic cost cannot run any code.
    """
    transactions = block.transactions
    return transactions is None or any(
        tx.to != REMASC and (tx.to is None or tx.gas > PLAIN_TRANSFER_GAS)
        for tx in transactions.well_formed()
    )


def impossible_change(entries: Sequence[HistoryEntry], block: Block, before: int) -> str:
    """Return why a change no code in its block could have made is impossible ('' if not)."""
    moved = sum(e.amount for e in entries if e.kind is EntryKind.CONTRACT and e.tx_hash is None)
    if not moved or runs_code(block):
        return ""
    why = (
        "its balance before it was answered as 0x0, as for old state a node does not keep"
        if before == 0
        else "one of the two balances is false"
    )
    return (
        f"{moved:,} wei moved in block {block.number or 0:,}, which holds no transaction of the "
        f"address, no payment to it and no contract call: {why}"
    )


def _moved(receipt: Receipt | None) -> bool:
    """Tell whether a received transaction's value arrived (it did unless it failed)."""
    return receipt is None or receipt.succeeded is not False


def _receiver(log: Log) -> str | None:
    """Return the address in a log's topic 1."""
    return "0x" + log.topics[1][-40:] if len(log.topics) > 1 else None


def _credit(log: Log) -> tuple[int, EntryKind | None]:
    """Return what a REMASC or Bridge log credits its receiver, and as what (0 if not one)."""
    decoded = decode_system_log(log.address, log.topics, log.data)
    if isinstance(decoded, RemascPayment):
        return decoded.amount, EntryKind.REWARD
    event = decoded.event if isinstance(decoded, DecodedBridgeLog) else None
    if isinstance(event, PeginBtc | LockBtc):
        return event.amount_sat * WEI_PER_SATOSHI, EntryKind.PEGIN
    return 0, None


def _nonce_only(block: Block) -> HistoryEntry:
    """Return the entry of a change of nonce alone (no value moved)."""
    return HistoryEntry(block.number or 0, block.timestamp, None, EntryKind.CONTRACT, NATIVE,
                        None, 0, Direction.SELF, order=UNEXPLAINED_ORDER)  # fmt: skip


def _credited(block: Block, kind: EntryKind, log: Log, amount: int) -> HistoryEntry:
    """Return the entry of a REMASC payment or a peg-in."""
    order = log.transaction_index if log.transaction_index is not None else UNEXPLAINED_ORDER
    if kind is EntryKind.REWARD:
        order = UNEXPLAINED_ORDER + 1  # REMASC's transaction ends the block
    return HistoryEntry(block.number or 0, block.timestamp, None, kind, NATIVE, log.address,
                        amount, Direction.IN, order=order)  # fmt: skip


class Attributor:
    """Turns changed blocks into entries through a reader (blocks and receipts cached).

    For an address with code (`contract`) the nonce says nothing of what it sent: a contract's
    nonce rises when it is made and when it makes contracts.
    """

    def __init__(
        self,
        reader: ChainReader,
        address: str,
        contract: bool = False,
        inside: Inside | None = None,
    ) -> None:
        """Attribute address's changes; inside finds who moved a contract execution's value."""
        self.reader = reader
        self.address = address
        self.contract = contract
        self.inside = inside

    async def block(self, number: int) -> Block:
        """Return a block with full transactions (a missing one is the node's fault)."""
        block = await self.reader.block(number, full=True)
        if block is None:
            raise LookupError(f"the node has no block {number:,}")
        return block

    async def attribute(self, change: Change) -> Attribution:
        """Return the entries that explain a change, with the balance after each."""
        block = await self.block(change.block)
        own = own_transactions(block, self.address)
        sent = [tx for tx in own if tx.sender == self.address]
        receipts = await self._receipts(sent)
        entries = [tx_entry(tx, self.address, receipts.get(tx.hash), block.timestamp) for tx in own]
        residual = change.delta - sum(entry.signed_amount for entry in entries)
        received = [tx for tx in own if tx.sender != self.address]
        if residual and received:  # a received transaction may have failed: its value stayed
            receipts |= await self._receipts(received)
            entries = [tx_entry(tx, self.address, receipts.get(tx.hash), block.timestamp)
                       for tx in own if tx in sent or _moved(receipts.get(tx.hash))]  # fmt: skip
            residual = change.delta - sum(entry.signed_amount for entry in entries)
        if residual:
            entries += residual_entries(await self._credits(block), residual, block, self.address)
            if self.inside is not None:
                entries = await self.inside.explain(entries, block)
        if not entries:  # only the nonce moved: a contract made a contract
            entries.append(_nonce_only(block))
        unexplained = not self.contract and len(sent) < change.sent
        impossible = impossible_change(entries, block, change.before.balance)
        return Attribution(with_balances(entries, change.before.balance), unexplained, impossible)

    async def _receipts(self, txs: Sequence[Transaction]) -> dict[str, Receipt]:
        """Return the receipts of transactions, read concurrently (cached when settled)."""
        found = await asyncio.gather(*(self.reader.receipt(tx.hash) for tx in txs))
        return {tx.hash: receipt for tx, receipt in zip(txs, found, strict=True) if receipt}

    async def _credits(self, block: Block) -> list[Log]:
        """Return the block's REMASC payments and peg-ins to the address (one eth_getLogs).

        By topics alone (the service's filter takes one address); `_credit` checks who wrote each.
        """
        query = {
            "blockHash": block.hash,
            "topics": [[MINING_FEE_TOPIC, PEGIN_BTC_TOPIC, LOCK_BTC_TOPIC], topic_of(self.address)],
        }
        return await self.reader.client.get_logs(query)
