"""The Bridge's and REMASC's logs and calls in words: amounts, reasons, the Bitcoin side."""

from __future__ import annotations

from dataclasses import dataclass

from explorer.chain.bridge_abi import CALL_ROLES, decode_bridge_call
from explorer.chain.bridge_events import (
    REJECTED_PEGIN_REASONS,
    REJECTED_PEGOUT_REASONS,
    UNREFUNDABLE_PEGIN_REASONS,
    AddSignature,
    BatchPegoutCreated,
    CommitFederation,
    DecodedBridgeLog,
    LockBtc,
    OtherBridgeEvent,
    PeginBtc,
    PegoutConfirmed,
    PegoutTransactionCreated,
    RejectedPegin,
    ReleaseBtc,
    ReleaseRequested,
    ReleaseRequestReceived,
    ReleaseRequestRejected,
    UnrefundablePegin,
    UpdateCollections,
    pegout_amount_in_wei,
    reason_text,
)
from explorer.chain.btc_address import btc_text, p2pkh_address
from explorer.chain.btc_tx import BitcoinTxError, parse_tx
from explorer.chain.peg import PegNetwork, peg_network
from explorer.chain.remasc import RemascPayment
from explorer.chain.units import format_rbtc, readable_rbtc
from explorer.presentation import format as fmt
from explorer.presentation.arguments import abi_field
from explorer.presentation.btc_fields import (
    bitcoin_tx_fields,
    btc_address_field,
    btc_amount_field,
    btc_tx_field,
)
from explorer.presentation.document import Field, Kind, Tone, facts

PEGIN_VERSIONS = {
    0: "0 (legacy: the sender's key names the receiver)",
    1: "1 (OP_RETURN instructions)",
}
LEGACY = "RLP data under an ASCII topic (before RSKIP146, Papyrus)"


@dataclass(frozen=True)
class LogContext:
    """Where a log was read: the chain, its block, the emitting transaction's value."""

    chain_id: int
    block: int | None = None
    tx_value: int | None = None
    currency: str = "RBTC"

    @property
    def peg(self) -> PegNetwork:
        """Return the peg's constants of the chain."""
        return peg_network(self.chain_id)


def _text(label: str, text: str, tone: Tone = Tone.NORMAL, tooltip: str = "") -> Field:
    """Return an indented text field of a decoded log."""
    return fmt.text_field(f"  {label}", text, tone, tooltip)


def _reason(reasons: dict[int, str], code: int) -> Field:
    """Return a refusal's reason: its code in JSON, in words on the page."""
    return fmt.quantity_field("  reason", code, reason_text(reasons, code), Tone.BAD)


def _rsk_tx(label: str, tx_hash: str) -> Field:
    """Return an RSK transaction hash field."""
    return fmt.hash_field(f"  {label}", tx_hash, Kind.TX_HASH)


def pegout_amount_field(
    event: ReleaseRequestReceived | ReleaseRequestRejected, context: LogContext
) -> Field:
    """Return a peg-out amount in its unit (wei from RSKIP427, else satoshis), shown in both."""
    peg = context.peg
    if pegout_amount_in_wei(event, context.block, peg, context.tx_value):
        sat = event.amount // 10**10
        text = (
            f"{readable_rbtc(event.amount, context.currency)} = {btc_text(sat)} (in wei, RSKIP427)"
        )
        exact = format_rbtc(event.amount, context.currency)
        return Field(
            "  amount", text, Kind.AMOUNT, event.amount, f"{event.amount:,} wei", exact=exact
        )
    note = "in satoshis, before RSKIP427"
    return btc_amount_field("  amount", event.amount, note)


def _destination(event: ReleaseRequestReceived, context: LogContext) -> Field:
    """Return the peg-out's Bitcoin destination, either form."""
    if isinstance(event.destination, bytes):
        address = p2pkh_address(event.destination, context.peg.btc)
        return btc_address_field("  destination", address, "from the hash160 the first form gave")
    return btc_address_field("  destination", event.destination)


def bridge_log_fields(decoded: DecodedBridgeLog, context: LogContext) -> list[Field]:
    """Return a decoded Bridge log's fields (after its `Log N · emitted by` line)."""
    event = decoded.event
    form = LEGACY if decoded.legacy else "Solidity ABI"
    fields = [
        fmt.status_field(
            "  Event", decoded.name, f"{decoded.name} — {_title(decoded, context.currency)}"
        ),
        fmt.status_field("  Format", "rlp" if decoded.legacy else "abi", form),
    ]
    return fields + _event_fields(event, context)


