"""The EVM engine: Rootstock's VM (explorer/vm, regtest rules) in a chain without proof of work."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from eth.abc import BlockHeaderAPI, ComputationAPI, ReceiptAPI, SignedTransactionAPI, StateAPI
from eth.chains.base import MiningChain
from eth.consensus.noproof import NoProofConsensus
from eth.db.atomic import AtomicDB
from eth.db.backends.memory import MemoryDB
from eth.estimators.gas import binary_gas_search
from eth.vm.execution_context import ExecutionContext
from eth.vm.forks.berlin import BerlinVM
from eth.vm.spoof import SpoofTransaction
from eth_keys.datatypes import PrivateKey
from eth_typing import Address, BlockNumber, Hash32
from eth_utils.exceptions import ValidationError

from explorer.vm.frames import Recorder
from explorer.vm.gas import intrinsic_gas
from explorer.vm.natives import BRIDGE, REMASC
from explorer.vm.rules import REGTEST_RULES
from explorer.vm.state import RskState, state_class

GAS_LIMIT = 40_000_000
MINIMUM_GAS_PRICE = 60_000_000  # every devnet block's minimumGasPrice
REMASC_ADDRESS = REMASC
ZERO_ADDRESS = bytes(20)
MAX_BALANCE = 2**256 - 1


def _no_block_rewards(vm: object, block: object) -> None:
    """RSK has no Ethereum-style block reward: miners are paid from fees by REMASC."""


def _devnet_state() -> type[RskState]:
    """Return the devnet's state class: Rootstock's rules at regtest heights, and the Bridge."""
    from explorer.devnet.bridge_precompile import bridge_precompile

    return state_class(REGTEST_RULES).configure(
        __name__="DevnetState",
        natives={BRIDGE: bridge_precompile},
        minimum_gas_price=MINIMUM_GAS_PRICE,
    )


#: Rootstock's VM (explorer/vm) under py-evm's block machinery; no proof of work, no reward.
DevnetVM = BerlinVM.configure(
    __name__="DevnetVM",
    consensus_class=NoProofConsensus,
    _assign_block_rewards=_no_block_rewards,
    _state_class=_devnet_state(),
)


@dataclass(frozen=True)
class BlockContext:
    """The block a call or an estimate runs in: what NUMBER, TIMESTAMP, COINBASE … answer."""

    number: int
    timestamp: int
    coinbase: bytes
    difficulty: int
    gas_limit: int
    previous_hashes: tuple[bytes, ...]  # BLOCKHASH: the hashes of the blocks before, newest first


@dataclass(frozen=True)
class CallRequest:
    """A call or gas estimate: the fields of the call object, parsed."""

    sender: bytes
    to: bytes | None
    gas: int | None
    gas_price: int
    value: int
    data: bytes


@dataclass(frozen=True)
class MinedBatch:
    """What py-evm produced for one block: its header, receipts and computations."""

    header: BlockHeaderAPI
    receipts: tuple[ReceiptAPI, ...]
    computations: tuple[ComputationAPI, ...]


def _chain_class(chain_id: int) -> type[MiningChain]:
    """Return a mining chain class for this chain id (the CHAINID opcode answers it)."""
    return MiningChain.configure(
        __name__=f"DevnetChain{chain_id}",
        vm_configuration=((0, DevnetVM),),
        chain_id=chain_id,
    )


class Engine:
    """py-evm state and execution under the devnet's own block records."""

    def __init__(self, chain: MiningChain, db: AtomicDB) -> None:
        self._chain = chain
        self._head = chain.get_canonical_head()
        self._db = db

    @classmethod
    def create(
        cls, chain_id: int, genesis_state: Mapping[bytes, dict[str, Any]], timestamp: int
    ) -> Engine:
        """Return a fresh chain whose genesis holds genesis_state."""
        params = {
            "difficulty": 1,
            "gas_limit": GAS_LIMIT,
            "timestamp": timestamp,
            "coinbase": REMASC_ADDRESS,
            "extra_data": b"",
            "nonce": bytes(8),
            "mix_hash": bytes(32),
        }
        db = AtomicDB()
        chain = _chain_class(chain_id).from_genesis(db, params, dict(genesis_state))  # type: ignore[arg-type]
        return cls(cast(MiningChain, chain), db)

    @classmethod
    def restore(cls, chain_id: int, store: dict[bytes, bytes]) -> Engine:
        """Reopen a chain from a key-value store saved by `store()`."""
        db = AtomicDB(MemoryDB(store))
        return cls(_chain_class(chain_id)(db), db)

    def store(self) -> dict[bytes, bytes]:
        """Return the whole database as a dict, for the snapshot."""
        return cast(MemoryDB, self._db.wrapped_db).kv_store

    @property
    def chain_id(self) -> int:
        """The chain id the VM runs with."""
        return int(self._chain.chain_id)

    def sign(
        self,
        private_key: bytes,
        *,
        nonce: int,
        gas_price: int,
        gas: int,
        to: bytes | None,
        value: int = 0,
        data: bytes = b"",
    ) -> SignedTransactionAPI:
        """Return a legacy transaction signed by py-evm with an EIP-155 v for this chain."""
        unsigned = DevnetVM.create_unsigned_transaction(
            nonce=nonce,
            gas_price=gas_price,
            gas=gas,
            to=Address(to or b""),
            value=value,
            data=data,
        )
        return unsigned.as_signed_transaction(PrivateKey(private_key), chain_id=self.chain_id)

    @staticmethod
    def decode_transaction(raw: bytes) -> SignedTransactionAPI:
        """Decode a signed legacy transaction (raises on anything else)."""
        if not raw or raw[0] < 0xC0:
            raise ValueError("only legacy transactions are supported")
        return DevnetVM.get_transaction_builder().decode(raw)

    def mine(
        self,
        transactions: Sequence[SignedTransactionAPI],
        timestamp: int,
        balance_moves: Sequence[tuple[bytes, int]] = (),
        coinbase: bytes = REMASC_ADDRESS,
        difficulty: int = 1,
    ) -> MinedBatch:
        """Execute transactions into one new block at timestamp (raises if one is invalid).

        Only what the devnet reads back is kept: the state and a header chain with its state
        roots. The devnet's own block records hold transactions, receipts and their roots, so
        py-evm's tries of them (and its checks of a block it has just built) are skipped.
        """
        header = self._chain.create_header_from_parent(
            self._head, timestamp=timestamp, gas_limit=GAS_LIMIT, coinbase=coinbase,
            difficulty=difficulty,
        )  # fmt: skip  # COINBASE and DIFFICULTY answer the block's miner and difficulty
        receipts: tuple[ReceiptAPI, ...] = ()
        computations: tuple[ComputationAPI, ...] = ()
        if transactions or balance_moves:  # else the parent's state: RSK has no block reward
            vm = self._chain.get_vm(header)
            if transactions:
                header, receipts, computations = vm.apply_all_transactions(transactions, header)
            for address, delta in balance_moves:  # REMASC's payments (devnet/remasc.py)
                vm.state.delta_balance(Address(address), delta)
            vm.state.persist()
            header = header.copy(state_root=vm.state.state_root)
        self._chain.chaindb.persist_header(header)
        self._head = header
        return MinedBatch(header, receipts, computations)

    def trace(
        self, number: int, transactions: Sequence[SignedTransactionAPI], index: int
    ) -> Recorder:
        """Run block number's transactions up to index again; record the last one's frames."""
        header = self.header_at(number)
        vm = self._chain.get_vm(header.copy(state_root=self.header_at(number - 1).state_root))
        state = cast(RskState, vm.state)
        for tx in transactions[:index]:
            state.apply_transaction(tx)
        state.recorder = Recorder()
        state.apply_transaction(transactions[index])
        return state.recorder

    def preview(
        self, transactions: Sequence[SignedTransactionAPI], timestamp: int
    ) -> tuple[tuple[ReceiptAPI, ...], StateAPI]:
        """Execute transactions on top of the head without keeping anything: receipts, state."""
        header = self._chain.create_header_from_parent(
            self._head, timestamp=timestamp, gas_limit=GAS_LIMIT, coinbase=REMASC_ADDRESS
        )  # as mine() makes it
        vm = self._chain.get_vm(header)
        _, receipts, _ = vm.apply_all_transactions(transactions, header)
        return tuple(receipts), vm.state

    def applicable(
        self, transactions: Sequence[SignedTransactionAPI], timestamp: int
    ) -> list[SignedTransactionAPI]:
        """Return the transactions that apply in turn on top of the head (others dropped)."""
        accepted: list[SignedTransactionAPI] = []
        for tx in transactions:
            try:
                self.preview([*accepted, tx], timestamp)
            except ValidationError:
                continue
            accepted.append(tx)
        return accepted

    def header_at(self, number: int) -> BlockHeaderAPI:
        """Return the py-evm header of block number."""
        return self._chain.get_canonical_block_header_by_number(number)  # type: ignore[arg-type]

    def state_at(self, number: int) -> StateAPI:
        """Return the state after block number (read it; do not persist changes)."""
        return self._chain.get_vm(self.header_at(number)).state

    def _spoof(self, state: StateAPI, request: CallRequest, gas: int) -> SignedTransactionAPI:
        """Return an unsigned transaction posing as signed by request.sender."""
        unsigned = DevnetVM.create_unsigned_transaction(
            nonce=state.get_nonce(Address(request.sender)),
            gas_price=request.gas_price,
            gas=gas,
            to=Address(request.to or b""),
            value=request.value,
            data=request.data,
        )
        basic = intrinsic_gas(
            REGTEST_RULES, request.data, request.to is None
        )  # rskj's, not Berlin's
        spoof = SpoofTransaction(unsigned, from_=request.sender, intrinsic_gas=basic)
        return cast(SignedTransactionAPI, spoof)

    @contextlib.contextmanager
    def _in_block(
        self, state: StateAPI, context: BlockContext, request: CallRequest
    ) -> Iterator[StateAPI]:
        """Run code on state inside a block's context; every change is undone after.

        As rskj runs a call (ReversibleTransactionExecutor, a local call): in the block's own
        context, with no balance check — the sender is lent what the value and gas would cost.
        """
        saved = state.execution_context
        state.execution_context = ExecutionContext(
            coinbase=Address(context.coinbase),
            timestamp=context.timestamp,
            block_number=BlockNumber(context.number),
            difficulty=context.difficulty,
            mix_hash=Hash32(bytes(32)),
            gas_limit=context.gas_limit,
            prev_hashes=[Hash32(h) for h in context.previous_hashes],
            chain_id=self.chain_id,
        )
        snapshot = state.snapshot()
        try:
            sender = Address(request.sender)
            cost = request.value + context.gas_limit * request.gas_price
            shortfall = cost - state.get_balance(sender)
            if shortfall > 0:
                state.delta_balance(sender, min(shortfall, MAX_BALANCE - state.get_balance(sender)))
            yield state
        finally:
            state.revert(snapshot)
            state.execution_context = saved

    def call(self, request: CallRequest, state: StateAPI, context: BlockContext) -> ComputationAPI:
        """Run a call on a state in a block's context without keeping its effects."""
        with self._in_block(state, context, request):
            gas = min(request.gas or context.gas_limit, context.gas_limit)
            return state.costless_execute_transaction(self._spoof(state, request, gas))

    def estimate_gas(self, request: CallRequest, state: StateAPI, context: BlockContext) -> int:
        """Smallest gas that runs the call to the end; an estimate even when it fails."""
        try:
            with self._in_block(state, context, request):
                spoof = self._spoof(state, request, context.gas_limit)
                return int(binary_gas_search(state, spoof, tolerance=1))
        except Exception:
            return self._failed_gas(request, state, context)

    def _failed_gas(self, request: CallRequest, state: StateAPI, context: BlockContext) -> int:
        """Gas a failing call burns (intrinsic gas included), or just its intrinsic gas."""
        with self._in_block(state, context, request):
            intrinsic = int(self._spoof(state, request, context.gas_limit).intrinsic_gas)
        try:
            return intrinsic + int(self.call(request, state, context).get_gas_used())
        except Exception:
            return intrinsic
