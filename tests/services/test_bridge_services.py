"""The Bridge's reads, a peg-in's status and a peg-out's stages on the devnet, and refusals."""

from __future__ import annotations

import re
from typing import Any

from explorer.chain.peg import devnet_peg
from explorer.presentation.bridge_document import NOT_HERE, bridge_document
from explorer.rpc.client import RpcClient
from explorer.services.bridge import PAGE_READS, read_bridge, read_method
from explorer.services.pegin import pegin_status
from explorer.services.pegout import PegoutStatus, pegout_stages
from explorer.services.reader import ChainReader
from tests.helpers.devnet import Devnet
from tests.helpers.logs_node import with_client
from tests.helpers.scripted_server import ScriptedServer, result, rpc_error

PRE_UPGRADE_BLOCK = 100  # the devnet's Bridge follows the upgrades from block 3,000


def test_page_reads_go_out_together(devnet: Devnet) -> None:
    """Every read of the Bridge page and the balance: one request each, at one block."""

    async def use(client: RpcClient) -> tuple[Any, int]:
        reader = ChainReader(client)
        head = await reader.latest_number()
        before = client.stats.total
        overview = await read_bridge(reader)
        assert overview.block == head
        return overview, client.stats.total - before

    overview, sent = with_client(devnet.url(), use)
    assert sent == len(PAGE_READS) + 1
    assert not any(read.refused for read in overview.reads.values())
    assert overview.reads["getFederationThreshold"].value == 2


def test_reads_the_upgrades_lack_are_not_on_this_network(devnet: Devnet) -> None:
    """Before the devnet's upgrade height the Bridge answers batched reads as rskj does: empty."""

    async def use(client: RpcClient) -> Any:
        return await read_bridge(ChainReader(client), PRE_UPGRADE_BLOCK)

    overview = with_client(devnet.url(), use)
    refused = {name for name, read in overview.reads.items() if read.refused}
    assert refused == {
        "getLockingCap",
        "getQueuedPegoutsCount",
        "getNextPegoutCreationBlockNumber",
        "getEstimatedFeesForNextPegOutEvent",
        "getProposedFederationAddress",
    }
    document = bridge_document(
        overview, devnet_peg(31), chain_id=31, currency="tRBTC", head=PRE_UPGRADE_BLOCK
    )
    text = document.to_text()
    assert re.search(rf"^Locking cap +{NOT_HERE}$", text, re.MULTILINE)  # labels padded alike
    assert "Federation address" in text
    assert "2N" in text


def test_an_execution_error_is_a_refusal_not_a_failure() -> None:
    """A refused read answered with an execution error (-32015) is "not on this network" too."""
    server = ScriptedServer()
    try:
        server.script(rpc_error(-32015, "VM Exception while processing transaction: revert"))
        server.script(result("0x"))

        async def use(client: RpcClient) -> Any:
            reader = ChainReader(client)
            return (
                await read_method(reader, "getLockingCap"),
                await read_method(reader, "getQueuedPegoutsCount"),
            )

        by_error, by_empty = with_client(server.url, use)
    finally:
        server.close()
    assert by_error.refused
    assert "revert" in by_error.detail
    assert by_empty.refused


def count(devnet: Devnet, use: Any) -> Any:
    """Run use(reader) with the head known (as in the window); return it and requests sent."""

    async def run(client: RpcClient) -> Any:
        reader = ChainReader(client)
        await reader.latest_number()
        before = client.stats.total
        answer = await use(reader)
        return answer, client.stats.total - before

    return with_client(devnet.url(), run)


def test_pegin_status_takes_four_requests(devnet: Devnet) -> None:
    facts = devnet.manifest()["bridge"]
    for key in ("pegin_accepted", "pegin_refunded", "pegin_unrefundable"):
        status, sent = count(devnet, lambda reader, key=key: pegin_status(reader, facts[key], 31))
        assert status.found, key
        assert sent <= 4, (key, sent)
    status, sent = count(devnet, lambda reader: pegin_status(reader, facts["pegin_unknown"], 31))
    assert not status.found
    assert status.btc_tip is not None
    assert sent <= 3


def test_pegout_is_found_with_few_requests(devnet: Devnet) -> None:
    """A delivered peg-out: the receipt, one search for the batch, one for the release."""
    facts = devnet.manifest()["bridge"]

    async def follow(reader: ChainReader) -> list[PegoutStatus]:
        tx = await reader.transaction(facts["pegout_batch"][1])
        receipt = await reader.receipt(facts["pegout_batch"][1])
        assert tx is not None
        assert receipt is not None
        return [s async for s in pegout_stages(reader, tx, receipt, devnet_peg(31))]

    stages, sent = count(devnet, follow)
    final = stages[-1]
    assert final.released is not None
    assert final.released.tx is not None
    assert final.released.tx.txid == facts["pegout_btc_txid"]
    assert any(s.scanning is not None for s in stages)  # progress was reported
    assert sent <= 4  # transaction, receipt, two searches
    assert devnet.key not in str(final)
