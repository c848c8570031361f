"""The home page's pure parts: the poll's pace, the cards and the charts of a run of blocks."""

from __future__ import annotations

import dataclasses

import pytest

from explorer.chain.records import Block
from explorer.presentation.document import Tone
from explorer.presentation.home_cards import CardId, Facts, chart_series, header_cards
from explorer.services.chaincheck import ChainCheck, Verification
from explorer.services.live import (
    FIRST_POLL_SECONDS,
    MAX_POLL_SECONDS,
    MIN_POLL_SECONDS,
    block_pace,
    poll_delay,
    poll_interval,
)
from tests.helpers.testnet import load

SAMPLE = Block.from_json(load("block-0x1b4-header-only.json"))


def chain(times: list[int], first: int = 100) -> list[Block]:
    """Return blocks first, first+1, … stamped with times."""
    return [
        dataclasses.replace(SAMPLE, number=first + i, timestamp=t, hash=f"0x{first + i:064x}")
        for i, t in enumerate(times)
    ]


def test_the_poll_follows_the_pace_of_the_blocks_mined_lately() -> None:
    """A devnet woken after days, now mining every 2 s: the history's 30 s pace is not used."""
    history = [30 * i for i in range(10)]
    woken = history + [10**8 + 2 * i for i in range(5)]
    blocks, now = chain(woken), 10**8 + 10
    assert poll_interval(blocks[:10], now) == FIRST_POLL_SECONDS  # no block mined lately
    assert poll_interval(blocks[:12], now) == 2.0  # two lately: a guess, at most 5 s
    assert poll_interval(blocks, now) == 2.0
    steady = chain([30 * i for i in range(20)])
    assert poll_interval(steady, steady[-1].timestamp + 10) == 30.0  # from the first poll
    slow = chain([300 * i for i in range(20)])
    assert poll_interval(slow, slow[-1].timestamp) == MAX_POLL_SECONDS
    fast = chain([i // 3 for i in range(20)])
    assert poll_interval(fast, fast[-1].timestamp) == MIN_POLL_SECONDS


def test_cards_show_gas_price_against_the_minimum_and_the_quota() -> None:
    """A suggested price under the block minimum is flagged; requests count against the quota."""
    blocks = chain([30 * i for i in range(10)])
    check = ChainCheck(Verification.VERIFIED, 31, chain_id=31, net_version="31")
    minimum = blocks[-1].minimum_gas_price
    assert minimum is not None
    facts = Facts(minimum - 1, blocks[-1].number, check, 20_500, 25_000)
    cards = {card.id: card for card in header_cards(blocks, facts, now=blocks[-1].timestamp + 5)}
    assert cards[CardId.GAS_PRICE].tone is Tone.BAD
    assert cards[CardId.HEAD].detail == "5 s ago"
    assert cards[CardId.BLOCK_TIME].value == "30 s"
    assert cards[CardId.CHAIN].value == "31 ✓"
    assert cards[CardId.REQUESTS].value == "20,500"
    assert cards[CardId.REQUESTS].detail == "of 25,000 (82.0%)"
    assert cards[CardId.REQUESTS].tone is Tone.WAITING


@pytest.mark.parametrize("pause", [10**6, 700])
def test_a_pause_is_named_on_hover_but_not_drawn(pause: int) -> None:
    """A long pause would flatten the block-time chart: it is a gap, its note says why."""
    blocks = chain([0, 30, 60, 60 + pause, 90 + pause])
    times = chart_series(blocks)[0]
    assert times.values == (None, 30.0, 30.0, None, 30.0)
    assert times.point(3).endswith("a pause, not drawn")
    assert str(times.link(3)) == f"block/{blocks[3].number}"


def test_the_poll_goes_just_after_the_next_block_is_due_and_backs_off_while_it_is_late() -> None:
    """30 s blocks: one poll 2 s after each is due; a late one is asked for less and less often."""
    steady = chain([30 * i for i in range(20)])
    newest = steady[-1].timestamp
    assert poll_delay(steady, newest + 10) == pytest.approx(22.0)  # due at +30, asked at +32
    assert poll_delay(steady, newest + 31.5) == MIN_POLL_SECONDS
    assert poll_delay(steady, newest + 33) == pytest.approx(7.5)  # late: a quarter of the pace
    assert poll_delay(steady, newest + 52) == pytest.approx(20.0)  # later: less often
    assert poll_delay(steady, newest + 10**6) == MAX_POLL_SECONDS  # a stalled chain
    woken = chain([30 * i for i in range(10)] + [10**8 + 3 * i for i in range(5)])
    assert block_pace(woken, 10**8 + 12) == 3.0  # the recent pace, not the history's
    assert poll_delay(woken, 10**8 + 12) == pytest.approx(3 + 1.2)  # whole-second timestamps
    assert poll_delay([], 0) == FIRST_POLL_SECONDS


def test_an_old_head_is_followed_by_one_early_poll_then_the_historys_pace() -> None:
    """Pace unknown: one poll 5 s after it shows (a fast chain shows), then the history's."""
    history = chain([30 * i for i in range(10)])
    shown = 10**8
    assert poll_delay(history, shown + 1, seen_at=shown) == pytest.approx(FIRST_POLL_SECONDS - 1)
    assert poll_delay(history, shown + 6, seen_at=shown) == pytest.approx(30 + 2 - 6)
    assert poll_delay(history, shown + 40, seen_at=shown) == pytest.approx(8.0)  # late
    assert poll_delay(history, shown + 10**4, seen_at=shown) == MAX_POLL_SECONDS  # stalled
    fresh = chain([30 * i for i in range(10)] + [shown])
    assert poll_delay(fresh, shown + 1, seen_at=shown + 1) == pytest.approx(30 + 2 - 1)


def test_the_block_time_card_names_a_pause_rather_than_a_mean_of_days() -> None:
    """A history mined 690 days ago then woken: the median, and the pause said as one.

    It read "mean of 99: 6 days" (one pause made the mean days long).
    """
    blocks = chain([30 * i for i in range(80)] + [10**8 + 30 * i for i in range(20)])
    check = ChainCheck(Verification.VERIFIED, 31, chain_id=31, net_version="31")
    facts = Facts(None, None, check, 0, 0)
    card = {c.id: c for c in header_cards(blocks, facts, now=10**8 + 600)}[CardId.BLOCK_TIME]
    assert card.value == "30 s"
    assert card.detail == "median of the last 20 · longest 1157 days"
    assert "mean" not in card.detail
    steady = {c.id: c for c in header_cards(blocks[-20:], facts, now=10**8 + 600)}
    assert steady[CardId.BLOCK_TIME].detail == "median of the last 19"
