"""A peg-in's page: what the Bridge did with a Bitcoin transaction, or what not yet."""

from __future__ import annotations

import time

from explorer.chain.bridge_events import (
    REJECTED_PEGIN_REASONS,
    UNREFUNDABLE_PEGIN_REASONS,
    LockBtc,
    PeginBtc,
    RejectedPegin,
    UnrefundablePegin,
    reason_text,
)
from explorer.chain.peg import BTC_BLOCK_SECONDS, PegNetwork
from explorer.presentation import format as fmt
from explorer.presentation.bridge_fields import PEGIN_VERSIONS
from explorer.presentation.btc_fields import btc_amount_field, btc_tx_field
from explorer.presentation.document import Document, Field, Kind, Section, Tone
from explorer.presentation.pegout_document import release_sections
from explorer.services.pegin import PeginStatus
from explorer.services.pegout import PegoutStatus


def _headline(status: PeginStatus, currency: str) -> Field:
    """Return the peg-in's outcome in one line."""
    accepted = status.first(PeginBtc) or status.first(LockBtc)
    rejected, unrefundable = status.first(RejectedPegin), status.first(UnrefundablePegin)
    if accepted is not None:
        text = f"ACCEPTED — {accepted.amount_sat / 1e8:.8f} BTC credited as {currency}"
        amount = str(accepted.amount_sat)
        return fmt.status_field("Status", "accepted", text, Tone.GOOD, amount_sat=amount)
    if unrefundable is not None:
        text = "REFUSED, NOT REFUNDED — the funds stay with the PowPeg"
        return fmt.status_field("Status", "refused_not_refunded", text, Tone.BAD)
    if rejected is not None:
        text = "REFUSED, REFUNDED — a peg-out returns the bitcoin"
        return fmt.status_field("Status", "refused_refunded", text, Tone.WAITING)
    if status.processed_height is not None:
        text = "PROCESSED — the Bridge registered it"
        return fmt.status_field("Status", "processed", text, Tone.GOOD)
    return fmt.status_field(
        "Status", "not_registered", "NOT REGISTERED BY THE BRIDGE", Tone.WAITING
    )


def _registration(status: PeginStatus, chain_id: int, now: float) -> list[Field]:
    """Return where and by whom the peg-in was registered."""
    fields: list[Field] = []
    block = status.block
    first = status.events[0].log if status.events else None
    number = status.processed_height
    if number is None and first is not None:
        number = first.block_number
    fields.append(fmt.block_field("Registered in block", number, empty="—"))
    if block is not None:
        fields.append(fmt.time_field("Registered at", block.timestamp, now))
    tx = status.registering_tx
    if tx is None and first is not None and first.transaction_hash:
        fields.append(
            fmt.hash_field("Registering RSK transaction", first.transaction_hash, Kind.TX_HASH)
        )
    if tx is not None:
        fields.append(fmt.hash_field("Registering RSK transaction", tx.hash, Kind.TX_HASH))
        by = "Flyover: a liquidity provider's fast peg-in (registerFastBridgeBtcTransaction)"
        if not status.flyover:
            by = "a federator (registerBtcTransaction)"
        fields.append(fmt.address_field("Registered by", tx.sender, chain_id))
        word = "flyover" if status.flyover else "federator"
        fields.append(fmt.status_field("Registration", word, by))
    return fields