def _title(decoded: DecodedBridgeLog, currency: str) -> str:
    """Return what an event means, in a few words (in the chain's own coin)."""
    titles = {
        "lock_btc": "peg-in accepted (before RSKIP170)",
        "pegin_btc": f"peg-in accepted: {currency} credited",
        "rejected_pegin": "peg-in refused",
        "unrefundable_pegin": "peg-in refused, no refund: the funds stay with the PowPeg",
        "release_request_received": "peg-out request queued",
        "release_request_rejected": "peg-out request refused: the value went back",
        "release_requested": "peg-out Bitcoin transaction created",
        "batch_pegout_created": "batched peg-out created",
        "pegout_transaction_created": "peg-out inputs recorded",
        "pegout_confirmed": "peg-out confirmed: ready to sign",
        "add_signature": "a federator signed a peg-out",
        "release_btc": "peg-out signed: ready for Bitcoin",
        "update_collections": "federator heartbeat",
        "commit_federation": "new federation committed",
    }
    return titles.get(decoded.name, "Bridge event")


def _event_fields(event: object, context: LogContext) -> list[Field]:
    """Return the fields of one typed Bridge event."""
    peg, chain_id = context.peg, context.chain_id
    if isinstance(event, PeginBtc | LockBtc):
        fields = [
            fmt.address_field("  receiver", event.receiver, chain_id),
            btc_tx_field("  Bitcoin txid", event.btc_txid, pegin=True),
            btc_amount_field("  amount", event.amount_sat),
        ]
        if isinstance(event, PeginBtc):
            number = event.protocol_version
            version = PEGIN_VERSIONS.get(number, str(number))
            return [*fields, fmt.quantity_field("  protocol", number, version)]
        return [*fields, btc_address_field("  sender", event.sender_btc_address)]
    if isinstance(event, RejectedPegin | UnrefundablePegin):
        reasons = (
            REJECTED_PEGIN_REASONS
            if isinstance(event, RejectedPegin)
            else UNREFUNDABLE_PEGIN_REASONS
        )
        return [
            btc_tx_field("  Bitcoin txid", event.btc_txid, pegin=True),
            _reason(reasons, event.reason),
        ]
    if isinstance(event, ReleaseRequestReceived):
        return [
            fmt.address_field("  sender", event.sender, chain_id),
            _destination(event, context),
            pegout_amount_field(event, context),
        ]
    if isinstance(event, ReleaseRequestRejected):
        return [
            fmt.address_field("  sender", event.sender, chain_id),
            pegout_amount_field(event, context),
            _reason(REJECTED_PEGOUT_REASONS, event.reason),
        ]
    return _pegout_fields(event, context, peg)


def _pegout_fields(event: object, context: LogContext, peg: PegNetwork) -> list[Field]:
    """Return the fields of the peg-out's later events and the federation's."""
    if isinstance(event, ReleaseRequested):
        return [
            _rsk_tx("for RSK tx", event.rsk_tx_hash),
            btc_tx_field("  Bitcoin txid", event.btc_txid, "unsigned: it changes once signed"),
            btc_amount_field("  amount", event.amount_sat),
        ]
    if isinstance(event, BatchPegoutCreated):
        fields = [
            btc_tx_field("  Bitcoin txid", event.btc_txid, "unsigned: it changes once signed")
        ]
        count = len(event.rsk_tx_hashes)
        fields.append(fmt.quantity_field("  requests", count, f"{count} peg-out requests"))
        fields += [_rsk_tx(f"request {i + 1}", h) for i, h in enumerate(event.rsk_tx_hashes)]
        return fields
    if isinstance(event, PegoutTransactionCreated):
        values = event.input_values
        text = "undecodable" if values is None else ", ".join(btc_text(v) for v in values)
        amounts = None if values is None else [str(v) for v in values]
        inputs = fmt.text_field("  inputs", text, amounts_sat=amounts)
        return [btc_tx_field("  Bitcoin txid", event.btc_txid, "unsigned"), inputs]
    if isinstance(event, PegoutConfirmed):
        return [
            btc_tx_field("  Bitcoin txid", event.btc_txid, "unsigned"),
            fmt.block_field("  created in block", event.creation_block),
        ]
    if isinstance(event, AddSignature):
        return _signature_fields(event, context)
    if isinstance(event, ReleaseBtc):
        return _release_fields(event, peg)
    if isinstance(event, UpdateCollections):
        return [fmt.address_field("  sender", event.sender, context.chain_id)]
    if isinstance(event, CommitFederation):
        new = event.new_address
        height = event.activation_height
        federation = (
            btc_address_field("  new federation", new)
            if isinstance(new, str)
            else Field("  new federation", "hash160 0x" + new.hex(), Kind.HEX, new)
        )
        return [federation, Field("  active from", f"{height:,}", Kind.BLOCK, height)]
    if isinstance(event, OtherBridgeEvent):
        chain_id = context.chain_id
        return [abi_field(f"  {p.name or p.type}", p, chain_id) for p in event.event.params]
    return []


