"""A state read lazily: what a replay knows of block N−1, and what it found it lacks.

A replay runs over the values fetched so far (`Known`, preloaded into a fresh py-evm state);
every read of an account field or slot it does not know is noted as a `Need` and answered
with a default, so one run finds every read it can reach. Defaults are zero, or, in a second
exploring run, large (2^128): a token balance then passes its `>=` check and the run reaches
the reads behind it (services/trace.py fetches both runs' needs in one round trip).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from eth.constants import BLANK_ROOT_HASH
from eth.db.atomic import AtomicDB
from eth.vm.execution_context import ExecutionContext
from eth.vm.forks.frontier.state import FrontierState
from eth_typing import Address, BlockNumber, Hash32

HIGH = 2**128  # an exploring run's default balance and slot value
HIGH_ADDRESS = HIGH.to_bytes(32, "big")[-20:]  # an address made of that default: never fetched


class NeedKind(enum.Enum):
    """What a run lacked."""

    BALANCE = "balance"
    NONCE = "nonce"
    CODE = "code"
    STORAGE = "storage"
    NATIVE_CALL = "native-call"  # a read-only native contract call, answered by eth_call
    BLOCK_HASH = "block-hash"
    HEADER = "header"  # the block's own header: time, miner, difficulty, gas limit, min price


@dataclass(frozen=True)
class Need:
    """One read a run lacked (the fields its kind uses; the rest left empty)."""

    kind: NeedKind
    address: bytes = b""
    slot: int = 0
    sender: bytes = b""
    value: int = 0
    data: bytes = b""
    number: int = 0


@dataclass(frozen=True)
class NativeAnswer:
    """What eth_call at block N−1 answered for a native contract call."""

    ok: bool
    output: bytes
    error: str = ""


@dataclass
class Known:
    """Everything fetched for a replay so far, by need."""

    values: dict[Need, Any] = field(default_factory=dict)

    def get(self, need: Need) -> Any:
        """Return a need's fetched value (KeyError when not fetched)."""
        return self.values[need]

    def __contains__(self, need: Need) -> bool:
        """Tell whether a need was fetched."""
        return need in self.values

    def add(self, need: Need, value: Any) -> None:
        """Keep a fetched value."""
        self.values[need] = value


def account_need(kind: NeedKind, address: bytes) -> Need:
    """Return the need of one field of an account."""
    return Need(kind, bytes(address))


def preload(known: Known) -> tuple[AtomicDB, Hash32]:
    """Return a database holding every known account field and slot, and its state root."""
    db = AtomicDB()
    state = FrontierState(db, _null_context(), BLANK_ROOT_HASH)
    for need, value in known.values.items():
        address = Address(need.address)
        if need.kind is NeedKind.BALANCE:
            state.set_balance(address, value)
        elif need.kind is NeedKind.NONCE:
            state.set_nonce(address, value)
        elif need.kind is NeedKind.CODE and value:
            state.set_code(address, value)
        elif need.kind is NeedKind.STORAGE and value:
            state.set_storage(address, need.slot, value)
    state.persist()
    return db, state.state_root


class LazyHeader(ExecutionContext):
    """The block's context; while its header is not read, reading one of its fields is a need.

    TIMESTAMP, COINBASE, DIFFICULTY, GASLIMIT and BASEFEE (the minimum gas price) read it;
    most transactions never do, and their replay reads no block.
    """

    lacking: set[Need] | None = None  # where such a read is noted (None: the header is known)

    def note_header(self) -> None:
        """Note that the run read the header (when it is not known)."""
        if self.lacking is not None:
            self.lacking.add(Need(NeedKind.HEADER, number=self.block_number))

    @property
    def coinbase(self) -> Address:
        """Return the miner's address."""
        self.note_header()
        return super().coinbase

    @property
    def timestamp(self) -> int:
        """Return the block's time."""
        self.note_header()
        return super().timestamp

    @property
    def difficulty(self) -> int:
        """Return the block's difficulty."""
        self.note_header()
        return super().difficulty

    @property
    def gas_limit(self) -> int:
        """Return the block's gas limit."""
        self.note_header()
        return super().gas_limit


def _null_context() -> Any:
    """Return an execution context good enough to write accounts with."""
    return ExecutionContext(
        coinbase=Address(bytes(20)), timestamp=0, block_number=BlockNumber(0), difficulty=0,
        mix_hash=Hash32(bytes(32)), gas_limit=0, prev_hashes=(), chain_id=0,
    )  # fmt: skip


