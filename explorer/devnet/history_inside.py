"""The seeded history's stories of what happens inside a transaction (issue 28).

Transactions whose interesting part is inside (contracts in contracts/inside/Inside.sol): a
payment handed down a relay four calls deep, where a treasury pays RBTC and emits and a token
moves; a call through a DELEGATECALL proxy; a CREATE2 factory funding and calling its child;
a payment that reverts inside try/catch before one that succeeds; the Bridge asked from a
contract (reads, answered by eth_call in a replay, and a peg-out it refuses); and one call of
about fifty frames. Each story transaction sits alone in its block (its REMASC transaction
aside), so its state diff can be checked against balances read raw at N−1 and N. They are told
right after the busy phases, before the peg's history: the Bridge still logs the pre-RSKIP146
way there (devnet/history_bridge.py), so the peg-out a contract asks for is taken silently.
`payout_calls` names the first payroll and split the Payout contract made (history_stories.py),
for the tests and bench/trace.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eth._utils.address import generate_contract_address
from eth_typing import Address

from explorer.devnet.abi import call_data, constructor_data
from explorer.devnet.contracts import load_artifact
from explorer.devnet.seed import RBTC

if TYPE_CHECKING:
    from explorer.devnet.history import HistoryBuilder

POOL = 500 * RBTC  # the treasury's RBTC
RELAY_TOKENS = 10_000 * RBTC  # the relay's token balance
DEPTH = 3  # the relay's calls to itself before the treasury pays
WIDE_RECEIVERS = 24  # the spread's receivers: 1 + 2 × 24 + 1 frames
CONTRACTS = ("Treasury", "Relay", "CounterLogic", "SaltFactory", "Guard", "BridgeAsker")
GAS = 3_000_000


def _hex(value: bytes) -> str:
    """Return 0x hex."""
    return "0x" + bytes(value).hex()


class InsideStories:
    """Deploys the contracts, then mines one block per story."""

    def __init__(self, builder: HistoryBuilder) -> None:
        self.b = builder
        nonce = builder._nonces.get(builder.deployer.address, 0)
        deployer = Address(builder.deployer.address)
        names = (*CONTRACTS, "CounterProxy")
        self.at = {
            n: bytes(generate_contract_address(deployer, nonce + i)) for i, n in enumerate(names)
        }
        self.facts: dict[str, Any] = {name.lower(): _hex(a) for name, a in self.at.items()}

    def _story(
        self, key: str, sender_index: int, contract: str, data: bytes, value: int = 0
    ) -> None:
        """Mine one story transaction alone in its block and note its hash."""
        user = self.b.users[sender_index % len(self.b.users)]
        tx = self.b.send(user, self.at[contract], value=value, data=data, gas=GAS)
        self.facts[key] = _hex(tx.hash)
        self.facts[f"{key}_block"] = self.b.mine([tx]).number

    def deploy(self) -> None:
        """Deploy the contracts, fund the treasury and the relay (two blocks)."""
        b, deployer = self.b, self.b.deployer
        creations = [b.send(deployer, None, data=load_artifact(name).bytecode, gas=GAS)
                     for name in CONTRACTS]  # fmt: skip
        proxy = constructor_data(
            load_artifact("CounterProxy").bytecode, ["address"], self.at["CounterLogic"]
        )
        creations.append(b.send(deployer, None, data=proxy, gas=GAS))
        b.mine(creations)
        tokens = call_data("transfer(address,uint256)", self.at["Relay"], RELAY_TOKENS)
        b.mine([b.send(deployer, self.at["Treasury"], value=POOL, gas=100_000),
                b.send(deployer, b.token, data=tokens, gas=100_000)])  # fmt: skip

    def tell(self) -> dict[str, Any]:
        """Mine every story; return the manifest's facts."""
        self.deploy()
        users = self.b.users
        treasury, token = self.at["Treasury"], self.b.token
        relay = "relay(address,address,address,uint256,uint256)"
        deep = call_data(relay, treasury, token, users[1].address, RBTC // 2, DEPTH)
        self._story("deep_call", 0, "Relay", deep)
        self._story("proxy_call", 1, "CounterProxy", call_data("increment()"), RBTC // 10)
        salt = b"\x11" * 32
        self._story("create2_call", 2, "SaltFactory", call_data("deploy(bytes32)", salt), RBTC // 5)
        attempt = "attempt(address,address,uint256,uint256)"
        caught = call_data(attempt, treasury, users[4].address, 10**6 * RBTC, RBTC // 4)
        self._story("caught_revert", 3, "Guard", caught)
        self._story("bridge_read", 4, "BridgeAsker", call_data("ask()"))
        self._story("bridge_write", 5, "BridgeAsker", call_data("pegOut()"), RBTC // 100)
        receivers = [users[i % len(users)].address for i in range(WIDE_RECEIVERS)]
        spread = call_data("spread(address,address[],uint256)", treasury, receivers, RBTC // 100)
        self._story("wide_call", 0, "Relay", spread)
        return self.facts


def payout_calls(builder: HistoryBuilder) -> dict[str, str]:
    """Name the first payroll and split the Payout contract made (history_stories.py)."""
    payout = builder._facts.stories.get("payout", "")
    wanted = {
        "payroll_call": call_data("pay(address[],uint256[])", [], [])[:4],
        "split_call": call_data("split(address[])", [])[:4],
    }
    first = {  # blocks newest first: the oldest call of each selector is kept
        tx.data[:4]: _hex(tx.hash)
        for block in reversed(builder.ledger.blocks)
        for tx in block.transactions
        if tx.to and _hex(tx.to) == payout
    }
    return {key: first[selector] for key, selector in wanted.items() if selector in first}


def tell(builder: HistoryBuilder) -> dict[str, Any]:
    """Mine the inside-a-transaction stories now; return their facts for the manifest."""
    return InsideStories(builder).tell()
