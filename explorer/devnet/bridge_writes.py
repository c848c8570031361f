"""The devnet Bridge's writes: peg-out requests, updateCollections, signatures, headers."""

from __future__ import annotations

from collections.abc import Callable

import rlp
from eth.exceptions import VMError

from explorer.chain.btc_address import hash160, p2pkh_address
from explorer.chain.btc_tx import encode_varints, parse_tx
from explorer.chain.peg import WEI_PER_SATOSHI
from explorer.devnet.bridge_bitcoin import (
    build_release,
    destination_script,
    estimated_fee,
    federation,
    signed_release,
)
from explorer.devnet.bridge_pegin import register_btc_transaction
from explorer.devnet.bridge_precompile import BridgeCall, federator_accounts, legacy_rlp
from explorer.devnet.bridge_state import BridgeState, Pending, Request

HEADER_BYTES = 80
FEE_GAP_PERCENT = 80  # rskj: the minimum leaves room for the fee and 80 % more


def release_btc(call: BridgeCall) -> None:
    """Take a peg-out request: queue it, or refuse it (refunding the value) with a reason."""
    value, sender = call.value, call.sender
    if call.computation.msg.depth > 0 or call.state.get_code(sender):
        if call.active(185):
            call.emit("release_request_rejected", "0x" + sender.hex(), _amount(call, value), 2)
        return  # rskj refunds nothing to a contract
    key = call.pubkey if call.pubkey is not None else sender  # a spoofed call has no key
    destination = p2pkh_address(hash160(key), call.peg.btc)
    bridge = call.load()
    satoshis = value // WEI_PER_SATOSHI
    fee_floor = estimated_fee(1, 2, bridge.fee_per_kb) * (100 + FEE_GAP_PERCENT) // 100
    minimum = max(call.peg.min_pegout_sat, fee_floor)
    if satoshis < minimum:
        if call.active(185):
            reason = 3 if minimum == fee_floor else 1
            call.transfer(sender, value)
            call.emit("release_request_rejected", "0x" + sender.hex(), _amount(call, value), reason)
        return
    call.save(bridge.with_(queue=(*bridge.queue, Request(destination, satoshis, call.tx_hash))))
    if call.active(326):
        call.emit(
            "release_request_received", "0x" + sender.hex(), destination, _amount(call, value)
        )
    elif call.active(185):
        received = hash160(key)
        call.emit("release_request_received", "0x" + sender.hex(), received, satoshis, indexed=1)


def _amount(call: BridgeCall, wei: int) -> int:
    """Return a peg-out amount as its event carries it: wei from RSKIP427, else satoshis."""
    return wei if call.active(427) else wei // WEI_PER_SATOSHI


def update_collections(call: BridgeCall) -> None:
    """Run a federator's heartbeat: batch the queued peg-outs, confirm one that waited enough."""
    call.require_federator()
    if call.active(146):
        call.emit("update_collections", "0x" + call.sender.hex())
    else:
        call.emit_legacy("update_collections_topic", rlp.encode(call.sender))
    bridge = call.load()
    if call.active(271) and call.block >= bridge.next_pegout_height:
        bridge = _batch(call, bridge)
    call.save(_confirm(call, bridge))


def _batch(call: BridgeCall, bridge: BridgeState) -> BridgeState:
    """Create one Bitcoin transaction for every queued request (when the UTXOs cover them)."""
    if bridge.queue:
        total = sum(r.amount_sat for r in bridge.queue)
        spend, covered = [], 0
        for utxo in sorted(bridge.utxos, key=lambda u: -u.value):
            if covered >= total:
                break
            spend.append(utxo)
            covered += utxo.value
        if covered < total:
            return bridge  # the requests wait for more peg-ins
        payments = [(destination_script(r.destination), r.amount_sat) for r in bridge.queue]
        tx = build_release([(u.txid, u.index, u.value) for u in spend], payments, bridge.fee_per_kb)
        values = tuple(u.value for u in spend)
        pending = Pending(tx.serialize(), call.block, call.tx_hash, values)
        txid = bytes.fromhex(tx.txid)
        call.emit("release_requested", call.tx_hash, txid, total)
        if call.active(428):
            call.emit("pegout_transaction_created", txid, encode_varints(values))
        call.emit("batch_pegout_created", txid, b"".join(r.rsk_tx_hash for r in bridge.queue))
        bridge = bridge.with_(
            queue=(),
            utxos=tuple(u for u in bridge.utxos if u not in spend),
            confirming=(*bridge.confirming, pending),
        )
    return bridge.with_(next_pegout_height=call.block + call.peg.pegout_interval)


