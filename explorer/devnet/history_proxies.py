"""The seeded history's contracts to know without an indexer (issue 32), told in the quiet tail.

An EIP-1967 proxy over BoxV1, called, then upgraded to BoxV2 and called again (so a call before
the upgrade decodes by the old code); a beacon proxy over Greeter; an EIP-1822 (UUPS) proxy over
UupsCounter; a factory of EIP-1167 clones of a Vault, with two clones; and the Notary, whose
source ships only as a Hardhat project under tests/fixtures/hardhat-notary/. A dedicated
account deploys them all, so their addresses follow from its nonces alone. Like the address
stories, they ride in the tail's blocks with activity (HistoryBuilder.scene).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from eth._utils.address import generate_contract_address
from eth.abc import SignedTransactionAPI
from eth_hash.auto import keccak
from eth_typing import Address

from explorer.devnet.abi import call_data, constructor_data
from explorer.devnet.accounts import derive_account
from explorer.devnet.contracts import load_artifact
from explorer.devnet.seed import RBTC

if TYPE_CHECKING:
    from explorer.devnet.history import HistoryBuilder

#: What the deployer creates, in nonce order: (name, artifact, constructor types, arguments).
CREATIONS = (
    "box_v1",
    "box_v2",
    "proxy",
    "greeter",
    "beacon",
    "beacon_proxy",
    "uups_counter",
    "uups_proxy",
    "vault",
    "clone_factory",
    "notary",
)
NOTARY_FEE = RBTC // 1000
CALL_GAS = 300_000
CREATE_GAS = 2_000_000


def _hex(value: bytes) -> str:
    """0x-prefixed lowercase hex."""
    return "0x" + bytes(value).hex()


class ProxyStories:
    """The proxies' cast: addresses from the deployer's nonces, and one step per scene."""

    def __init__(self, builder: HistoryBuilder) -> None:
        self.builder = builder
        self.admin = derive_account("proxy-admin")
        sender = Address(self.admin.address)
        self.at = {name: generate_contract_address(sender, n) for n, name in enumerate(CREATIONS)}
        factory = Address(self.at["clone_factory"])
        self.clones = tuple(generate_contract_address(factory, n) for n in (1, 2))  # EIP-161
        self.facts: dict[str, Any] = {  # the manifest's entry, completed as calls are noted
            **{name: _hex(address) for name, address in self.at.items()},
            "admin": self.admin.address_hex,
            "clones": tuple(_hex(clone) for clone in self.clones),
        }
        self.steps: list[Callable[[], list[SignedTransactionAPI]]] = [
            self._fund,
            self._deploy,
            self._use,
            self._call_before_upgrade,
            self._upgrade,
            self._call_after_upgrade,
        ]

    def _send(self, to: bytes | None, data: bytes, value: int = 0) -> SignedTransactionAPI:
        """Sign the admin's next transaction."""
        gas = CREATE_GAS if to is None else CALL_GAS
        return self.builder.send(self.admin, to, value=value, data=data, gas=gas)

    def _call(self, name: str, signature: str, *args: object) -> SignedTransactionAPI:
        """Call one of the contracts by its cast name."""
        return self._send(self.at[name], call_data(signature, *args))

    def _fund(self) -> list[SignedTransactionAPI]:
        """Fund the admin from the deployer."""
        b = self.builder
        return [b.send(b.deployer, self.admin.address, value=100 * RBTC)]

    def _deploy(self) -> list[SignedTransactionAPI]:
        """Create every contract, in CREATIONS order."""
        at, admin = self.at, self.admin.address
        init = call_data("initialize(address)", admin)
        creations: list[tuple[str, list[str], list[object]]] = [
            ("BoxV1", [], []),
            ("BoxV2", [], []),
            ("Eip1967Proxy", ["address", "address"], [at["box_v1"], admin]),
            ("Greeter", [], []),
            ("DevBeacon", ["address"], [at["greeter"]]),
            ("DevBeaconProxy", ["address"], [at["beacon"]]),
            ("UupsCounter", [], []),
            ("UupsProxy", ["address", "bytes"], [at["uups_counter"], init]),
            ("Vault", [], []),
            ("CloneFactory", ["address"], [at["vault"]]),
            ("Notary", ["uint256"], [NOTARY_FEE]),
        ]
        return [
            self._send(None, constructor_data(load_artifact(name).bytecode, types, *args))
            for name, types, args in creations
        ]

    def _use(self) -> list[SignedTransactionAPI]:
        """Use each proxy once and make two clones."""
        digest = keccak(b"explorer devnet: the first filed document")
        file = call_data("file(bytes32,string)", digest, "filed on the devnet")
        return [
            self._call("proxy", "store(uint256)", 7),
            self._call("beacon_proxy", "setGreeting(string)", "hello from the beacon"),
            self._call("uups_proxy", "increment()"),
            self._call("clone_factory", "cloneFor(address)", self.admin.address),
            self._call("clone_factory", "cloneFor(address)", self.builder.users[0].address),
            self._send(self.clones[0], call_data("deposit()"), value=RBTC),
            self._send(self.at["notary"], file, value=NOTARY_FEE),
        ]

    def _call_before_upgrade(self) -> list[SignedTransactionAPI]:
        """Call what only the first implementation has (BoxV1.store)."""
        return [self._noted("proxy_call_v1", self._call("proxy", "store(uint256)", 42))]

    def _upgrade(self) -> list[SignedTransactionAPI]:
        """Upgrade the EIP-1967 proxy to BoxV2."""
        return [
            self._noted(
                "proxy_upgrade", self._call("proxy", "upgradeTo(address)", self.at["box_v2"])
            )
        ]

    def _call_after_upgrade(self) -> list[SignedTransactionAPI]:
        """Call what only the second implementation has."""
        return [
            self._noted("proxy_call_v2", self._call("proxy", "increment()")),
            self._call("proxy", "setLabel(string)", "upgraded"),
        ]

    def _noted(self, key: str, tx: SignedTransactionAPI) -> SignedTransactionAPI:
        """Remember a transaction's hash and block for the manifest."""
        self.facts[key] = _hex(tx.hash)
        self.facts[f"{key}_block"] = self.builder.ledger.head.number + 1
        return tx

    def scene(self, number: int) -> list[SignedTransactionAPI]:
        """Return the next step's transactions while steps are left."""
        return self.steps.pop(0)() if self.steps else []


def tell(builder: HistoryBuilder) -> None:
    """Have the tail's blocks with activity tell the proxies' story after what they tell."""
    stories = ProxyStories(builder)
    told = builder.scene

    def scene(number: int) -> list[SignedTransactionAPI]:
        return told(number) + stories.scene(number)

    builder.scene = scene
    builder._facts.stories["proxies"] = stories.facts
