"""The transaction page as a document: status first, then §2.4, the receipt (§2.5), input, logs."""

from __future__ import annotations

from dataclasses import dataclass, field

from explorer.chain.abi import decode_call, decode_log
from explorer.chain.blockverify import BlockVerdict
from explorer.chain.bridge_logs import decode_system_log, refused_system_log
from explorer.chain.known import BRIDGE, REMASC
from explorer.chain.records import Log, Receipt, Transaction
from explorer.chain.remasc import RemascPayment
from explorer.presentation import format as fmt
from explorer.presentation.arguments import argument_fields
from explorer.presentation.bridge_fields import (
    LogContext,
    bridge_call_fields,
    bridge_log_fields,
    remasc_fields,
)
from explorer.presentation.callee import Callee, callee_fields
from explorer.presentation.diagnosis_document import BLOCKING, pending_section, pending_sentence
from explorer.presentation.document import Document, Field, Kind, Section, Tone
from explorer.presentation.pegout_document import request_headline
from explorer.presentation.verification import CHECKING, PENDING, with_verdict
from explorer.rpc.nodefailures import NodeFailure
from explorer.services.diagnosis import PendingDiagnosis
from explorer.services.routes import tx_at_route
from explorer.services.token_units import Units


@dataclass(frozen=True)
class TxFacts:
    """What the transaction page knows: the records and the context they are read in."""

    tx: Transaction
    receipt: Receipt | None
    block_timestamp: int | None
    head: int | None
    revert_reason: str | None = None
    complete: bool = True  # False while the block time and revert reason are still being read
    diagnosis: PendingDiagnosis | None = None  # why a pending one waits, once read
    block_size: int | None = None  # transactions in its block, for previous / next
    units: Units = field(default_factory=dict)  # the decimals and symbols of its tokens
    verdict: BlockVerdict | None = None  # the transaction and its block, verified
    callee: Callee | None = None  # the code the call ran against, when it was read to decode it


def status_field(facts: TxFacts, currency: str = "RBTC") -> Field:
    """Return the one-line status: pending (and why), success or failed (and why).

    In JSON: the status word (pending, success, failed, mined: no status known), the
    confirmations (null while the head is not known), and what holds a pending one or why a
    failed one failed.
    """
    tx, receipt = facts.tx, facts.receipt
    if tx.is_pending:
        diagnosis = facts.diagnosis
        if diagnosis is None:
            text = "PENDING — in the node's pool, not in a block yet"
            return fmt.status_field("Status", "pending", text, Tone.WAITING, confirmations=0)
        tone = Tone.BAD if diagnosis.main in BLOCKING else Tone.WAITING
        text = "PENDING — " + pending_sentence(diagnosis, currency)
        hold = diagnosis.main.name.lower()
        return fmt.status_field("Status", "pending", text, tone, confirmations=0, hold=hold)
    count = None
    if facts.head is not None and tx.block_number is not None:
        count = max(facts.head - tx.block_number + 1, 0)
    confirmations = "" if count is None else f" · {count:,} confirmations"
    if receipt is None:
        text = "MINED — the node has no receipt for it" + confirmations
        return fmt.status_field("Status", "mined", text, Tone.MUTED, confirmations=count)
    if receipt.succeeded is None:
        text = "MINED — receipt has a state root, no status" + confirmations
        return fmt.status_field("Status", "mined", text, confirmations=count)
    if receipt.succeeded:
        pegout = request_headline(tx, receipt, currency, confirmations=count)
        if pegout is not None:  # what became of the money, not the EVM status
            return pegout
        text = "SUCCESS" + confirmations
        return fmt.status_field("Status", "success", text, Tone.GOOD, confirmations=count)
    text = "FAILED" + failure_text(facts) + confirmations
    failure = failure_word(facts)
    return fmt.status_field(
        "Status", "failed", text, Tone.BAD, confirmations=count, failure=failure
    )


