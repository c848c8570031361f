"""The devnet Bridge: a precompile at 0x…01000006 answering rskj's Bridge methods.

The Bridge is a precompiled contract on Rootstock too, so the devnet makes it one in py-evm:
its reads answer from the state kept in the Bridge's storage (devnet/bridge_state.py), its
writes emit rskj's events in the format of the block's upgrade (ABI from RSKIP146, RLP under
an ASCII topic before) and move RBTC as rskj does. A method the block's upgrades lack fails
as rskj's does (an empty answer to `eth_call`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import rlp
from eth.abc import ComputationAPI
from eth.exceptions import VMError
from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from eth_keys.datatypes import Signature

from explorer.chain.bridge_abi import bridge_event, bridge_function, bridge_outputs
from explorer.chain.bridge_legacy import ascii_topic
from explorer.chain.peg import PegNetwork, devnet_peg
from explorer.devnet.accounts import derive_account
from explorer.devnet.bridge_bitcoin import estimated_fee, federation
from explorer.devnet.bridge_state import (
    BRIDGE_ADDRESS,
    BridgeState,
    load_state,
    processed_height,
    save_state,
)


@cache
def federator_accounts() -> tuple[bytes, ...]:
    """Return the RSK addresses of the federators, in the federation's key order."""
    return tuple(derive_account(label).address for label in federation().labels)


@dataclass
class BridgeCall:
    """One call into the Bridge: who, how much, in which block and transaction."""

    computation: ComputationAPI
    peg: PegNetwork
    block: int
    sender: bytes
    value: int
    args: tuple[Any, ...]
    tx_hash: bytes
    pubkey: bytes | None  # the sending account's compressed public key (signed txs only)

    @property
    def state(self) -> Any:
        """Return the EVM state the call runs on."""
        return self.computation.state

    def load(self) -> BridgeState:
        """Return the Bridge's stored state."""
        return load_state(self.state)

    def save(self, bridge: BridgeState) -> None:
        """Store the Bridge's state."""
        save_state(self.state, bridge)

    def active(self, rskip: int) -> bool:
        """Tell whether an RSKIP is active in this block."""
        return self.peg.active(rskip, self.block)

    def emit(self, name: str, *values: Any, indexed: int | None = None) -> None:
        """Log a Solidity-ABI event of the Bridge (topics for indexed parameters)."""
        event = bridge_event(name, indexed)
        topics = [int.from_bytes(event.key, "big")]
        data_types, data_values = [], []
        for param, value in zip(event.params, values, strict=True):
            if param.indexed:
                topics.append(int.from_bytes(abi_encode([param.type], [value]), "big"))
            else:
                data_types.append(param.type)
                data_values.append(value)
        data = abi_encode(data_types, data_values)
        self.computation.add_log_entry(BRIDGE_ADDRESS, tuple(topics), data)

    def emit_legacy(self, topic: str, data: bytes) -> None:
        """Log a pre-RSKIP146 event: RLP data under an ASCII topic."""
        topic_word = int(ascii_topic(topic), 16)
        self.computation.add_log_entry(BRIDGE_ADDRESS, (topic_word,), data)

    def transfer(self, to: bytes, wei: int) -> None:
        """Move RBTC out of the Bridge (a peg-in, a refund)."""
        self.state.delta_balance(BRIDGE_ADDRESS, -wei)
        self.state.delta_balance(to, wei)

    def require_federator(self) -> int:
        """Return the sender's federator index; fail the call for anyone else."""
        if self.sender not in federator_accounts():
            raise VMError("Sender is not part of the active or retiring federations")
        return federator_accounts().index(self.sender)


Handler = Callable[[BridgeCall], bytes]
_REQUIRES = {
    "getLockingCap": 134,
    "getNextPegoutCreationBlockNumber": 271,
    "getQueuedPegoutsCount": 271,
    "getEstimatedFeesForNextPegOutEvent": 271,
    "getProposedFederationAddress": 419,
    "getEstimatedFeesForPegOutAmount": 540,
}


def _out(name: str, value: Any) -> bytes:
    """ABI-encode a method's output as rskj declares it (the bundled ABI)."""
    return abi_encode(list(bridge_outputs(name)), [value])


