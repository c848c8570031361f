"""The other configured networks asked at once: one request each once their chain is checked."""

from __future__ import annotations

import asyncio
import socket

from explorer.rpc.endpoint import Endpoint
from explorer.services.elsewhere import OtherNetworks, Presence, Sighting
from explorer.services.networks import Network, custom_network
from tests.helpers.devnet import Devnet

MISSING = "0x" + "ab" * 32


def look(others: list[tuple[Network, Endpoint]], tx_hash: str, rounds: int = 1) -> list[Sighting]:
    """Look a hash up `rounds` times with one OtherNetworks; return the last answers."""

    async def main() -> list[Sighting]:
        elsewhere = OtherNetworks(lambda: others)
        try:
            for _ in range(rounds):
                sightings = await elsewhere.look_up(tx_hash, Endpoint.parse("http://127.0.0.1:1"))
            return sightings
        finally:
            await elsewhere.aclose()

    return asyncio.run(main())


def main_network(devnet: Devnet) -> tuple[Network, Endpoint]:
    """Return the devnet's main network as a configured custom network."""
    return custom_network("Devnet main", 30), Endpoint.parse(devnet.url("mainnet"))


def test_a_transaction_of_another_network_is_found_there(devnet: Devnet) -> None:
    tx_hash = devnet.manifest("mainnet")["token_transfer"]
    test_network = (custom_network("Devnet test", 31), Endpoint.parse(devnet.url("testnet")))
    found, absent = look([main_network(devnet), test_network], tx_hash)
    assert found.presence is Presence.MINED
    assert found.found
    assert found.transaction is not None
    assert found.transaction.hash == tx_hash
    assert found.network.name == "Devnet main"
    assert absent.presence is Presence.ABSENT
    assert devnet.key not in found.where


def test_a_warm_lookup_costs_one_request_per_network(devnet: Devnet) -> None:
    others = [main_network(devnet)]

    async def main() -> tuple[int, int]:
        elsewhere = OtherNetworks(lambda: others)
        try:
            await elsewhere.look_up(MISSING, Endpoint.parse("http://127.0.0.1:1"))
            stats = elsewhere.session_for(*others[0]).client.stats
            cold = stats.total
            await elsewhere.look_up(MISSING, Endpoint.parse("http://127.0.0.1:1"))
            return cold, stats.total - cold
        finally:
            await elsewhere.aclose()

    cold, warm = asyncio.run(main())
    assert cold == 5  # the chain check once (chain id, network id, client, genesis), the lookup
    assert warm == 1


def test_a_node_of_another_chain_is_not_trusted(devnet: Devnet) -> None:
    tx_hash = devnet.manifest("mainnet")["token_transfer"]
    claimed = custom_network("Says testnet", 31), Endpoint.parse(devnet.url("mainnet"))
    (sighting,) = look([claimed], tx_hash)
    assert sighting.presence is Presence.WRONG_CHAIN
    assert sighting.transaction is None
    assert "serves chain 30" in sighting.message


def test_an_unreachable_network_is_said_and_the_current_endpoint_skipped(devnet: Devnet) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    dead = custom_network("Nowhere", 31), Endpoint.parse(f"http://127.0.0.1:{port}")
    same = custom_network("Same endpoint", 31), Endpoint.parse("http://127.0.0.1:1")
    (sighting,) = look([dead, same], MISSING)
    assert sighting.presence is Presence.UNREACHABLE
    assert sighting.network.name == "Nowhere"
    assert sighting.message
