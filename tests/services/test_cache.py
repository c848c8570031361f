"""The saved-data cache against the devnet: requests counted where they reach the node."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from explorer.presentation.loaders import load_block, load_tx
from explorer.presentation.tx_document import TxFacts
from explorer.services.activity import TRANSFER_TOPIC
from explorer.services.logquery import LogQuery
from explorer.services.logscan import LogScanner
from explorer.services.session import Session
from tests.helpers.cache import beyond_check, sent, with_saved_session
from tests.helpers.devnet import Devnet
from tests.helpers.relay import Relay


@pytest.fixture
def relay(devnet: Devnet) -> Iterator[Relay]:
    """Yield a relay to the devnet's test network that records every request."""
    running = Relay(devnet.url("testnet"))
    yield running
    running.close()


def test_a_settled_transaction_read_again_asks_only_chain_and_head(
    relay: Relay, devnet: Devnet, tmp_path: Path
) -> None:
    """Cold: transaction, receipt and block from the node; warm (a new session): none of them."""
    tx_hash = devnet.manifest()["token_transfer"]

    async def page(session: Session) -> TxFacts:
        facts = await load_tx(session.reader, session.network, tx_hash)
        assert isinstance(facts, TxFacts)
        return facts

    cold = with_saved_session(relay.url, tmp_path, page)
    cold_sent = beyond_check(relay)
    assert cold_sent["eth_getTransactionByHash"] == 1
    assert cold_sent["eth_getTransactionReceipt"] == 1
    before = len(relay.server.requests)
    warm = with_saved_session(relay.url, tmp_path, page)
    assert beyond_check(relay, before) == {"eth_blockNumber": 1}
    assert sent(relay, before)["eth_getBlockByNumber"] == 1  # the genesis, once per session
    assert warm.tx == cold.tx
    assert warm.receipt == cold.receipt
    assert warm.block_timestamp == cold.block_timestamp


def test_a_settled_block_by_number_comes_from_the_saved_map(
    relay: Relay, devnet: Devnet, tmp_path: Path
) -> None:
    """A block read by number is found again through the number → hash map."""
    number = devnet.manifest()["head_at_build"] - 20

    async def page(session: Session) -> Any:
        loaded = await load_block(session.reader, session.network, str(number))
        assert loaded is not None
        return loaded[1]

    cold = with_saved_session(relay.url, tmp_path, page)
    before = len(relay.server.requests)
    warm = with_saved_session(relay.url, tmp_path, page)
    assert beyond_check(relay, before) == {"eth_blockNumber": 1}
    assert warm == cold


def test_a_block_within_n_of_the_head_is_asked_again(
    relay: Relay, devnet: Devnet, tmp_path: Path
) -> None:
    """The head's newest blocks are never answered from saved data."""

    async def page(session: Session) -> None:
        head = await session.reader.latest_number()
        await session.reader.block(head - 3, full=False)

    with_saved_session(relay.url, tmp_path, page)
    before = len(relay.server.requests)
    with_saved_session(relay.url, tmp_path, page)
    assert beyond_check(relay, before) == {"eth_blockNumber": 1, "eth_getBlockByNumber": 1}


def test_a_repeated_whole_history_scan_asks_for_the_unsettled_tail_only(
    relay: Relay, tmp_path: Path
) -> None:
    """The second Transfer scan over the whole history: the head and one eth_getLogs."""

    async def scan(session: Session) -> list[Any]:
        scanner = LogScanner(session.client)
        query = LogQuery(from_block="earliest", to_block="latest", topics=((TRANSFER_TOPIC,),))
        return [log async for batch in scanner.scan(query) for log in batch]

    cold = with_saved_session(relay.url, tmp_path, scan)
    assert beyond_check(relay)["eth_getLogs"] > 1
    before = len(relay.server.requests)
    warm = with_saved_session(relay.url, tmp_path, scan)
    assert beyond_check(relay, before) == {"eth_blockNumber": 1, "eth_getLogs": 1}
    assert warm == cold