def _signature_fields(event: AddSignature, context: LogContext) -> list[Field]:
    """Return a federator's signature event."""
    fields = [_rsk_tx("peg-out created by", event.release_rsk_tx_hash)]
    if event.federator is not None:
        fields.append(fmt.address_field("  federator", event.federator, context.chain_id))
        fields.append(fmt.hex_field("  federator BTC key", event.federator_key))
    else:
        fields.append(fmt.hex_field("  federator key hash", event.federator_key))
    if event.btc_txid:
        fields.append(btc_tx_field("  Bitcoin txid", event.btc_txid))
    return fields


def _release_fields(event: ReleaseBtc, peg: PegNetwork) -> list[Field]:
    """Return the signed Bitcoin transaction of a release, decoded."""
    fields = []
    if event.release_rsk_tx_hash:
        fields.append(_rsk_tx("peg-out created by", event.release_rsk_tx_hash))
    if event.tx is None:
        return [*fields, _text("Bitcoin transaction", f"undecodable: {event.error}", Tone.BAD)]
    return fields + bitcoin_tx_fields("  ", event.tx, peg.btc)


def remasc_fields(payment: RemascPayment, context: LogContext) -> list[Field]:
    """Return one REMASC payment: who got how much, for which block."""
    maturity = context.peg.remasc_maturity
    paid_for = (
        f"block {context.block - maturity:,} (this block − {maturity:,})"
        if context.block is not None
        else f"the block {maturity:,} before"
    )
    for_block = None if context.block is None else context.block - maturity
    paid = f"{readable_rbtc(payment.amount, context.currency)} to {payment.receiver} for {paid_for}"
    return [
        fmt.status_field("  Event", "mining_fee", "mining_fee — REMASC payment"),
        fmt.status_field(
            "  Format",
            "rlp",
            "RLP [paid block hash, amount] under the ASCII topic mining_fee_topic",
        ),
        Field(
            "  paid",
            paid,
            Kind.AMOUNT,
            payment.amount,
            f"{payment.amount:,} wei",
            facts=facts(for_block=for_block),
            exact=format_rbtc(payment.amount, context.currency),
        ),
        fmt.address_field("  receiver", payment.receiver, context.chain_id),
        fmt.hash_field("  paid block", payment.paid_block_hash, Kind.BLOCK),
    ]


def bridge_call_fields(data: bytes, chain_id: int) -> list[Field]:
    """Return a Bridge call decoded with the bundled ABI, with what the call does."""
    if not data:
        return [
            fmt.text_field("Method", "releaseBtc() — a plain transfer to the Bridge: a peg-out")
        ]
    call = decode_bridge_call(data)
    if call is None:
        selector = "0x" + data[:4].hex()
        return [fmt.text_field("Method", f"unknown Bridge method {selector}", Tone.MUTED)]
    role = CALL_ROLES.get(call.name)
    fields = [fmt.text_field("Method", call.signature + (f" — {role}" if role else ""))]
    fields += [abi_field(f"  {p.name or p.type} ({p.type})", p, chain_id) for p in call.params]
    raw = call.params[0].value if call.params else None
    if call.name.startswith("register") and isinstance(raw, bytes):
        try:
            txid = parse_tx(raw).txid
        except BitcoinTxError as error:
            return [*fields, fmt.text_field("  Bitcoin transaction", f"undecodable: {error}")]
        fields.append(btc_tx_field("  Bitcoin txid", txid, "its peg-in status", pegin=True))
    return fields
