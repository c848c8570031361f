"""The deterministic seeded history: accounts, contracts, activity, a big block, pending txs."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from eth._utils.address import generate_contract_address
from eth.abc import SignedTransactionAPI
from eth_hash.auto import keccak
from eth_typing import Address

from explorer.chain.namehash import namehash, reverse_node
from explorer.devnet import history_inside, history_proxies, history_stories
from explorer.devnet.abi import call_data, constructor_data
from explorer.devnet.accounts import DevAccount, derive_account, derive_accounts
from explorer.devnet.blockdata import DevBlock
from explorer.devnet.contracts import load_artifact
from explorer.devnet.evm import Engine
from explorer.devnet.history_bridge import bridge_history
from explorer.devnet.ledger import Ledger
from explorer.devnet.manifest import SeedManifest
from explorer.devnet.remasc import RemascSettlement
from explorer.devnet.seed import (
    GENESIS_TIMESTAMP,
    MULTICALL3,
    RBTC,
    RNS_NAMES,
    RNS_RESOLVER,
    SeedSize,
    genesis_state,
    rns_registry,
    seeded_timestamp,
)

Progress = Callable[[str, float], None]
Scene = Callable[[int], list[SignedTransactionAPI]]  # what a block of the quiet tail adds
PROGRESS_EVERY = 100  # blocks between progress reports
BUSY_BLOCK_COST = 6  # a block of the busy phases takes about as long as this many quiet ones


@dataclass
class _Facts:
    """Hashes and numbers gathered while building, for the manifest."""

    hashes: dict[str, Any] = field(default_factory=dict)
    stories: dict[str, Any] = field(default_factory=dict)  # devnet/history_stories.py
    empty_runs: list[tuple[int, int]] = field(default_factory=list)
    uncle_blocks: list[int] = field(default_factory=list)
    big_block: int = 0
    transfer_logs: int = 0


def _hex(value: bytes) -> str:
    """0x-prefixed lowercase hex."""
    return "0x" + value.hex()


class HistoryBuilder:
    """Builds the seeded chain block by block with fixed keys and timestamps."""

    def __init__(self, chain_id: int, size: SeedSize, progress: Progress | None = None) -> None:
        self.size = size
        self.chain_id = chain_id
        self.deployer = derive_account("deployer")
        self.users = derive_accounts("user", size.users)
        self.miners = tuple(derive_account(f"miner-{i}").address for i in range(3))
        self._progress = progress
        self._random = random.Random(f"explorer-devnet/{chain_id}/{size.name}")
        self._nonces: dict[bytes, int] = {}
        self._facts = _Facts()
        genesis = genesis_state(chain_id, self.deployer.address, [u.address for u in self.users])
        self.engine = Engine.create(chain_id, genesis, GENESIS_TIMESTAMP)
        self.ledger = Ledger(self.engine, ())
        self.ledger.add_genesis(self.miners[0], GENESIS_TIMESTAMP)
        self.token = generate_contract_address(Address(self.deployer.address), 0)
        self.collectible = generate_contract_address(Address(self.deployer.address), 1)
        self.reverter = generate_contract_address(Address(self.deployer.address), 2)
        self.pending: list[SignedTransactionAPI] = []
        self._collectible_owners: dict[int, DevAccount] = {}
        self.scene: Scene = lambda _number: []  # the address-history stories set it

    # --- transactions -------------------------------------------------------------------

    def send(
        self,
        account: DevAccount,
        to: bytes | None,
        *,
        value: int = 0,
        data: bytes = b"",
        gas: int = 21_000,
    ) -> SignedTransactionAPI:
        """Sign the account's next transaction with a gas price a little above the minimum."""
        nonce = self._nonces.get(account.address, 0)
        self._nonces[account.address] = nonce + 1
        gas_price = 65_000_000 + 1_000_000 * self._random.randrange(5)
        return self.engine.sign(
            account.private_key,
            nonce=nonce,
            gas_price=gas_price,
            gas=gas,
            to=to,
            value=value,
            data=data,
        )

    def invoke(
        self, sender: DevAccount, contract: bytes, signature: str, *args: object, gas: int = 150_000
    ) -> SignedTransactionAPI:
        """Return a contract call with gas to spare."""
        return self.send(sender, contract, data=call_data(signature, *args), gas=gas)

    def token_transfer(self, sender: DevAccount, to: bytes, amount: int) -> SignedTransactionAPI:
        """Return an ERC-20 transfer."""
        data = call_data("transfer(address,uint256)", to, amount)
        return self.send(sender, self.token, data=data, gas=80_000)

    # --- blocks -------------------------------------------------------------------------

    def mine(
        self, transactions: list[SignedTransactionAPI], remasc: RemascSettlement | None = None
    ) -> DevBlock:
        """Mine one block at the next fixed timestamp; some blocks get uncles."""
        number = self.ledger.head.number + 1
        uncles = 2 if number % 199 == 0 else 1 if number % 41 == 0 else 0
        if uncles:
            self._facts.uncle_blocks.append(number)
        block = self.ledger.mine(
            transactions,
            timestamp=seeded_timestamp(number),
            miner=self.miners[number % len(self.miners)],
            uncle_count=uncles,
            remasc=remasc,
        )
        self._facts.transfer_logs += _transfer_logs(block)
        if self._progress and number % PROGRESS_EVERY == 0:
            self._progress(f"building block {number:,} of {self.size.head:,}", self._done(number))
        return block

    def _done(self, number: int) -> float:
        """Return the part of the build's time spent once block number is mined (estimated)."""
        busy, head = self.size.busy_head, self.size.head
        work = number + (BUSY_BLOCK_COST - 1) * min(number, busy)
        return min(work / (head + (BUSY_BLOCK_COST - 1) * busy), 1.0)

    def mine_quiet(self, count: int) -> None:
        """Blocks holding only their REMASC transaction."""
        for _ in range(count):
            self.mine([])

    def mine_empty(self, count: int) -> None:
        """Mine a run of blocks holding only their REMASC transaction, noted in the manifest."""
        first = self.ledger.head.number + 1
        self.mine_quiet(count)
        self._facts.empty_runs.append((first, first + count - 1))

    def note(self, key: str, tx: SignedTransactionAPI) -> SignedTransactionAPI:
        """Remember a transaction's hash under a manifest key."""
        self._facts.hashes[key] = _hex(bytes(tx.hash))
        return tx

    # --- the phases -----------------------------------------------------------------------

    def build(self) -> SeedManifest:
        """Run every phase and return the manifest."""
        busy = self.size.busy_head
        self._deploy()
        self._first_activity()
        self.mine_empty(self.size.empty_run)
        self._activity(busy // 40)
        self._big_block()
        self._activity(busy // 40)
        self._airdrops()
        self._activity(max(busy - self.ledger.head.number - 2 * self.size.empty_run - 20, 0))
        self.mine_empty(2 * self.size.empty_run)
        self._activity(max(busy - self.ledger.head.number, 0))
        history_stories.tell(self)  # the address-history stories, told in the quiet tail
        history_proxies.tell(self)  # proxies, clones and the Notary (issue 32)
        inside = history_inside.tell(self)  # what happens inside transactions (issue 28)
        bridge = bridge_history(self)  # the peg and REMASC's payments (devnet/history_bridge.py)
        self._quiet_tail(self.size.head)
        self._leave_pending()
        inside.update(history_inside.payout_calls(self))
        return replace(self._manifest(), bridge=bridge, inside=inside)

    def _deploy(self) -> None:
        """Deploy the token, the collectible and the reverter (three creations)."""
        token_code = constructor_data(
            load_artifact("DevToken").bytecode,
            ["string", "string", "uint256"],
            "Devnet Token",
            "DVT",
            10**9 * RBTC,
        )
        nft_code = constructor_data(
            load_artifact("DevCollectible").bytecode,
            ["string", "string"],
            "Devnet Collectible",
            "DVC",
        )
        creation = self.note(
            "contract_creation", self.send(self.deployer, None, data=token_code, gas=3_000_000)
        )
        self.mine([creation])
        self.mine(
            [
                self.send(self.deployer, None, data=nft_code, gas=3_000_000),
                self.send(
                    self.deployer, None, data=load_artifact("Reverter").bytecode, gas=1_000_000
                ),
            ]
        )

    def _first_activity(self) -> None:
        """One of each kind of transaction the manifest points at."""
        users = self.users
        plain = [
            self.send(self.deployer, u.address, value=(i + 1) * RBTC) for i, u in enumerate(users)
        ]
        self.mine([self.note("plain_transfer", plain[0]), *plain[1:]])
        tokens = [self.token_transfer(self.deployer, u.address, 1_000_000 * RBTC) for u in users]
        self.mine([self.note("token_transfer", tokens[0]), *tokens[1:]])
        approve = self.invoke(
            users[0],
            self.token,
            "approve(address,uint256)",
            users[1].address,
            500 * RBTC,
            gas=80_000,
        )
        spend = self.invoke(
            users[1],
            self.token,
            "transferFrom(address,address,uint256)",
            users[0].address,
            users[2].address,
            200 * RBTC,
            gas=100_000,
        )
        self.mine([self.note("approval", approve), spend])
        mints = [
            self.invoke(self.deployer, self.collectible, "mint(address,uint256)", u.address, i + 1)
            for i, u in enumerate(users)
        ]
        self.mine([self.note("nft_mint", mints[0]), *mints[1:]])
        self._collectible_owners = {i + 1: u for i, u in enumerate(users)}
        self.mine([self.note("nft_transfer", self._collectible_move(1, users[2]))])
        good = self.invoke(users[3], self.reverter, "poke(uint256)", 5, gas=100_000)
        bad = self.invoke(users[3], self.reverter, "poke(uint256)", 50, gas=100_000)
        self.mine([good, self.note("failed_tx", bad)])
        self.mine(self._rns_transactions())

    def _rns_transactions(self) -> list[SignedTransactionAPI]:
        """Register the demo names forward and reverse."""
        registry = rns_registry(self.chain_id)
        txs = []
        for name, user in zip(RNS_NAMES, self.users, strict=False):
            node = namehash(name)
            reverse = reverse_node(user.address_hex)
            for target, data in (
                (registry, call_data("setResolver(bytes32,address)", node, RNS_RESOLVER)),
                (registry, call_data("setResolver(bytes32,address)", reverse, RNS_RESOLVER)),
                (RNS_RESOLVER, call_data("setAddr(bytes32,address)", node, user.address)),
                (RNS_RESOLVER, call_data("setName(bytes32,string)", reverse, name)),
            ):
                txs.append(self.send(self.deployer, target, data=data, gas=150_000))
        return txs

    def _activity(self, blocks: int) -> None:
        """Blocks with a few random transfers, token moves and pokes (some empty)."""
        for _ in range(blocks):
            count = self._random.choice((0, 0, 0, 1, 1, 2, 3))
            self.mine([self._random_tx() for _ in range(count)])

    def _random_tx(self) -> SignedTransactionAPI:
        """One random everyday transaction between the users."""
        sender, receiver = self._random.sample(self.users, 2)
        kind = self._random.randrange(4)
        if kind == 0:
            return self.token_transfer(
                sender, receiver.address, self._random.randrange(1, 10**4) * RBTC
            )
        if kind == 1:
            return self.send(
                sender,
                self.reverter,
                gas=100_000,
                data=call_data("poke(uint256)", self._random.randrange(12)),
            )
        return self.send(sender, receiver.address, value=self._random.randrange(1, 10**6) * 10**12)

    def _collectible_move(self, token_id: int, receiver: DevAccount) -> SignedTransactionAPI:
        """Sign the collectible's move from its owner to receiver."""
        owner = self._collectible_owners[token_id]
        self._collectible_owners[token_id] = receiver
        return self.invoke(
            owner,
            self.collectible,
            "transferFrom(address,address,uint256)",
            owner.address,
            receiver.address,
            token_id,
        )

    def _quiet_tail(self, head: int) -> None:
        """Up to head: mostly REMASC-only blocks, every tail_gap blocks or so a little activity."""
        while self.ledger.head.number < head:
            quiet = self._random.randrange(2 * self.size.tail_gap - 1)
            self.mine_quiet(min(quiet, head - self.ledger.head.number - 1))
            count = self._random.choice((1, 1, 1, 2, 3))
            txs = [self._tail_tx() for _ in range(count)]
            self.mine(txs + self.scene(self.ledger.head.number + 1))

    def _tail_tx(self) -> SignedTransactionAPI:
        """One transaction of the quiet tail: a collectible move or an everyday one."""
        if self._random.randrange(5):
            return self._random_tx()
        token_id = self._random.choice(sorted(self._collectible_owners))
        owner = self._collectible_owners[token_id]
        return self._collectible_move(
            token_id, self._random.choice([u for u in self.users if u is not owner])
        )

    def _big_block(self) -> None:
        """One block of big_block_txs transactions: plain transfers and token transfers."""
        txs = []
        for i in range(self.size.big_block_txs):
            sender = self.users[i % len(self.users)]
            receiver = self.users[(i + 1) % len(self.users)]
            if i % 5 < 3:
                txs.append(self.send(sender, receiver.address, value=RBTC // 1000 + i))
            else:
                txs.append(self.token_transfer(sender, receiver.address, RBTC + i))
        self._facts.big_block = self.mine(txs).number

    def _airdrops(self) -> None:
        """Batch token transfers that fill the logs: many Transfer events per transaction."""
        recipients = [keccak(b"airdrop" + bytes([i]))[:20] for i in range(50)]
        for i in range(self.size.airdrops):
            chosen = [recipients[(i + j) % len(recipients)] for j in range(self.size.airdrop_size)]
            data = call_data("airdrop(address[],uint256)", chosen, RBTC)
            self.mine([self.send(self.deployer, self.token, data=data, gas=8_000_000)])
        for i in range(self.size.streams):
            receiver = self.users[i % len(self.users)].address
            data = call_data(
                "transferInParts(address,uint256,uint256)", receiver, RBTC, self.size.stream_parts
            )
            self.mine([self.send(self.deployer, self.token, data=data, gas=8_000_000)])

    def _leave_pending(self) -> None:
        """Transactions with a nonce gap: they wait in the pool."""
        for user, gap in ((self.users[4], 1), (self.users[4], 2), (self.users[5], 3)):
            self._nonces[user.address] = self._nonces.get(user.address, 0) + gap
            self.pending.append(self.send(user, self.users[0].address, value=RBTC))

    def _manifest(self) -> SeedManifest:
        """Facts of the built history."""
        facts = self._facts
        registry = rns_registry(self.chain_id)
        return SeedManifest(
            chain_id=self.chain_id,
            head_at_build=self.ledger.head.number,
            accounts=tuple(u.address_hex for u in (self.deployer, *self.users)),
            private_keys=tuple(_hex(u.private_key) for u in (self.deployer, *self.users)),
            token=_hex(self.token),
            collectible=_hex(self.collectible),
            reverter=_hex(self.reverter),
            multicall=_hex(MULTICALL3),
            rns_registry=_hex(registry),
            rns_resolver=_hex(RNS_RESOLVER),
            rns_names=tuple(
                (n, u.address_hex) for n, u in zip(RNS_NAMES, self.users, strict=False)
            ),
            pending_txs=tuple(_hex(bytes(tx.hash)) for tx in self.pending),
            big_block=facts.big_block,
            big_block_tx_count=self.size.big_block_txs + 1,
            empty_runs=tuple(facts.empty_runs),
            uncle_blocks=tuple(facts.uncle_blocks),
            transfer_log_count=facts.transfer_logs,
            bridge={},  # build() adds the peg's facts
            **facts.hashes,
            **facts.stories,
        )


TRANSFER_TOPIC = keccak(b"Transfer(address,address,uint256)")


def _transfer_logs(block: DevBlock) -> int:
    """How many Transfer events a block holds."""
    return sum(
        1
        for r in block.receipts
        for log in r.logs
        if log.topics and log.topics[0] == TRANSFER_TOPIC
    )
