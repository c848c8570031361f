"""The networks the explorer knows: hosted, public, local devnet and custom endpoints."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from explorer.rpc.endpoint import Endpoint, UrlForm

GET_A_KEY = (
    "Rootstock Mainnet and Testnet need an API key from the Rootstock RPC API dashboard "
    "(create an app, choose the network, copy its key into Settings), "
    "or use the rate-limited public node without a key."
)


def key_needed(name: str) -> str:
    """Return why a hosted network without a key cannot be used, and the two ways out, once."""
    return (
        f"it needs an API key. Create an app for {name} in the Rootstock RPC API dashboard "
        "and copy its key into Settings › Networks, or tick “Use the public node” there "
        "(no key, rate-limited)."
    )


class NetworkKind(enum.Enum):
    """Where a network's node lives."""

    HOSTED = "hosted"
    DEVNET = "devnet"
    CUSTOM = "custom"


@dataclass(frozen=True)
class Network:
    """A chain the user can browse and how to reach it."""

    id: str
    name: str
    chain_id: int
    currency: str
    kind: NetworkKind
    hosted_base: str | None = None
    public_url: str | None = None
    rns_registry: str | None = None
    genesis_hash: str | None = None  # block 0's hash where it is known (the hosted networks)

    def endpoint(self, api_key: str | None, *, v2: bool = False) -> Endpoint:
        """Return the hosted endpoint with the key, or the public node when there is none."""
        if api_key and self.hosted_base:
            form = UrlForm.V2_KEY if v2 else UrlForm.KEY
            return Endpoint(self.hosted_base, api_key, form)
        if self.public_url:
            return Endpoint(self.public_url, None, UrlForm.NO_KEY)
        raise ValueError(f"{self.name} has no endpoint without an API key")


#: Block 0 of each public chain, as rskj's own test of its genesis files states them
#: (rsksmart/rskj: rskj-core/src/test/java/org/ethereum/core/genesis/GenesisHashesTest.java).
MAINNET_GENESIS = "0xf88529d4ab262c0f4d042e9d8d3f2472848eaafe1a9b7213f57617eb40a9f9e0"
TESTNET_GENESIS = "0xcabb7fbe88cd6d922042a32ffc08ce8b1fbb37d650b9d4e7dbfe2a7469adfa42"

MAINNET = Network(
    id="mainnet",
    name="Rootstock Mainnet",
    chain_id=30,
    currency="RBTC",
    kind=NetworkKind.HOSTED,
    hosted_base="https://rpc.mainnet.rootstock.io",
    public_url="https://public-node.rsk.co",
    rns_registry="0xcb868aeabd31e2b66f74e9a55cf064abb31a4ad5",
    genesis_hash=MAINNET_GENESIS,
)
TESTNET = Network(
    id="testnet",
    name="Rootstock Testnet",
    chain_id=31,
    currency="tRBTC",
    kind=NetworkKind.HOSTED,
    hosted_base="https://rpc.testnet.rootstock.io",
    public_url="https://public-node.testnet.rsk.co",
    rns_registry="0x7d284aaac6e925aad802a53c0c69efe3764597b8",
    genesis_hash=TESTNET_GENESIS,
)
DEVNET = Network(
    id="devnet",
    name="Local devnet",
    chain_id=31,
    currency="tRBTC",
    kind=NetworkKind.DEVNET,
    rns_registry=TESTNET.rns_registry,
)
BUILTIN = (MAINNET, TESTNET, DEVNET)

CHAIN_NAMES = {
    30: "Rootstock Mainnet",
    31: "Rootstock Testnet",
    32: "RSK devnet",
    33: "RSK regtest",
}


#: Rootstock's own chains are these chain ids with these genesis blocks (a devnet, or a regtest
#: node, may serve chain 30 or 31 with another genesis: it is not Rootstock's network).
GENESIS_HASHES = {
    30: "0xf88529d4ab262c0f4d042e9d8d3f2472848eaafe1a9b7213f57617eb40a9f9e0",
    31: "0xcabb7fbe88cd6d922042a32ffc08ce8b1fbb37d650b9d4e7dbfe2a7469adfa42",
}


def node_name(chain_id: int, genesis_hash: str | None, where: str) -> str:
    """Name a node by the chain it serves: its chain id and its genesis block (at where)."""
    known = GENESIS_HASHES.get(chain_id)
    if known is None or genesis_hash == known:
        return f"{chain_name(chain_id)} at {where}"
    return f"chain {chain_id} at {where} (not {chain_name(chain_id)}: another genesis block)"


def chain_name(chain_id: int | None) -> str:
    """Return a human name for a chain id, e.g. `chain 1` when unknown."""
    if chain_id is None:
        return "unknown chain"
    return CHAIN_NAMES.get(chain_id, f"chain {chain_id}")


def custom_network(name: str, chain_id: int) -> Network:
    """Return a user-defined network; on RSK's chain ids it keeps their currency and RNS."""
    like = next((n for n in (MAINNET, TESTNET) if n.chain_id == chain_id), None)
    return Network(
        id=f"custom:{name}",
        name=name,
        chain_id=chain_id,
        currency=like.currency if like else "RBTC",
        kind=NetworkKind.CUSTOM,
        rns_registry=like.rns_registry if like else None,
    )