def failure_word(facts: TxFacts) -> str:
    """Return why a mined transaction failed as a word (out_of_gas, out_of_funds, reverted)."""
    receipt, reason = facts.receipt, facts.revert_reason
    if receipt is not None and receipt.gas_used >= facts.tx.gas:
        return "out_of_gas"
    if not facts.complete:
        return "unknown"
    if reason and reason.startswith(NodeFailure.INSUFFICIENT_FUNDS.human):
        return "out_of_funds"
    return "reverted"


def failure_text(facts: TxFacts) -> str:
    """Return why a mined transaction failed: out of gas, out of funds, or its revert reason."""
    receipt, reason = facts.receipt, facts.revert_reason
    if receipt is not None and receipt.gas_used >= facts.tx.gas:
        return f": ran out of gas (used all {facts.tx.gas:,} gas of its limit)"
    if not facts.complete:
        return " (replaying it to learn why…)"
    if reason and reason.startswith(NodeFailure.INSUFFICIENT_FUNDS.human):
        return ": out of funds — the sender could not pay value + gas × gas price then"
    return f": reverted with “{reason}”" if reason else ""


def tx_document(facts: TxFacts, *, chain_id: int, currency: str, now: float) -> Document:
    """Build the transaction page from a transaction, its receipt and context."""
    tx = facts.tx
    sections = [_overview(facts, chain_id, currency, now)]
    if tx.is_pending:
        sections.append(pending_section(facts.diagnosis, currency, now))
    sections += [_input(tx, facts.units, chain_id, facts.callee), _signature(tx)]
    if facts.receipt is not None:
        sections.append(_receipt(facts.receipt, chain_id, currency))
        sections.append(_logs(facts.receipt.logs, chain_id, tx.value, currency, facts.units))
    raw = {"transaction": dict(tx.raw)}
    if facts.receipt is not None:
        raw["receipt"] = dict(facts.receipt.raw)
    headline = status_field(facts, currency)
    title = f"Transaction {tx.hash}"
    document = Document(title, headline, tuple(sections), raw, chain_id, "transaction")
    waiting = PENDING if tx.is_pending else CHECKING
    return with_verdict(document, facts.verdict, waiting)


KINDS = {
    "remasc": "REMASC: the block's reward settlement (pays an older block's fees to its miners)",
    "bridge": "Bridge (2-way peg)",
    "contract_creation": "Contract creation",
}


def _kind(tx: Transaction) -> str | None:
    """Return what a system or creation transaction is, as a word (a key of KINDS)."""
    if tx.to == REMASC:
        return "remasc"
    if tx.to == BRIDGE:
        return "bridge"
    if tx.is_contract_creation:
        return "contract_creation"
    return None


def _kind_label(tx: Transaction) -> str | None:
    """Return REMASC / Bridge / contract creation labels."""
    kind = _kind(tx)
    return None if kind is None else KINDS[kind]


def _overview(facts: TxFacts, chain_id: int, currency: str, now: float) -> Section:
    """Return who, what, when and how much."""
    tx, receipt = facts.tx, facts.receipt
    fields = [
        fmt.hash_field("Transaction hash", tx.hash, Kind.TX_HASH),
        status_field(facts, currency),
        fmt.block_field("Block", tx.block_number),
    ]
    if facts.block_timestamp is not None:
        fields.append(fmt.time_field("Timestamp", facts.block_timestamp, now))
    elif not facts.complete and not tx.is_pending:
        fields.append(Field("Timestamp", "reading the block…", Kind.TIME, tone=Tone.MUTED))
    fields.append(fmt.address_field("From", tx.sender, chain_id))
    if tx.is_contract_creation:
        created = receipt.contract_address if receipt else None
        fields.append(fmt.address_field("Contract created", created, chain_id, empty="(pending)"))
    else:
        fields.append(fmt.address_field("To", tx.to, chain_id, _kind_label(tx)))
    if tx.is_contract_creation and receipt is not None and receipt.contract_address is None:
        failed = "none (the creation failed)"
        fields[-1] = fmt.address_field("Contract created", None, chain_id, empty=failed)
    if (kind := _kind(tx)) is not None:
        fields.append(fmt.status_field("Kind", kind, KINDS[kind]))
    fields.append(fmt.amount_field("Value", tx.value, currency))
    if receipt is not None:
        fields.append(fmt.amount_field("Fee", receipt.fee(tx.gas_price), currency))
    fields.append(fmt.price_field("Gas price", tx.gas_price, currency))
    if receipt is not None:
        used = fmt.gas_used_text(receipt.gas_used, tx.gas)
        fields.append(fmt.quantity_field("Gas used", receipt.gas_used, used, gas_limit=tx.gas))
    else:
        fields.append(fmt.quantity_field("Gas limit", tx.gas))
    fields += [
        fmt.quantity_field("Nonce", tx.nonce),
        fmt.quantity_field("Position in block", tx.transaction_index),
        *neighbour_fields(facts),
        fmt.quantity_field("Type", tx.type or 0, "legacy (0)" if not tx.type else str(tx.type)),
    ]
    return Section("Overview", tuple(fields))


