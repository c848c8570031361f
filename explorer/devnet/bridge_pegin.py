"""The devnet Bridge's registerBtcTransaction: peg-ins, rejections, refunds, returning change.

As rskj's BridgeSupport (RSKIP379 rules, PegUtils.evaluatePegin): a transaction paying the
federation is a peg-in; one spending the federation's outputs is a peg-out coming back (its
change becomes spendable). Partial merkle trees are not checked (the devnet holds no Bitcoin
blocks); the Bitcoin confirmations are, against the Bridge's known Bitcoin height.
"""

from __future__ import annotations

import coincurve
from eth_hash.auto import keccak

from explorer.chain.btc_address import hash160, p2pkh_address, p2sh_address
from explorer.chain.btc_tx import BitcoinTx, BitcoinTxError, encode_varints, parse_tx
from explorer.chain.peg import WEI_PER_SATOSHI
from explorer.chain.pegin_data import PeginDataError, pegin_instructions
from explorer.devnet.bridge_bitcoin import build_release, destination_script, federation
from explorer.devnet.bridge_precompile import BridgeCall
from explorer.devnet.bridge_state import (
    BridgeState,
    Pending,
    Utxo,
    mark_processed,
    processed_height,
)

OP_0 = 0x00


def rsk_address_of(pubkey: bytes) -> bytes:
    """Return the RSK address of a Bitcoin public key (the same secp256k1 key)."""
    uncompressed = coincurve.PublicKey(pubkey).format(compressed=False)
    return keccak(uncompressed[1:])[-20:]


def _pushes(script: bytes) -> list[bytes] | None:
    """Return the data pushes of a push-only script (OP_0 as empty), None otherwise."""
    items, pos = [], 0
    while pos < len(script):
        op = script[pos]
        pos += 1
        if op == OP_0:
            items.append(b"")
            continue
        size, width = (op, 0) if op < 0x4C else ({0x4C: (0, 1), 0x4D: (0, 2)}.get(op, (-1, 0)))
        if size < 0:
            return None
        if width:
            size = int.from_bytes(script[pos : pos + width], "little")
            pos += width
        items.append(script[pos : pos + size])
        pos += size
    return items if pos == len(script) else None


def sender_of(tx: BitcoinTx) -> tuple[str, bytes] | None:
    """Return the first input's sender kind and key or script: P2PKH or P2SH multisig."""
    pushes = _pushes(tx.inputs[0].script_sig) if tx.inputs else None
    if pushes and len(pushes) == 2 and len(pushes[1]) in (33, 65):
        return "P2PKH", pushes[1]
    if pushes and pushes[0] == b"" and len(pushes) >= 3 and pushes[-1][-1:] == b"\xae":
        return "P2SH", pushes[-1]
    return None


def register_btc_transaction(call: BridgeCall, raw: bytes, height: int) -> None:
    """Register a Bitcoin transaction; what cannot be registered leaves no trace (as rskj)."""
    try:
        tx = parse_tx(raw)
    except BitcoinTxError:
        return
    txid = bytes.fromhex(tx.txid)
    bridge = call.load()
    if processed_height(call.state, txid) >= 0:
        return
    if height < 0 or height + call.peg.btc_confirmations - 1 > bridge.btc_best_height:
        return  # not enough Bitcoin confirmations yet
    fed = federation()
    if any(fed.redeem_script in item.script_sig for item in tx.inputs):
        _register_change(call, bridge, tx, txid)
        return
    paid = [(i, out.value) for i, out in enumerate(tx.outputs) if out.script == fed.script]
    if paid:
        _pegin(call, bridge, tx, txid, paid)


def _register_change(call: BridgeCall, bridge: BridgeState, tx: BitcoinTx, txid: bytes) -> None:
    """Register a peg-out seen on Bitcoin: its outputs to the federation become spendable."""
    fed = federation()
    change = tuple(
        Utxo(txid, i, out.value) for i, out in enumerate(tx.outputs) if out.script == fed.script
    )
    call.save(bridge.with_(utxos=(*bridge.utxos, *change)))
    mark_processed(call.state, txid, call.block)


