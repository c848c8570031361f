"""The money trail: every native value move and token transfer, in execution order, and its sums.

Value moves come from the call tree's frames that took effect (a frame that failed undoes
everything under it); token transfers from `Transfer(address,address,uint256)` events (three
topics: ERC-20, an amount in data; four: ERC-721, the token id); the fee last, from the sender
to REMASC. The state diff reconciles with it: for every address, its balance before, plus what
it received, minus what it sent (the fee included), is its balance after.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence

from eth_utils.abi import event_signature_to_log_topic

from explorer.chain.known import REMASC
from explorer.chain.logrecords import Log
from explorer.chain.trace import AssetKind, CallFrame, StateDiff, TraceLog, Transfer

TRANSFER_TOPIC = "0x" + event_signature_to_log_topic("Transfer(address,address,uint256)").hex()
NATIVE = "native"


def _topic_address(topic: str) -> str:
    """Return the address a 32-byte topic holds."""
    return "0x" + topic[-40:]


def token_transfer(log: TraceLog | Log, depth: int | None, seq: int) -> Transfer | None:
    """Return the token transfer an event records, or None for any other event."""
    topics = log.topics
    if not topics or topics[0].lower() != TRANSFER_TOPIC or len(topics) not in (3, 4):
        return None
    sender, receiver = _topic_address(topics[1]), _topic_address(topics[2])
    if len(topics) == 4:
        return Transfer(AssetKind.ERC721, log.address.lower(), sender, receiver,
                        int(topics[3], 16), depth, seq)  # fmt: skip
    if len(log.data) != 32:
        return None
    amount = int.from_bytes(log.data, "big")
    return Transfer(AssetKind.ERC20, log.address.lower(), sender, receiver, amount, depth, seq)


def _kept(frame: CallFrame) -> Iterator[CallFrame]:
    """Yield the frames that took effect: a failed frame undoes itself and all under it."""
    if not frame.ok:
        return
    yield frame
    for call in frame.calls:
        yield from _kept(call)


def money_trail(
    root: CallFrame | None, sender: str, fee: int, receipt_logs: Sequence[Log] = ()
) -> tuple[Transfer, ...]:
    """Return the transaction's moves in execution order, the fee last.

    With frames that carry their events (a replay), token transfers come from them at their
    depth; otherwise (a node's trace) from the receipt's logs, at no known depth.
    """
    moves: list[Transfer] = []
    frames = list(_kept(root)) if root is not None else []
    for frame in frames:
        if frame.kind.moves_value and frame.value and frame.to is not None:
            moves.append(Transfer(AssetKind.NATIVE, NATIVE, frame.sender, frame.to,
                                  frame.value, frame.depth, frame.seq))  # fmt: skip
        for event in frame.logs:
            found = token_transfer(event, frame.depth, event.seq)
            if found is not None:
                moves.append(found)
    if not any(frame.logs for frame in frames):
        last = max((m.seq for m in moves), default=0)
        for offset, log in enumerate(receipt_logs, start=1):
            found = token_transfer(log, None, last + offset)
            if found is not None:
                moves.append(found)
    moves.sort(key=lambda move: move.seq)
    end = (moves[-1].seq if moves else 0) + 1
    if fee:
        moves.append(Transfer(AssetKind.FEE, NATIVE, sender, REMASC, fee, 0, end))
    return tuple(moves)


def running_totals(transfers: Iterable[Transfer]) -> list[Mapping[tuple[str, str], int]]:
    """Return, after each transfer, every (asset, address)'s net change so far."""
    totals: dict[tuple[str, str], int] = defaultdict(int)
    after: list[Mapping[tuple[str, str], int]] = []
    for move in transfers:
        totals[(move.asset, move.sender)] -= move.amount
        totals[(move.asset, move.receiver)] += move.amount
        after.append(dict(totals))
    return after


def native_net(transfers: Iterable[Transfer]) -> dict[str, int]:
    """Return each address's net RBTC change over the trail (fee included)."""
    net: dict[str, int] = defaultdict(int)
    for move in transfers:
        if move.native:
            net[move.sender] -= move.amount
            net[move.receiver] += move.amount
    return dict(net)


def reconcile(diff: StateDiff, transfers: Iterable[Transfer]) -> list[str]:
    """Return every address whose balance change the trail does not explain (empty: all do)."""
    net = native_net(transfers)
    problems = []
    changed = {change.address: change for change in diff.balances}
    for address in sorted(set(changed) | {a for a, amount in net.items() if amount}):
        change = changed.get(address)
        moved = change.after - change.before if change else 0
        if moved != net.get(address, 0):
            problems.append(
                f"{address}: the balance moved {moved:+,} wei, the money trail explains "
                f"{net.get(address, 0):+,}"
            )
    return problems