def _outcome(status: PeginStatus, chain_id: int, currency: str) -> list[Field]:
    """Return the receiver and amount, or the reasons of a refusal."""
    accepted = status.first(PeginBtc) or status.first(LockBtc)
    fields: list[Field] = []
    if accepted is not None:
        fields += [
            fmt.address_field("Receiver", accepted.receiver, chain_id),
            btc_amount_field("Amount", accepted.amount_sat, f"credited 1:1 as {currency}"),
        ]
        if isinstance(accepted, PeginBtc):
            number = accepted.protocol_version
            version = PEGIN_VERSIONS.get(number, str(number))
            fields.append(fmt.quantity_field("Protocol version", number, version))
        else:
            text = "lock_btc: before RSKIP170 (Iris)"
            fields.append(fmt.status_field("Protocol", "lock_btc", text))
    rejected, unrefundable = status.first(RejectedPegin), status.first(UnrefundablePegin)
    if rejected is not None:
        text = reason_text(REJECTED_PEGIN_REASONS, rejected.reason)
        fields.append(fmt.quantity_field("Refused because", rejected.reason, text, Tone.BAD))
    if unrefundable is not None:
        text = reason_text(UNREFUNDABLE_PEGIN_REASONS, unrefundable.reason)
        code = unrefundable.reason
        fields.append(fmt.quantity_field("No refund because", code, text, Tone.BAD))
    return fields


def _not_registered(status: PeginStatus, peg: PegNetwork) -> Section:
    """Explain what 'not registered' means, and no more than the Bridge can say."""
    wait = fmt.duration_text(peg.btc_confirmations * BTC_BLOCK_SECONDS)
    tip = f"block {status.btc_tip:,}" if status.btc_tip is not None else "not known (refused)"
    fields = [
        fmt.quantity_field("Bridge's Bitcoin tip", status.btc_tip, tip),
        fmt.quantity_field(
            "Needs",
            peg.btc_confirmations,
            f"{peg.btc_confirmations:,} Bitcoin confirmations (about {wait}), then a federator "
            "registers it with the Bridge",
            unit="btc_blocks",
        ),
    ]
    if status.searched is not None:
        first, last = status.searched
        fields.append(
            fmt.text_field(
                "Refusals searched",
                f"blocks {first:,}–{last:,}: none (a peg-in refused without a refund is only "
                "told by an event, so these blocks were searched for one)",
                first_block=first,
                last_block=last,
            )
        )
    note = (
        "The Bridge has not registered this Bitcoin transaction. If it paid the federation's "
        "address, it is registered once it has enough confirmations and the Bridge's Bitcoin tip "
        "passes them; until then the Bridge knows nothing of it. A Flyover (fast) peg-in is not "
        "kept under its Bitcoin txid: the Flyover provider that made it can say its status. It "
        "may also not be a peg-in at all."
    )
    return Section("Not registered", tuple(fields), note=note)


def pegin_document(
    status: PeginStatus,
    peg: PegNetwork,
    *,
    chain_id: int,
    currency: str,
    refund: PegoutStatus | None = None,
) -> Document:
    """Return a peg-in's page."""
    now = time.time()
    overview = [btc_tx_field("Bitcoin txid", status.btc_txid), _headline(status, currency)]
    sections = []
    if status.found:
        overview += _outcome(status, chain_id, currency) + _registration(status, chain_id, now)
        sections.append(Section("Peg-in", tuple(overview)))
        request = status.refund
        if request is not None:
            sections.append(_refund_section(status, request.btc_txid, request.amount_sat))
            if refund is not None:
                sections += release_sections(refund, peg, currency, chain_id)
    else:
        sections = [Section("Peg-in", tuple(overview)), _not_registered(status, peg)]
    raw = {
        "btc_txid": status.btc_txid,
        "processed_height": status.processed_height,
        "logs": [dict(e.log.raw) for e in status.events],
    }
    title = f"Peg-in {status.btc_txid}"
    headline = _headline(status, currency)
    return Document(title, headline, tuple(sections), raw, chain_id, "pegin")


def _refund_section(status: PeginStatus, unsigned_txid: str, amount_sat: int) -> Section:
    """Return the refund: a peg-out the registering transaction created."""
    fields = [
        btc_amount_field("Refund amount", amount_sat, "before the Bitcoin fee"),
        btc_tx_field("Refund transaction", unsigned_txid, "unsigned: it changes once signed"),
    ]
    if status.registering_tx is not None:
        fields.append(fmt.hash_field("Created by", status.registering_tx.hash, Kind.TX_HASH))
    return Section(
        "Refund",
        tuple(fields),
        note="The refund is a peg-out back to the sender: it follows a peg-out's stages below.",
    )