def neighbour_fields(facts: TxFacts) -> list[Field]:
    """Return links to the transactions before and after it in its block (mined only)."""
    tx = facts.tx
    index, block = tx.transaction_index, tx.block_hash or tx.block_number
    if tx.is_pending or index is None or block is None:
        return []
    size = facts.block_size
    number = f"{tx.block_number:,}" if tx.block_number is not None else "its block"

    def link(label: str, other: int, arrow: str) -> Field:
        text = f"transaction {other} of block {number}"
        text = f"← {text}" if arrow == "←" else f"{text} →"
        return Field(label, text, Kind.QUANTITY, other, link=tx_at_route(block, other))

    def none(label: str, text: str) -> Field:
        return fmt.quantity_field(label, None, text, Tone.MUTED)

    previous = (
        link("Previous in block", index - 1, "←")
        if index > 0
        else none("Previous in block", "none: it is the first")
    )
    if size is None:
        following = none("Next in block", "reading the block…")
    elif index + 1 < size:
        following = link("Next in block", index + 1, "→")
    else:
        following = none("Next in block", "none: it is the last")
    return [previous, following]


def _input(tx: Transaction, units: Units, chain_id: int, callee: Callee | None = None) -> Section:
    """Return the input decoded (by the code it ran against when read), plus the raw hex."""
    fields: list[Field] = []
    if not tx.input and tx.to == BRIDGE:
        return Section("Input", tuple(bridge_call_fields(b"", chain_id)))
    if not tx.input:
        return Section("Input", (fmt.text_field("Input", "none (plain transfer)", Tone.MUTED),))
    call = None if tx.is_contract_creation else decode_call(tx.input)
    if callee is not None and tx.to != BRIDGE:
        fields += callee_fields(callee, chain_id)
        call = callee.decoded or (call if callee.code is None else None)
    if tx.to == BRIDGE:
        fields += bridge_call_fields(tx.input, chain_id)
    elif call is not None:
        fields.append(fmt.text_field("Method", call.signature, selector="0x" + call.selector.hex()))
        fields += argument_fields(call, tx.to, units, chain_id)
    elif tx.is_contract_creation:
        fields.append(fmt.text_field("Method", "contract creation code", Tone.MUTED))
    else:
        selector = "0x" + tx.input[:4].hex()
        unknown = f"unknown selector {selector}"
        fields.append(fmt.text_field("Method", unknown, Tone.MUTED, selector=selector))
    # Creation sends init code, not a call: no selector to pick out of its first four bytes.
    fields.append(fmt.hex_field("Init code" if tx.is_contract_creation else "Raw input", tx.input))
    return Section("Input", tuple(fields))


