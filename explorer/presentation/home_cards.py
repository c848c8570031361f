"""The home page's header cards and charts, computed from the blocks shown (no requests)."""

from __future__ import annotations

import enum
import itertools
import statistics
from dataclasses import dataclass

from explorer.chain.records import Block
from explorer.chain.units import format_gwei
from explorer.presentation.document import Tone
from explorer.presentation.format import age
from explorer.presentation.series import Series
from explorer.services.chaincheck import ChainCheck
from explorer.services.live import block_intervals, median_block_time
from explorer.services.routes import block_route

RECENT_BLOCK_TIMES = 20  # the block time card's median: the chain's pace now


class CardId(enum.Enum):
    """The header cards, in the order shown."""

    HEAD = "Head block"
    BLOCK_TIME = "Block time"
    GAS_PRICE = "Gas price"
    TRANSACTIONS = "Transactions per block"
    GAS_USED = "Gas used"
    UNCLES = "Uncles"
    CHAIN = "Chain id"
    REQUESTS = "Requests today"


@dataclass(frozen=True)
class Card:
    """One header card: a big value, a line of detail, its tone and a tooltip."""

    id: CardId
    value: str
    detail: str = ""
    tone: Tone = Tone.NORMAL
    tooltip: str = ""

    @property
    def title(self) -> str:
        """Return the card's title."""
        return self.id.value


@dataclass(frozen=True)
class Facts:
    """What the cards show besides the blocks: gas price, chain check, requests."""

    gas_price: int | None = None
    gas_price_block: int | None = None  # the head when eth_gasPrice answered
    check: ChainCheck | None = None
    requests_today: int = 0
    daily_quota: int = 0


def empty_cards() -> tuple[Card, ...]:
    """Return the cards before anything is known."""
    return tuple(Card(card, "—") for card in CardId)


def header_cards(blocks: list[Block], facts: Facts, now: float) -> tuple[Card, ...]:
    """Return every card for blocks (oldest first) and facts."""
    if not blocks:
        return empty_cards()
    head = blocks[-1]
    return (
        _head_card(head, blocks, now),
        _block_time_card(blocks),
        _gas_price_card(head, facts),
        _transactions_card(blocks),
        _gas_used_card(head, blocks),
        _uncles_card(blocks),
        _chain_card(facts.check),
        Card(
            CardId.REQUESTS,
            f"{facts.requests_today:,}",
            _quota_detail(facts.requests_today, facts.daily_quota),
            Tone.WAITING if _near_quota(facts) else Tone.NORMAL,
            "Requests this key spent today (UTC), counted by this app; the quota is set per "
            "network on the Node page.",
        ),
    )


def _head_card(head: Block, blocks: list[Block], now: float) -> Card:
    """Return the head's number and age; an old head for the chain's pace is flagged."""
    seconds = now - head.timestamp
    median = median_block_time(blocks)
    late = median is not None and seconds > max(10 * median, 120)
    detail = age(seconds) + (" · no newer block yet" if late else "")
    return Card(CardId.HEAD, f"#{head.number:,}", detail, Tone.WAITING if late else Tone.NORMAL)


PAUSE_FACTOR = 10  # a gap this many median block times long is a pause


def _block_time_card(blocks: list[Block]) -> Card:
    """Return the median time between the latest blocks; the longest pause, if one stands out.

    A mean would say little: one pause (a devnet started after days) makes it days.
    """
    intervals = block_intervals(blocks)
    if not intervals:
        return Card(CardId.BLOCK_TIME, "—", "one block shown")
    recent = intervals[-RECENT_BLOCK_TIMES:]
    median = statistics.median(recent)
    longest = max(intervals)
    detail = f"median of the last {len(recent)}"
    if longest > max(PAUSE_FACTOR * median, 60):
        detail += f" · longest {_seconds(longest)}"
    return Card(
        CardId.BLOCK_TIME,
        f"{median:,.0f} s",
        detail,
        tooltip=f"Time between blocks: the median of the last {len(recent)}, which a single "
        f"long pause does not change; the longest of the last {len(intervals)} took "
        f"{_seconds(longest)}.",
    )


def _seconds(value: float) -> str:
    """Return a duration as the ages read: `12 s`, `4 min`, `3 h 2 min`, `7 days`."""
    return age(value).removesuffix(" ago")


def _gas_price_card(head: Block, facts: Facts) -> Card:
    """Return eth_gasPrice next to the latest block's minimum gas price."""
    minimum = head.minimum_gas_price
    floor = "minimum —" if minimum is None else f"block minimum {format_gwei(minimum)}"
    if facts.gas_price is None:
        return Card(CardId.GAS_PRICE, "—", floor)
    where = f" (as of #{facts.gas_price_block:,})" if facts.gas_price_block is not None else ""
    below = minimum is not None and facts.gas_price < minimum
    return Card(
        CardId.GAS_PRICE,
        format_gwei(facts.gas_price),
        floor,
        Tone.BAD if below else Tone.NORMAL,
        f"eth_gasPrice{where}; a transaction must pay at least the block's minimum gas price"
        + (". The node suggests less than the minimum!" if below else "."),
    )