def _txid(call: BridgeCall) -> bytes:
    """Return the Bitcoin txid a read names (64 hex digits, display order)."""
    text = str(call.args[0]).removeprefix("0x")
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raise VMError("invalid Bitcoin transaction hash") from None
    if len(raw) != 32:
        raise VMError("invalid Bitcoin transaction hash")
    return raw


def _next_event_fee(bridge: BridgeState, extra: int = 0) -> int:
    """Return the estimated fee of the next batched peg-out (0 with nothing queued)."""
    count = len(bridge.queue) + extra
    return estimated_fee(2, count + 2, bridge.fee_per_kb) if count else 0


READS: dict[str, Callable[[BridgeCall], Any]] = {
    "getFederationAddress": lambda c: federation().address(c.peg.btc),
    "getRetiringFederationAddress": lambda c: "",
    "getProposedFederationAddress": lambda c: "",
    "getFederationSize": lambda c: len(federation().pubkeys),
    "getFederationThreshold": lambda c: federation().threshold,
    "getActivePowpegRedeemScript": lambda c: federation().redeem_script,
    "getLockingCap": lambda c: c.load().locking_cap,
    "getMinimumLockTxValue": lambda c: c.peg.min_pegin_sat,
    "getFeePerKb": lambda c: c.load().fee_per_kb,
    "getBtcBlockchainBestChainHeight": lambda c: c.load().btc_best_height,
    "getBtcTxHashProcessedHeight": lambda c: processed_height(c.state, _txid(c)),
    "isBtcTxHashAlreadyProcessed": lambda c: processed_height(c.state, _txid(c)) >= 0,
    "getNextPegoutCreationBlockNumber": lambda c: c.load().next_pegout_height,
    "getQueuedPegoutsCount": lambda c: len(c.load().queue),
    "getEstimatedFeesForNextPegOutEvent": lambda c: _next_event_fee(c.load()),
    "getEstimatedFeesForPegOutAmount": lambda c: _next_event_fee(c.load(), 1),
}


@cache
def _methods() -> dict[bytes, tuple[str, tuple[str, ...]]]:
    """Return name and argument types of every method the devnet Bridge answers, by selector."""
    from explorer.devnet.bridge_writes import WRITES

    names = (*READS, *WRITES)
    table: dict[bytes, tuple[str, tuple[str, ...]]] = {}
    for name in names:
        function = bridge_function(name)
        table[function.key] = (name, tuple(p.type for p in function.params))
    return table


def _context(computation: ComputationAPI) -> tuple[bytes, bytes | None]:
    """Return the running transaction's hash and its sender's compressed public key."""
    tx = getattr(computation.transaction_context, "transaction", None)
    if tx is None:
        return bytes(32), None
    try:
        tx_hash = bytes(tx.hash)
        signature = Signature(vrs=(tx.y_parity, tx.r, tx.s))
        pubkey = signature.recover_public_key_from_msg(tx.get_message_for_signing())
        return tx_hash, pubkey.to_compressed_bytes()
    except Exception:  # a spoofed call (eth_call, estimates) is not signed
        return bytes(32), None


def bridge_precompile(computation: ComputationAPI) -> ComputationAPI:
    """Run one call into the Bridge (charged by the VM as rskj charges it: vm/natives.py)."""
    from explorer.devnet.bridge_writes import WRITES, release_btc

    data = bytes(computation.msg.data_as_bytes)
    state = computation.state
    peg = devnet_peg(int(state.execution_context.chain_id or 31))
    tx_hash, pubkey = _context(computation)
    msg = computation.msg
    call = BridgeCall(
        computation, peg, state.block_number, bytes(msg.sender), msg.value, (), tx_hash, pubkey
    )
    if not data:
        release_btc(call)
        return computation
    method = _methods().get(data[:4])
    if method is None:
        raise VMError(f"Invalid data given: {data[:4].hex()}")
    name, types = method
    if name in _REQUIRES and not peg.active(_REQUIRES[name], call.block):
        raise VMError(f"'{name}' is not enabled to run")
    try:
        call.args = tuple(abi_decode(list(types), data[4:]))
    except Exception:
        raise VMError(f"Invalid function arguments for {name}") from None
    if name in READS:
        computation.output = _out(name, READS[name](call))
    else:
        WRITES[name](call)
    return computation


def legacy_rlp(*items: Any) -> bytes:
    """Return RLP of a list of items (the legacy events' data)."""
    return bytes(rlp.encode(list(items)))
