"""The saved-data cache against the devnet: requests counted where they reach the node."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from explorer.presentation.loaders import load_block
from explorer.services.activity import TRANSFER_TOPIC
from explorer.services.logquery import LogQuery
from explorer.services.logscan import LogScanner
from explorer.services.networks import custom_network
from explorer.services.session import Session
from explorer.services.tokens import TokenInfo, TokenReader
from tests.helpers.cache import (
    beyond_check,
    endpoint_files,
    locked_file,
    offline_answers,
    sent,
    tx_page,
    with_saved_session,
)
from tests.helpers.devnet import Devnet
from tests.helpers.relay import Relay


def test_a_settled_transaction_read_again_asks_only_chain_and_head(
    relay: Relay, devnet: Devnet, tmp_path: Path
) -> None:
    """Cold: transaction, receipt and block from the node; warm (a new session): none of them."""
    page = tx_page(devnet.manifest()["token_transfer"])
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


def test_a_damaged_file_is_moved_aside_and_rebuilt_with_a_message(
    relay: Relay, devnet: Devnet, tmp_path: Path
) -> None:
    """Garbage in the chain's file: a message, the file aside, right answers, warm again later."""
    page = tx_page(devnet.manifest()["token_transfer"])
    cold = with_saved_session(relay.url, tmp_path, page)
    (chain_file,) = endpoint_files(tmp_path, 31)
    chain_file.write_bytes(b"not a database, " * 4096)
    notices: list[str] = []
    rebuilt = with_saved_session(relay.url, tmp_path, page, notices=notices)
    assert rebuilt.tx == cold.tx  # from the node: nothing wrong was read from the damage
    assert len(notices) == 1
    assert "moved aside" in notices[0]
    assert "chain 31" in notices[0]
    (aside,) = tmp_path.glob("chain-31-*.sqlite3.broken-*")
    assert aside.read_bytes().startswith(b"not a database")
    before = len(relay.server.requests)
    again = with_saved_session(relay.url, tmp_path, page)
    assert beyond_check(relay, before) == {"eth_blockNumber": 1}  # the new file was filled
    assert again.tx == cold.tx


def test_a_locked_file_is_skipped_waited_for_and_never_discarded(
    relay: Relay, devnet: Devnet, tmp_path: Path
) -> None:
    """Another program holds the file locked: the node answers, the file stays and is used after."""
    tx_hash = devnet.manifest()["token_transfer"]
    page = tx_page(tx_hash)
    with_saved_session(relay.url, tmp_path, page)
    (chain_file,) = endpoint_files(tmp_path, 31)
    with locked_file(chain_file):
        notices: list[str] = []
        before = len(relay.server.requests)
        facts = with_saved_session(relay.url, tmp_path, page, notices=notices, busy_timeout=0.5)
        assert beyond_check(relay, before)["eth_getTransactionByHash"] == 1  # the node answered
    assert facts.tx.hash == tx_hash
    assert len(notices) == 1
    assert "locked by another program" in notices[0]
    assert "moved aside" not in notices[0]
    assert not list(tmp_path.glob("chain-31-*.sqlite3.broken-*"))
    before = len(relay.server.requests)
    again = with_saved_session(relay.url, tmp_path, page)  # the lock gone: the same file, warm
    assert beyond_check(relay, before) == {"eth_blockNumber": 1}
    assert again.tx == facts.tx


def test_the_least_recently_used_go_beyond_a_tiny_size_limit(
    relay: Relay, devnet: Devnet, tmp_path: Path
) -> None:
    """150 kB for 150 blocks: the file stays within it; the last read are kept, the first not."""
    limit = 150_000
    top = devnet.manifest()["head_at_build"] - 20
    numbers = list(range(top - 150, top))

    async def read_all(session: Session) -> int:
        await session.reader.latest_number()  # the head, which tells what is settled
        for number in numbers:
            await session.reader.block(number, full=True)
        assert session.cache is not None
        assert session.cache.store is not None
        await session.cache.store.flush()
        return await session.cache.store.size()

    size = with_saved_session(relay.url, tmp_path, read_all, size_limit=limit)
    assert limit / 2 < size <= limit

    async def read(session: Session, which: list[int]) -> None:
        for number in which:
            await session.reader.block(number, full=True)

    before = len(relay.server.requests)
    with_saved_session(relay.url, tmp_path, lambda s: read(s, numbers[-5:]), size_limit=limit)
    assert beyond_check(relay, before) == {}  # the newest are kept
    before = len(relay.server.requests)
    with_saved_session(relay.url, tmp_path, lambda s: read(s, numbers[:5]), size_limit=limit)
    assert beyond_check(relay, before) == {"eth_getBlockByNumber": 5}  # the oldest went