class LazyReads:
    """Mixed into a Rootstock state class: reads of what is not known are noted as needs.

    `fresh` holds the contracts created in this run (their code, nonce and storage start
    empty: nothing to fetch); `first` each field's value at its first read in the current
    transaction, for the state diff.
    """

    known: Known
    needs: set[Need]
    high: bool
    fresh: set[bytes]
    written: set[tuple[NeedKind, bytes, int]]
    first: dict[tuple[NeedKind, bytes, int], Any]
    codes_set: dict[bytes, bytes]

    def start_lazy(self, known: Known, high: bool) -> None:
        """Begin a run over known values (high: explore with large defaults)."""
        self.known, self.needs, self.high = known, set(), high
        self.fresh, self.written, self.first, self.codes_set = set(), set(), {}, {}

    def begin_transaction(self) -> None:
        """Start the diff of the next transaction."""
        self.first, self.codes_set = {}, {}

    def _read(self, kind: NeedKind, address: bytes, slot: int, value: Any) -> Any:
        """Return a read's value: the stored one, or a default when it is not known."""
        key = (kind, bytes(address), slot)
        need = Need(kind, key[1], slot)
        missing = key not in self.written and need not in self.known
        if missing and (kind is NeedKind.BALANCE or key[1] not in self.fresh):
            self.needs.add(need)
            if self.high and kind in (NeedKind.BALANCE, NeedKind.STORAGE):
                value = HIGH
        self.first.setdefault(key, value)
        return value

    def _wrote(self, kind: NeedKind, address: bytes, slot: int = 0) -> None:
        """Note a field this run has set (its later reads are the run's own)."""
        self.written.add((kind, bytes(address), slot))

    def get_balance(self, address: Address) -> int:
        """Return a balance (noting a need when it is not known)."""
        return int(self._read(NeedKind.BALANCE, address, 0, super().get_balance(address)))  # type: ignore[misc]

    def set_balance(self, address: Address, balance: int) -> None:
        """Set a balance."""
        self._read(NeedKind.BALANCE, address, 0, super().get_balance(address))  # type: ignore[misc]
        self._wrote(NeedKind.BALANCE, address)
        super().set_balance(address, balance)  # type: ignore[misc]

    def get_nonce(self, address: Address) -> int:
        """Return a nonce (noting a need when it is not known)."""
        return int(self._read(NeedKind.NONCE, address, 0, super().get_nonce(address)))  # type: ignore[misc]

    def set_nonce(self, address: Address, nonce: int) -> None:
        """Set a nonce."""
        self._wrote(NeedKind.NONCE, address)
        super().set_nonce(address, nonce)  # type: ignore[misc]

    def increment_nonce(self, address: Address) -> None:
        """Raise a nonce by one, through the reads and writes that note it."""
        self.set_nonce(address, self.get_nonce(address) + 1)

    def get_code(self, address: Address) -> bytes:
        """Return code (noting a need when it is not known)."""
        return bytes(self._read(NeedKind.CODE, address, 0, super().get_code(address)))  # type: ignore[misc]

    def set_code(self, address: Address, code: bytes) -> None:
        """Set code (a creation's)."""
        self._wrote(NeedKind.CODE, address)
        self.codes_set[bytes(address)] = bytes(code)
        super().set_code(address, code)  # type: ignore[misc]

    def get_storage(self, address: Address, slot: int, from_journal: bool = True) -> int:
        """Return a slot's value (noting a need when it is not known)."""
        value = super().get_storage(address, slot, from_journal)  # type: ignore[misc]
        return int(self._read(NeedKind.STORAGE, address, slot, value))

    def set_storage(self, address: Address, slot: int, value: int) -> None:
        """Set a slot."""
        self._wrote(NeedKind.STORAGE, address, slot)
        super().set_storage(address, slot, value)  # type: ignore[misc]

    def account_is_empty(self, address: Address) -> bool:
        """Tell whether an account is empty, asking code, then balance, then nonce.

        A field not known yet ends the check (as empty): the next round fetches it, and only
        then the next field, so a contract or a funded account costs no nonce read.
        """
        for read in (self.get_code, self.get_balance, self.get_nonce):
            before = len(self.needs)
            if read(address):
                return False
            if len(self.needs) > before:
                return True
        return True

    def account_exists(self, address: Address) -> bool:
        """Tell whether an account exists (not empty)."""
        return not self.account_is_empty(address)

    def has_code_or_nonce(self, address: Address) -> bool:
        """Tell whether a creation collides: never, for a replay; the account is fresh."""
        self.fresh.add(bytes(address))
        return False

    def get_ancestor_hash(self, block_number: int) -> Hash32:
        """Return an earlier block's hash (noting a need when it is not known)."""
        need = Need(NeedKind.BLOCK_HASH, number=block_number)
        if need in self.known:
            return Hash32(self.known.get(need))
        self.needs.add(need)
        return Hash32(bytes(32))