def _transactions_card(blocks: list[Block]) -> Card:
    """Return the transactions per block (REMASC's included), mean over the blocks shown."""
    counts = [len(block.transaction_hashes) for block in blocks]
    return Card(
        CardId.TRANSACTIONS,
        f"{statistics.fmean(counts):,.1f}",
        f"latest {counts[-1]:,} · mean of {len(counts)} blocks",
        tooltip="Every block ends with its REMASC transaction, counted here.",
    )


def _gas_used_card(head: Block, blocks: list[Block]) -> Card:
    """Return the latest block's gas used share and the mean share."""
    shares = [b.gas_used / b.gas_limit for b in blocks if b.gas_limit]
    latest = head.gas_used / head.gas_limit if head.gas_limit else 0.0
    mean = statistics.fmean(shares) if shares else 0.0
    return Card(
        CardId.GAS_USED, f"{latest:.1%}", f"of the limit · mean {mean:.1%}", tooltip="Latest block"
    )


def _uncles_card(blocks: list[Block]) -> Card:
    """Return the uncles the blocks shown reference."""
    uncles = sum(len(block.uncles) for block in blocks)
    holders = sum(1 for block in blocks if block.uncles)
    return Card(
        CardId.UNCLES,
        f"{uncles:,}",
        f"in {holders:,} of the last {len(blocks)} blocks",
        tooltip="Uncles: blocks mined beside the chain and referenced by a later block.",
    )


def _chain_card(check: ChainCheck | None) -> Card:
    """Return the chain check: the node's chain id and net_version against the network's."""
    if check is None or not check.settled:
        return Card(CardId.CHAIN, "…", "checking", Tone.WAITING)
    if check.verified:
        return Card(
            CardId.CHAIN, f"{check.chain_id} ✓", f"net_version {check.net_version}", Tone.GOOD
        )
    return Card(
        CardId.CHAIN,
        f"{check.chain_id} ✗",
        f"expected {check.expected_chain_id}",
        Tone.BAD,
    )


def _near_quota(facts: Facts) -> bool:
    """Tell whether the key has spent 80 % of its quota."""
    return facts.daily_quota > 0 and facts.requests_today >= 0.8 * facts.daily_quota


def _quota_detail(spent: int, quota: int) -> str:
    """Return `of 25,000 (4.9 %)`, or that no quota is set."""
    if quota <= 0:
        return "no daily quota set"
    return f"of {quota:,} ({spent / quota:.1%})"


def chart_series(blocks: list[Block]) -> tuple[Series, ...]:
    """Return the four charts of the blocks shown (oldest first): hover names the block."""
    numbers = [block.number or 0 for block in blocks]
    ends = (f"#{numbers[0]:,}", f"#{numbers[-1]:,}") if numbers else ("", "")
    links = tuple(block_route(n) for n in numbers)

    def series(title: str, values: list[float | None], notes: list[str]) -> Series:
        points = tuple(f"Block #{n:,}: {note}" for n, note in zip(numbers, notes, strict=True))
        return Series(title, "No blocks yet.", tuple(values), *ends, points, links)

    limit = pause_seconds(blocks)
    times = block_times(blocks)
    prices = [b.minimum_gas_price for b in blocks]
    return (
        series(
            "Block time (s)",
            [None if t is None or t > limit else float(t) for t in times],
            [_time_note(t, limit) for t in times],
        ),
        series(
            "Transactions per block",
            [float(len(b.transaction_hashes)) for b in blocks],
            [f"{len(b.transaction_hashes):,} transactions" for b in blocks],
        ),
        series(
            "Gas used",
            [float(b.gas_used) for b in blocks],
            [f"{b.gas_used:,} gas ({b.gas_used / (b.gas_limit or 1):.1%})" for b in blocks],
        ),
        series(
            "Minimum gas price (gwei)",
            [None if p is None else p / 10**9 for p in prices],
            ["—" if p is None else format_gwei(p) for p in prices],
        ),
    )


def _time_note(seconds: int | None, limit: float) -> str:
    """Return the hover note of a block time (a pause is named, not drawn)."""
    if seconds is None:
        return "—"
    if seconds > limit:
        return f"{_seconds(seconds)} after the block before: a pause, not drawn"
    return f"{seconds:,} s after the block before"


def block_times(blocks: list[Block]) -> list[int | None]:
    """Return each block's seconds since the block before (None: the first, or a gap)."""
    times: list[int | None] = [None] if blocks else []
    times += [
        b.timestamp - a.timestamp if b.number == (a.number or 0) + 1 else None
        for a, b in itertools.pairwise(blocks)
    ]
    return times


def pause_seconds(blocks: list[Block]) -> float:
    """Return the block time beyond which an interval is a pause (not drawn: it would flatten)."""
    median = median_block_time(blocks)
    return max(10 * (median or 0), 600.0)