def _signature(tx: Transaction) -> Section:
    """Return v, r, s and the chain id read from v."""
    if tx.v is None or tx.v == 0:
        chain = "none (unsigned system transaction)" if tx.v is not None else "not sent"
    elif tx.chain_id is None:
        chain = "pre-EIP-155 (no chain id in v)"
    else:
        chain = f"{tx.chain_id} (EIP-155)"
    return Section(
        "Signature",
        (
            fmt.quantity_field("Chain id from v", tx.chain_id if tx.v else None, chain),
            *(
                Field(name, hex(value), Kind.HEX, hex(value))
                if value is not None
                else Field(name, "not given by the node", Kind.HEX, tone=Tone.MUTED)
                for name, value in (("v", tx.v), ("r", tx.r), ("s", tx.s))
            ),
        ),
    )


def _receipt(receipt: Receipt, chain_id: int, currency: str) -> Section:
    """Return every field of the receipt (§2.5)."""
    if receipt.status is None:
        status = Field("Status", "—", Kind.STATUS, tone=Tone.MUTED)
    else:
        word = "success" if receipt.status == 1 else "failed"
        text = f"{receipt.status} ({'success' if receipt.status == 1 else 'failure'})"
        status = fmt.status_field("Status", word, text)
    fields = [
        status,
        fmt.hash_field("Block hash", receipt.block_hash, Kind.BLOCK),
        fmt.block_field("Block number", receipt.block_number),
        fmt.quantity_field("Transaction index", receipt.transaction_index),
        fmt.address_field("From", receipt.sender, chain_id),
        fmt.address_field("To", receipt.to, chain_id, empty="none (a contract creation)"),
        fmt.address_field("Contract address", receipt.contract_address, chain_id, empty="none"),
        fmt.quantity_field("Gas used", receipt.gas_used),
        fmt.quantity_field("Cumulative gas used", receipt.cumulative_gas_used),
    ]
    if receipt.effective_gas_price is not None:
        fields.append(fmt.price_field("Effective gas price", receipt.effective_gas_price, currency))
    if receipt.root is not None:
        fields.append(fmt.hex_field("Root (pre-Byzantium)", receipt.root))
    fields += [
        fmt.quantity_field("Type", receipt.type),
        fmt.quantity_field("Logs", len(receipt.logs)),
        fmt.hex_field("Logs bloom", receipt.logs_bloom),
    ]
    return Section("Receipt", tuple(fields))


def log_fields(
    log: Log,
    chain_id: int,
    tx_value: int | None = None,
    currency: str = "RBTC",
    units: Units | None = None,
) -> list[Field]:
    """Return one log: its emitter, the decoded event when known, raw topics and data.

    The Bridge's and REMASC's logs are decoded in any upgrade's format (bridge_fields.py);
    token amounts read in their token's units when known.
    """
    index = "?" if log.log_index is None else str(log.log_index)
    fields = [fmt.address_field(f"Log {index} · emitted by", log.address, chain_id)]
    system = decode_system_log(log.address, log.topics, log.data)
    event = decode_log(log.topics, log.data) if system is None else None
    if system is not None:
        context = LogContext(chain_id, log.block_number, tx_value, currency)
        if isinstance(system, RemascPayment):
            fields += remasc_fields(system, context)
        else:
            fields += bridge_log_fields(system, context)
    elif event is not None:
        fields.append(fmt.text_field("  Event", event.signature))
        fields += argument_fields(event, log.address, units or {}, chain_id)
    elif (refusal := refused_system_log(log.address, log.topics, log.data)) is not None:
        fields.append(fmt.text_field("  Event", refusal, Tone.BAD))
    else:
        fields.append(fmt.text_field("  Event", "unknown event", Tone.MUTED))
    fields += [Field(f"  topic {i}", topic, Kind.HEX, topic) for i, topic in enumerate(log.topics)]
    fields.append(fmt.hex_field("  data", log.data))
    return fields


def _logs(
    logs: tuple[Log, ...], chain_id: int, tx_value: int, currency: str, units: Units
) -> Section:
    """Return the receipt's logs."""
    if not logs:
        return Section("Logs", (), note="This transaction emitted no logs.")
    fields = (f for log in logs for f in log_fields(log, chain_id, tx_value, currency, units))
    return Section("Logs", tuple(fields))
