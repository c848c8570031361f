"""What happened inside a transaction: its call tree, money trail and state diff, and their proof.

The records a trace source returns (services/trace.py: a node's trace, or a replay) and the
transaction page's Inside tab, the History tab and `explorer trace` show. Pure and frozen:
addresses and hashes are lowercase hex, amounts ints (wei or token base units), data bytes.
A trace is shown as fact only when `faithful` (chain/trace_proof.py); otherwise `divergence`
says where it left the receipt.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass


class CallKind(enum.Enum):
    """How a frame was entered."""

    CALL = "CALL"
    CALLCODE = "CALLCODE"
    DELEGATECALL = "DELEGATECALL"
    STATICCALL = "STATICCALL"
    CREATE = "CREATE"
    CREATE2 = "CREATE2"
    SELFDESTRUCT = "SELFDESTRUCT"

    @property
    def moves_value(self) -> bool:
        """Tell whether a frame of this kind moves its value from sender to callee."""
        return self not in (CallKind.DELEGATECALL, CallKind.STATICCALL, CallKind.CALLCODE)

    @property
    def creates(self) -> bool:
        """Tell whether a frame of this kind creates a contract."""
        return self in (CallKind.CREATE, CallKind.CREATE2)


class TraceSource(enum.Enum):
    """Where a trace came from (the JSON's `source`)."""

    NODE_TRACE = "node-trace"  # the node's trace_transaction or debug_traceTransaction
    REPLAY = "replay"  # replayed here over the state at block N−1
    REPLAY_WITH_BLOCK = "replay-with-block"  # … after the block's earlier transactions


@dataclass(frozen=True)
class TraceLog:
    """An event a frame emitted: its address, topics and data, and its place in the run."""

    address: str
    topics: tuple[str, ...]
    data: bytes
    seq: int  # order among the run's frames and events (not the receipt's log index)


@dataclass(frozen=True)
class CallFrame:
    """One call or creation and everything under it.

    `to` is the callee (the new contract for a creation, the code's address for DELEGATECALL
    and CALLCODE, the beneficiary for SELFDESTRUCT); `error` is None for a frame that ended
    well ("execution reverted" for a REVERT, else the failure in words); `native` names a
    precompiled or native contract; `note` says how a native call's answer was found.
    """

    kind: CallKind
    sender: str
    to: str | None
    value: int
    input: bytes
    output: bytes
    error: str | None
    gas: int | None
    gas_used: int
    depth: int
    seq: int
    logs: tuple[TraceLog, ...] = ()
    calls: tuple[CallFrame, ...] = ()
    native: str | None = None
    note: str | None = None

    @property
    def ok(self) -> bool:
        """Tell whether the frame ended without error or revert."""
        return self.error is None

    @property
    def reverted(self) -> bool:
        """Tell whether the frame ended in a REVERT (its output is the revert data)."""
        return self.error == REVERTED

    def walk(self) -> Iterator[CallFrame]:
        """Yield this frame and every frame under it, in execution order."""
        yield self
        for call in self.calls:
            yield from call.walk()

    @property
    def frame_count(self) -> int:
        """How many frames the tree holds, this one included."""
        return sum(1 for _ in self.walk())

    @property
    def max_depth(self) -> int:
        """The deepest frame's depth (the top frame is 0)."""
        return max(frame.depth for frame in self.walk())


REVERTED = "execution reverted"
#: How a native contract call's answer was found (a replay's frame notes), and their words.
ANSWERED_BY_CALL = "a read: answered by eth_call at block N−1"
NOT_REPLAYED = "native contract, not replayed: its events are the receipt's"
MOVED_BY_EVENT = "moved by the native contract, as its event tells"
NATIVE_ANSWERS = {ANSWERED_BY_CALL: "eth_call", NOT_REPLAYED: "receipt_events",
                  MOVED_BY_EVENT: "event"}  # fmt: skip


class AssetKind(enum.Enum):
    """What a transfer moves."""

    NATIVE = "native"  # RBTC, by a call's value, a creation's endowment or a self-destruct
    FEE = "fee"  # the transaction's fee, from the sender to REMASC
    ERC20 = "erc20"  # a token's Transfer event with three topics
    ERC721 = "erc721"  # … with four topics: the token id is the amount


@dataclass(frozen=True)
class Transfer:
    """One move in the money trail, in execution order.

    `asset` is "native" for RBTC (and the fee) or the token's address; `amount` is in wei or
    the token's base units (an ERC-721's token id); `depth` is the depth of the frame that
    moved it (0: the transaction itself; None: not known, a token event a node's trace gives
    without its frame); `seq` its place in the run.
    """

    kind: AssetKind
    asset: str
    sender: str
    receiver: str
    amount: int
    depth: int | None
    seq: int

    @property
    def native(self) -> bool:
        """Tell whether RBTC moved (a value or the fee)."""
        return self.kind in (AssetKind.NATIVE, AssetKind.FEE)


@dataclass(frozen=True)
class AccountChange:
    """An account's balance (wei) or nonce before and after the transaction."""

    address: str
    before: int
    after: int


@dataclass(frozen=True)
class StorageChange:
    """A storage slot's value before and after (32-byte words as ints)."""

    address: str
    slot: int
    before: int
    after: int


@dataclass(frozen=True)
class CodeChange:
    """Code a creation left (or a self-destruct removed: empty `code`)."""

    address: str
    code: bytes


@dataclass(frozen=True)
class StateDiff:
    """What the transaction changed, per account: balances, nonces, slots and code."""

    balances: tuple[AccountChange, ...]
    nonces: tuple[AccountChange, ...]
    storage: tuple[StorageChange, ...]
    codes: tuple[CodeChange, ...]

    def balance_of(self, address: str) -> AccountChange | None:
        """Return an address's balance change, if it changed."""
        return next((c for c in self.balances if c.address == address), None)


class DivergenceKind(enum.Enum):
    """Where a trace first left the receipt."""

    STATUS = "status"
    GAS = "gas"
    LOG = "log"
    NOT_REPLAYED = "not_replayed"  # no run could be made (an unknown rule, a missing native)


@dataclass(frozen=True)
class Divergence:
    """The first difference between a trace and the receipt, in words."""

    kind: DivergenceKind
    text: str
    log_index: int | None = None  # the first differing log (LOG)


@dataclass(frozen=True)
class TraceResult:
    """A transaction's inside, proven against its receipt or said to diverge.

    `root` is the call tree (None only when nothing could be run); `diff` the state diff (a
    node's trace has none); `requests` what it cost to make; `notes` what the reader must know
    (earlier transactions replayed first, native calls not replayed, the rules used).
    """

    tx: str
    block: int
    block_hash: str
    index: int
    source: TraceSource
    faithful: bool
    divergence: Divergence | None
    status: bool
    gas_used: int
    fee: int
    root: CallFrame | None
    transfers: tuple[Transfer, ...]
    diff: StateDiff | None
    notes: tuple[str, ...] = ()
    rules: str = ""
    requests: int = 0  # requests this trace cost (0: from the saved data)
    round_trips: int = 0
    accounts_read: int = 0  # distinct accounts and slots a replay read at N−1 (its floor)
    slots_read: int = 0

    def frames(self) -> Iterator[CallFrame]:
        """Yield every frame of the call tree in execution order."""
        if self.root is not None:
            yield from self.root.walk()