def _confirm(call: BridgeCall, bridge: BridgeState) -> BridgeState:
    """Move the first peg-out with enough RSK confirmations to the ones waiting for signatures."""
    for pending in bridge.confirming:
        if call.block - pending.creation_block >= call.peg.pegout_confirmations:
            if call.active(326):
                txid = bytes.fromhex(parse_tx(pending.raw_tx).txid)
                call.emit("pegout_confirmed", txid, pending.creation_block)
            return bridge.with_(
                confirming=tuple(p for p in bridge.confirming if p is not pending),
                signing=(*bridge.signing, pending),
            )
    return bridge


def add_signature(call: BridgeCall) -> None:
    """Add a federator's signatures to a peg-out; the last one needed releases it."""
    member = call.require_federator()
    pubkey, signatures, rsk_tx_hash = call.args
    fed = federation()
    if fed.member(bytes(pubkey)) != member:
        raise VMError("the public key is not the sender's")
    bridge = call.load()
    pending = next((p for p in bridge.signing if p.creation_tx_hash == bytes(rsk_tx_hash)), None)
    if pending is None or any(index == member for index, _ in pending.signatures):
        return  # rskj ignores signatures for unknown or already signed peg-outs
    unsigned = parse_tx(pending.raw_tx)
    if len(signatures) != len(unsigned.inputs):
        raise VMError("one signature per input is needed")
    signed = (*pending.signatures, (member, tuple(bytes(s) for s in signatures)))
    if call.active(146):
        address = "0x" + federator_accounts()[member].hex()
        call.emit("add_signature", pending.creation_tx_hash, address, bytes(pubkey))
    else:
        data = legacy_rlp(unsigned.txid.encode(), hash160(bytes(pubkey)), pending.creation_tx_hash)
        call.emit_legacy("add_signature_topic", data)
    if len(signed) < fed.threshold:
        updated = tuple(p if p is not pending else _with(p, signed) for p in bridge.signing)
        call.save(bridge.with_(signing=updated))
        return
    released = signed_release(unsigned, dict(signed)).serialize()
    if call.active(146):
        call.emit("release_btc", pending.creation_tx_hash, released)
    else:
        call.emit_legacy(
            "release_btc_topic", legacy_rlp(parse_tx(released).txid.encode(), released)
        )
    call.save(bridge.with_(signing=tuple(p for p in bridge.signing if p is not pending)))


def _with(pending: Pending, signatures: tuple[tuple[int, tuple[bytes, ...]], ...]) -> Pending:
    """Return a pending peg-out with more signatures."""
    return Pending(
        pending.raw_tx,
        pending.creation_block,
        pending.creation_tx_hash,
        pending.input_values,
        signatures,
    )


def receive_headers(call: BridgeCall) -> None:
    """Take a federator's Bitcoin headers: the Bridge's Bitcoin chain grows by one each."""
    call.require_federator()
    (headers,) = call.args
    count = sum(1 for header in headers if len(header) == HEADER_BYTES)
    bridge = call.load()
    call.save(bridge.with_(btc_best_height=bridge.btc_best_height + count))


def register(call: BridgeCall) -> None:
    """Register a federator's Bitcoin transaction (see devnet/bridge_pegin.py)."""
    call.require_federator()
    raw, height, _pmt = call.args
    register_btc_transaction(call, bytes(raw), int(height))


WRITES: dict[str, Callable[[BridgeCall], None]] = {
    "releaseBtc": release_btc,
    "updateCollections": update_collections,
    "addSignature": add_signature,
    "receiveHeaders": receive_headers,
    "registerBtcTransaction": register,
}