def _pegin(
    call: BridgeCall,
    bridge: BridgeState,
    tx: BitcoinTx,
    txid: bytes,
    paid: list[tuple[int, int]],
) -> None:
    """Evaluate a peg-in: register it, refuse it with a refund, or refuse it for good."""
    total = sum(value for _, value in paid)
    sender = sender_of(tx)
    if any(value < call.peg.min_pegin_sat for _, value in paid):
        _unrefundable(call, txid, rejected=5, unrefundable=3)
        return
    try:
        instructions = pegin_instructions(tx)
    except PeginDataError:
        refund = _sender_address(call, sender)
        if refund is None:
            _unrefundable(call, txid, rejected=4, unrefundable=2)
        else:
            _refund(call, bridge, txid, paid, total, refund, reason=4)
        return
    if instructions is not None:
        _accept(call, bridge, txid, paid, bytes.fromhex(instructions.receiver[2:]), total, 1)
    elif sender is not None and sender[0] == "P2PKH":
        _accept(call, bridge, txid, paid, rsk_address_of(sender[1]), total, 0)
    elif sender is not None:
        _refund(call, bridge, txid, paid, total, _sender_address(call, sender) or "", reason=2)
    else:
        _unrefundable(call, txid, rejected=3, unrefundable=1)


def _sender_address(call: BridgeCall, sender: tuple[str, bytes] | None) -> str | None:
    """Return the Bitcoin address the sender's first input came from, if known."""
    if sender is None:
        return None
    kind, data = sender
    digest = hash160(data)
    net = call.peg.btc
    return p2pkh_address(digest, net) if kind == "P2PKH" else p2sh_address(digest, net)


def _accept(
    call: BridgeCall,
    bridge: BridgeState,
    txid: bytes,
    paid: list[tuple[int, int]],
    receiver: bytes,
    total: int,
    version: int,
) -> None:
    """Credit the receiver with RBTC and keep the outputs as the federation's."""
    call.transfer(receiver, total * WEI_PER_SATOSHI)
    call.emit("pegin_btc", "0x" + receiver.hex(), txid, total, version)
    utxos = tuple(Utxo(txid, i, value) for i, value in paid)
    call.save(bridge.with_(utxos=(*bridge.utxos, *utxos)))
    mark_processed(call.state, txid, call.block)


def _unrefundable(call: BridgeCall, txid: bytes, *, rejected: int, unrefundable: int) -> None:
    """Refuse for good (since Vetiver, RSKIP551, the txid is not marked as processed)."""
    call.emit("rejected_pegin", txid, rejected)
    call.emit("unrefundable_pegin", txid, unrefundable)
    if not call.active(551):
        mark_processed(call.state, txid, call.block)


def _refund(
    call: BridgeCall,
    bridge: BridgeState,
    txid: bytes,
    paid: list[tuple[int, int]],
    total: int,
    refund_to: str,
    reason: int,
) -> None:
    """Refuse with a refund: a peg-out of the whole amount back to the sender."""
    call.emit("rejected_pegin", txid, reason)
    spend = [(txid, i, value) for i, value in paid]
    refund = build_release(spend, [(destination_script(refund_to), total)], bridge.fee_per_kb)
    refund_txid = bytes.fromhex(refund.txid)
    values = tuple(value for _, value in paid)
    call.emit("release_requested", call.tx_hash, refund_txid, total)
    if call.active(428):
        call.emit("pegout_transaction_created", refund_txid, encode_varints(values))
    pending = Pending(refund.serialize(), call.block, call.tx_hash, values)
    call.save(bridge.with_(confirming=(*bridge.confirming, pending)))
    mark_processed(call.state, txid, call.block)