WRITER = """
import asyncio, sys
from pathlib import Path
from explorer.saved.schema import Row
from explorer.saved.store import ChainIdentity, ChainStore

async def main() -> None:
    notices = []
    chain = ChainIdentity(31, "0x" + "ab" * 32)
    store = ChainStore(Path(sys.argv[1]), chain, 10**9, notices.append)
    for batch in range(40):
        rows = [
            Row(f"{sys.argv[2]} {batch} {i}", batch, None, b'{"result":"%d"}' % i)
            for i in range(25)
        ]
        store.put(rows)
        await asyncio.sleep(0.005)
    await store.aclose()
    print(notices)

asyncio.run(main())
"""


def test_two_processes_write_the_same_file_at_once(tmp_path: Path) -> None:
    """Two writers (a window and a command line): every row of both is kept, the file is sound."""
    path = tmp_path / "chain-31-abababababababab.sqlite3"
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), name], stdout=subprocess.PIPE, text=True
        )
        for name in ("window", "cli")
    ]
    outputs = [writer.communicate(timeout=120)[0] for writer in writers]
    assert [writer.returncode for writer in writers] == [0, 0]
    assert [output.strip() for output in outputs] == ["[]", "[]"]  # nothing was set aside
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        keys = {row[0].split()[0] for row in db.execute("SELECT key FROM answers")}
        count = db.execute("SELECT count(*) FROM answers").fetchone()[0]
    finally:
        db.close()
    assert keys == {"window", "cli"}
    assert count == 2 * 40 * 25


def test_another_chain_on_the_same_endpoint_never_reads_this_chains_data(
    relay: Relay, devnet: Devnet, tmp_path: Path
) -> None:
    """The endpoint serves chain 31, then chain 30: the second never gets the first's answers."""
    tx_hash = devnet.manifest()["token_transfer"]

    async def page(session: Session) -> Any:
        await session.reader.latest_number()
        await session.reader.block(5)  # something settled is saved on either chain
        return await session.reader.transaction(tx_hash)

    test_net, main_net = custom_network("relay", 31), custom_network("relay", 30)
    assert with_saved_session(relay.url, tmp_path, page, network=test_net) is not None
    relay.target = devnet.url("mainnet")
    before = len(relay.server.requests)
    assert with_saved_session(relay.url, tmp_path, page, network=main_net) is None
    asked = beyond_check(relay, before)
    assert asked["eth_getTransactionByHash"] == 1
    assert asked["eth_getBlockByNumber"] == 1  # block 5 of chain 30, not chain 31's saved one
    assert len(list(endpoint_files(tmp_path, 30))) == 1

    relay.failing = True
    assert offline_answers(relay.url, tmp_path, test_net) is False  # it last served chain 30
    assert offline_answers(relay.url, tmp_path, main_net) is True


def test_token_metadata_and_multicall_are_kept_per_chain(
    relay: Relay, devnet: Devnet, tmp_path: Path
) -> None:
    """A token's kind, name, symbol and decimals are read once; later only its total supply.

    No separate question whether Multicall3 is there: the aggregate that answers says so.
    """
    manifest = devnet.manifest()

    async def info(session: Session) -> TokenInfo:
        return await TokenReader(session.client, manifest["multicall"]).token_info(
            manifest["token"]
        )

    cold = with_saved_session(relay.url, tmp_path, info)
    assert cold.is_token
    assert beyond_check(relay) == {"eth_call": 1}  # one aggregate3 tells Multicall3 is there
    before = len(relay.server.requests)
    warm = with_saved_session(relay.url, tmp_path, info)
    assert beyond_check(relay, before) == {"eth_call": 1}  # totalSupply alone
    assert warm == cold


def test_a_failed_transactions_revert_reason_is_kept(
    relay: Relay, devnet: Devnet, tmp_path: Path
) -> None:
    """The replay that tells why a settled transaction failed is not sent again."""
    page = tx_page(devnet.manifest()["failed_tx"])
    cold = with_saved_session(relay.url, tmp_path, page)
    assert beyond_check(relay)["eth_call"] == 1
    assert cold.revert_reason
    before = len(relay.server.requests)
    warm = with_saved_session(relay.url, tmp_path, page)
    assert beyond_check(relay, before) == {"eth_blockNumber": 1}
    assert warm.revert_reason == cold.revert_reason


def test_an_unsettled_tail_cut_by_two_chunks_is_asked_once(relay: Relay, tmp_path: Path) -> None:
    """Chunks of 50 blocks cut the head's last 12 in two: the tail is still one request."""

    async def scan(session: Session) -> list[Any]:
        head = await session.reader.latest_number()
        scanner = LogScanner(
            session.client, concurrency=1, max_blocks=50, initial_blocks=50, growth=1.0
        )
        start = head - 105  # chunks end at head - 6 and head: the tail's 12 blocks cut in two
        query = LogQuery(from_block=start, to_block=head, topics=((TRANSFER_TOPIC,),))
        return [log async for batch in scanner.scan(query) for log in batch]

    cold = with_saved_session(relay.url, tmp_path, scan)
    before = len(relay.server.requests)
    warm = with_saved_session(relay.url, tmp_path, scan)
    assert beyond_check(relay, before) == {"eth_blockNumber": 1, "eth_getLogs": 1}
    assert warm == cold
