"""A peg-out's stages as sections: request, batch, confirmation, signatures, release on Bitcoin."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from explorer.chain.bridge_events import (
    REJECTED_PEGOUT_REASONS,
    ReleaseRequestRejected,
    reason_text,
)
from explorer.chain.btc_address import btc_text, p2pkh_address
from explorer.chain.peg import BLOCK_SECONDS, PegNetwork
from explorer.chain.records import Receipt, Transaction
from explorer.chain.units import readable_rbtc
from explorer.presentation import format as fmt
from explorer.presentation.btc_fields import (
    bitcoin_tx_fields,
    btc_address_field,
    btc_amount_field,
    btc_tx_field,
)
from explorer.presentation.document import Document, Field, Kind, Section, Tone, facts
from explorer.services.pegout import PegoutStatus, request_of


def _eta(blocks: int) -> str:
    """Return about how long some RSK blocks take."""
    return "any moment" if blocks <= 0 else f"about {fmt.duration_text(blocks * BLOCK_SECONDS)}"


def stage_text(
    status: PegoutStatus, peg: PegNetwork, currency: str = "RBTC"
) -> tuple[str, str, Tone]:
    """Return where the peg-out is: a word (JSON's), one line, its tone."""
    if status.rejected is not None:
        return "refused", refusal_text(status.rejected, status.tx.value, currency), Tone.BAD
    if status.release is not None:
        tx = status.released.tx if status.released else None
        txid = f" as {tx.txid}" if tx is not None else ""
        return "sent_to_bitcoin", f"SENT TO BITCOIN{txid}", Tone.GOOD
    if status.scanning is not None:
        return "searching", f"SEARCHING — {status.scanning.text}", Tone.WAITING
    if status.confirmed is not None:
        text = "CONFIRMED — waiting for the federators' signatures"
        return "confirmed", text, Tone.WAITING
    if status.batch is not None:
        due = status.batch.block + peg.pegout_confirmations - status.head
        text = f"IN A BATCH — waiting for confirmations ({_eta(due)})"
        return "in_batch", text, Tone.WAITING
    if status.searched_batch is not None:
        return "queued", "QUEUED — waiting for the next batched peg-out", Tone.WAITING
    return "requested", "REQUESTED", Tone.WAITING


def refusal_text(rejected: ReleaseRequestRejected, value: int, currency: str) -> str:
    """Return what became of a refused request's money, in one line."""
    reason = REJECTED_PEGOUT_REASONS.get(rejected.reason, f"reason {rejected.reason}")
    if rejected.reason == 2:
        return f"REFUSED, NOT REFUNDED — {reason}; rskj keeps the value"
    back = readable_rbtc(value, currency) if value else "the value"
    return f"REFUSED, REFUNDED — {back} came back to the sender: {reason}"


def request_headline(tx: Transaction, receipt: Receipt, currency: str, **more: Any) -> Field | None:
    """Return a peg-out request's headline from its receipt alone (None: not a request).

    The headline says what became of the user's money, not the EVM status (which succeeds
    when the Bridge refuses): refused and refunded, or taken, its stages read next.
    """
    found = request_of(tx, receipt)
    if found is None:
        return None
    event = found.decoded.event
    if isinstance(event, ReleaseRequestRejected):
        text = refusal_text(event, tx.value, currency)
        return pegout_headline("refused", text, Tone.BAD, **more)
    text = "REQUESTED — the Bridge took it; reading its stages…"
    return pegout_headline("requested", text, Tone.WAITING, **more)


def pegout_headline(stage: str, text: str, tone: Tone, **more: Any) -> Field:
    """Return the headline of a peg-out's transaction: its stage (JSON: value pegout, stage)."""
    confirmations = more.get("confirmations")
    said = "" if confirmations is None else f" · {confirmations:,} confirmations"
    return fmt.status_field("Status", "pegout", f"PEG-OUT {text}{said}", tone, stage=stage, **more)


def _request(status: PegoutStatus, peg: PegNetwork, chain_id: int, currency: str) -> Section:
    """Return the request as the Bridge took it (or refused it)."""
    word, text, tone = stage_text(status, peg, currency)
    fields = [fmt.status_field("Stage", word, text, tone)]
    if status.requested_sat is not None:
        fields.append(btc_amount_field("Requested", status.requested_sat))
    destination = status.destination
    if isinstance(destination, bytes):
        address = p2pkh_address(destination, peg.btc)
        fields.append(btc_address_field("To Bitcoin address", address, "from its hash160"))
    elif destination:
        fields.append(btc_address_field("To Bitcoin address", destination))
    rejected = status.rejected
    if rejected is not None:
        reason = reason_text(REJECTED_PEGOUT_REASONS, rejected.reason)
        fields.append(fmt.quantity_field("Refused because", rejected.reason, reason, Tone.BAD))
        back = readable_rbtc(status.tx.value, currency) if status.tx.value else "the value"
        refund = f"{back} came back to the sender in this same transaction"
        refunded = rejected.reason != 2
        if not refunded:
            refund = "a contract's request is not refunded (rskj keeps the value)"
        back_wei = status.tx.value if refunded else 0
        fields.append(
            Field("Refund", refund, Kind.AMOUNT, back_wei, facts=facts(refunded=refunded))
        )
    if status.request is None:
        fields.append(
            fmt.text_field(
                "Bridge event",
                "none: before Iris (RSKIP185) a request left no event",
                Tone.MUTED,
            )
        )
    return Section("Peg-out", tuple(fields))


def _batch(status: PegoutStatus, peg: PegNetwork) -> Section:
    """Return the batch that takes the request, or when it is due."""
    if status.batch is None:
        fields: list[Field] = []
        if status.scanning is not None:
            fields.append(searching_field(status))
        if status.queue is not None:
            height, count = status.queue
            if height is not None:
                due = f"block {height:,} ({_eta(height - status.head)})"
                fields.append(Field("Next peg-out creation", due, Kind.BLOCK, height))
            if count is not None:
                fields.append(fmt.quantity_field("Requests queued", count))
        if status.searched_batch is not None:
            first, last = status.searched_batch
            searched = f"blocks {first:,}–{last:,}: not batched yet"
            fields.append(fmt.text_field("Searched", searched, first_block=first, last_block=last))
        return Section("Batch", tuple(fields), note="Requests wait for the next peg-out height.")
    event = status.batch.decoded.event
    count = len(getattr(event, "rsk_tx_hashes", ())) or 1
    fields = [
        fmt.block_field("Batched in block", status.batch.block),
        fmt.hash_field("Created by", status.creation_tx, Kind.TX_HASH),
        btc_tx_field("Bitcoin txid (unsigned)", status.unsigned_txid or "", "changes once signed"),
        fmt.quantity_field("Requests in it", count),
    ]
    return Section("Batch", tuple(fields))


def release_sections(
    status: PegoutStatus, peg: PegNetwork, currency: str, chain_id: int = 0
) -> list[Section]:
    """Return the confirmation, signatures and release (shared with a refund's page)."""
    if status.batch is None:
        return []
    due_at = status.batch.block + peg.pegout_confirmations
    confirmation: list[Field] = [
        fmt.quantity_field(
            "Needs",
            peg.pegout_confirmations,
            f"{peg.pegout_confirmations:,} RSK blocks after the batch: block {due_at:,}",
            unit="blocks",
            at_block=due_at,
        )
    ]
    if status.confirmed is not None:
        confirmation.append(fmt.block_field("Confirmed in block", status.confirmed.block))
    elif status.scanning is not None:
        confirmation.append(searching_field(status))
    else:
        expected = f"{_eta(due_at - status.head)} (at block {due_at:,})"
        confirmation.append(Field("Expected", expected, Kind.BLOCK, due_at, tone=Tone.WAITING))
    signatures = tuple(
        fmt.address_field(
            f"Signed in block {s.block:,} by", getattr(s.decoded.event, "federator", None), chain_id
        )
        for s in status.signatures
    ) or (fmt.quantity_field("Signatures", 0, "none yet", Tone.MUTED),)
    sections = [
        Section("Confirmation", tuple(confirmation)),
        Section(
            "Signatures",
            signatures,
            note="Federators sign once it is confirmed; enough signatures release it.",
        ),
    ]
    released = status.released
    if released is not None and status.release is not None:
        fields: list[Field] = [fmt.block_field("Released in block", status.release.block)]
        if released.tx is None:
            fields.append(
                fmt.text_field("Bitcoin transaction", f"undecodable: {released.error}", Tone.BAD)
            )
        else:
            fields += bitcoin_tx_fields("", released.tx, peg.btc, status.input_values)
            fields += _fee(status, peg)
        sections.append(Section("Release on Bitcoin", tuple(fields), note=_RELEASE_NOTE))
    return sections


_RELEASE_NOTE = (
    "The Bitcoin txid is computed from the signed transaction the Bridge logged (release_btc); "
    "the batch's hash is of the unsigned one. The federation broadcasts it to Bitcoin."
)


def _fee(status: PegoutStatus, peg: PegNetwork) -> list[Field]:
    """Return what the destination received and the fee: requested minus received."""
    received = status.received_sat(peg)
    if received is None or status.requested_sat is None:
        return []
    fee = status.requested_sat - received
    return [
        btc_amount_field("Received", received, "the output paying the destination"),
        btc_amount_field(
            "Peg-out fee", fee, f"requested {btc_text(status.requested_sat)} less received"
        ),
    ]


def pegout_sections(
    status: PegoutStatus, peg: PegNetwork, chain_id: int, currency: str
) -> list[Section]:
    """Return every stage of a peg-out as sections."""
    sections = [_request(status, peg, chain_id, currency)]
    if status.rejected is None:
        sections.append(_batch(status, peg))
        sections += release_sections(status, peg, currency, chain_id)
    return sections


def with_pegout(
    document: Document, status: PegoutStatus, peg: PegNetwork, currency: str
) -> Document:
    """Return a transaction's document with its peg-out's stages first (what support asks).

    The headline becomes the peg-out's stage (what became of the money), confirmations kept.
    """
    chain_id = document.chain_id or 0
    stages = pegout_sections(status, peg, chain_id, currency)
    sections = (*stages, *document.sections)
    headline = document.headline
    if headline.value in ("success", "pegout"):
        word, text, tone = stage_text(status, peg, currency)
        confirmations = dict(headline.facts).get("confirmations")
        headline = pegout_headline(word, text, tone, confirmations=confirmations)
    return replace(document, headline=headline, sections=sections)


def searching_field(status: PegoutStatus) -> Field:
    """Return where the search for the peg-out's next event is (its blocks in JSON)."""
    scan = status.scanning
    assert scan is not None
    return fmt.text_field(
        "Searching", scan.text, Tone.WAITING, first_block=scan.first, last_block=scan.last,
        at_block=scan.at,
    )  # fmt: skip
