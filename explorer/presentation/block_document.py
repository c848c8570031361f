"""The block page as a document: every field of docs/service.md §2.3, merge mining decoded."""

from __future__ import annotations

from explorer.chain.mergemining import MergeMiningReport, verify_merge_mining
from explorer.chain.records import Block
from explorer.presentation import format as fmt
from explorer.presentation.btc_fields import btc_block_field, btc_tx_field
from explorer.presentation.document import Document, Field, Kind, Section, Tone
from explorer.services.routes import block_route

PREVIOUS = "Previous block"
NEXT = "Next block"


def block_document(
    block: Block, *, chain_id: int, currency: str, head: int | None, now: float
) -> Document:
    """Build the block page from a block record."""
    return Document(
        title="Pending block" if block.is_pending else f"Block {block.number:,}",
        headline=_headline(block, head),
        sections=(
            _overview(block, chain_id, currency, head, now),
            _difficulty(block),
            merge_mining_section(block),
            _hashes(block),
        ),
        raw=dict(block.raw),
        chain_id=chain_id,
    )


def _headline(block: Block, head: int | None) -> Field:
    """Return the block's state: pending, or mined with confirmations."""
    if block.is_pending:
        return fmt.text_field("Status", "Pending — the sample next block, not mined", Tone.WAITING)
    if head is None or block.number is None:
        return fmt.text_field("Status", "Mined", Tone.GOOD)
    confirmations = max(head - block.number + 1, 0)
    return fmt.text_field("Status", f"Mined · {confirmations:,} confirmations", Tone.GOOD)


def _overview(block: Block, chain_id: int, currency: str, head: int | None, now: float) -> Section:
    """Return the main fields of the block."""
    gas = fmt.gas_used_text(block.gas_used, block.gas_limit)
    fields = [
        fmt.block_field("Number", block.number),
        *_neighbour_fields(block, head),
        fmt.hash_field("Hash", block.hash, Kind.HASH, empty="pending"),
        fmt.time_field("Timestamp", block.timestamp, now),
        fmt.text_field("Transactions", f"{len(block.transaction_hashes):,}"),
        fmt.address_field("Miner", block.miner, chain_id, empty="— (pending)"),
        fmt.text_field("Gas used", gas, value=block.gas_used),
        fmt.quantity_field("Gas limit", block.gas_limit),
        _optional_price("Minimum gas price", block.minimum_gas_price, currency),
        _optional_amount("Paid fees", block.paid_fees, currency),
        fmt.quantity_field("Size (bytes)", block.size),
        fmt.text_field("Uncles", f"{len(block.uncles)}"),
    ]
    fields += [fmt.hash_field(f"Uncle {i}", u, Kind.BLOCK) for i, u in enumerate(block.uncles)]
    fields.append(fmt.hex_field("Extra data", block.extra_data))
    return Section("Overview", tuple(fields))


def _neighbour_fields(block: Block, head: int | None) -> tuple[Field, Field]:
    """Return "Previous block" and "Next block": links to N-1 and N+1 where those exist."""
    if block.is_pending:
        previous = (
            fmt.block_field(PREVIOUS, head)
            if head is not None
            else Field(PREVIOUS, "latest", Kind.BLOCK, link=block_route("latest"))
        )
        return previous, fmt.text_field(NEXT, "— (not mined yet)", Tone.MUTED)
    number = block.number or 0
    previous = (
        fmt.block_field(PREVIOUS, number - 1)
        if number > 0
        else fmt.text_field(PREVIOUS, "— (genesis block)", Tone.MUTED)
    )
    if head is not None and number < head:
        following = fmt.block_field(NEXT, number + 1)
    else:
        note = "— (head not known yet)" if head is None else "— (this is the latest block)"
        following = fmt.text_field(NEXT, note, Tone.MUTED)
    return previous, following


def _optional_price(label: str, wei: int | None, currency: str) -> Field:
    """Return a gas price field, or a muted note when the node does not send it."""
    if wei is None:
        return fmt.text_field(label, "not sent by this node", Tone.MUTED)
    return fmt.price_field(label, wei, currency)


def _optional_amount(label: str, wei: int | None, currency: str) -> Field:
    """Return an amount field, or a muted note when the node does not send it."""
    if wei is None:
        return fmt.text_field(label, "not sent by this node", Tone.MUTED)
    return fmt.amount_field(label, wei, currency)


def _difficulty(block: Block) -> Section:
    """Return the difficulty fields."""
    return Section(
        "Difficulty",
        (
            fmt.quantity_field("Difficulty", block.difficulty),
            fmt.quantity_field("Total difficulty", block.total_difficulty),
            fmt.quantity_field(
                "Cumulative difficulty (block + uncles)", block.cumulative_difficulty
            ),
        ),
    )


def _hashes(block: Block) -> Section:
    """Return the roots, the parent and the bloom."""
    return Section(
        "Hashes and roots",
        (
            fmt.hash_field("Parent hash", block.parent_hash, Kind.BLOCK),
            fmt.hash_field("Uncles hash (sha3Uncles)", block.sha3_uncles, Kind.HASH),
            fmt.hash_field("State root", block.state_root, Kind.HASH),
            fmt.hash_field("Transactions root", block.transactions_root, Kind.HASH),
            fmt.hash_field("Receipts root", block.receipts_root, Kind.HASH),
            fmt.hex_field("Logs bloom", block.logs_bloom),
        ),
    )


def merge_mining_report(block: Block) -> MergeMiningReport:
    """Decode and verify the block's merge-mining fields."""
    return verify_merge_mining(
        block.bitcoin_merged_mining_header,
        block.bitcoin_merged_mining_coinbase_transaction,
        block.bitcoin_merged_mining_merkle_proof,
        block.hash_for_merged_mining,
        block_number=block.number,
        difficulty=block.difficulty,
    )


def merge_mining_section(block: Block) -> Section:
    """Return the decoded merge-mining panel: Bitcoin header, coinbase tag, proof, verdict."""
    if block.is_pending:
        return Section("Merge mining", (), note="A pending block is not merge-mined yet.")
    report = merge_mining_report(block)
    verdict = (
        fmt.text_field(
            "Verified", "Yes — the proof links this block to the Bitcoin header", Tone.GOOD
        )
        if report.verified
        else fmt.text_field("Verified", "No — " + "; ".join(report.problems), Tone.BAD)
    )
    fields = [verdict, *_bitcoin_header_fields(report), *_coinbase_fields(report)]
    fields += _hash_for_merged_mining_fields(report)
    return Section("Merge mining", tuple(fields))


def _bitcoin_header_fields(report: MergeMiningReport) -> list[Field]:
    """Return the decoded 80-byte Bitcoin header."""
    header = report.header
    if header is None:
        return [fmt.text_field("Bitcoin header", "not decodable", Tone.BAD)]
    return [
        btc_block_field("Bitcoin block hash", header.block_hash),
        fmt.text_field("Bitcoin version", f"0x{header.version:08x}"),
        btc_block_field("Bitcoin previous block", header.previous_block_hash),
        fmt.text_field("Bitcoin merkle root", header.merkle_root),
        fmt.text_field("Bitcoin time", fmt.utc_text(header.time), tooltip=f"Unix: {header.time}"),
        fmt.text_field(
            "Bitcoin bits",
            f"0x{header.bits:08x} (target 0x{header.target:064x}, "
            f"difficulty {fmt.difficulty_text(header.difficulty)})",
        ),
        fmt.text_field(
            "Bitcoin nonce", f"{header.nonce:,} (0x{header.nonce:08x})", value=header.nonce
        ),
    ]


def _coinbase_fields(report: MergeMiningReport) -> list[Field]:
    """Return the coinbase midstate, its RSKBLOCK tag and the merkle proof check."""
    fields: list[Field] = []
    if report.coinbase is not None:
        fields.append(
            fmt.text_field(
                "Coinbase bytes hashed before midstate", f"{report.coinbase.hashed_length:,}"
            )
        )
    if report.tag is None:
        fields.append(fmt.text_field("RSKBLOCK: tag", "not found in the coinbase", Tone.BAD))
    else:
        same = (
            "equals hashForMergedMining"
            if report.tag_matches
            else "differs from hashForMergedMining"
        )
        fields.append(
            fmt.text_field(
                "RSKBLOCK: tag",
                f"0x{report.tag.hex()} ({same})",
                Tone.GOOD if report.tag_matches else Tone.BAD,
            )
        )
    if report.coinbase_txid is not None:
        fields.append(btc_tx_field("Coinbase txid (recomputed)", report.coinbase_txid[::-1].hex()))
    fields.append(fmt.text_field("Merkle proof", f"{len(report.proof_hashes)} sibling hashes"))
    if report.folded_root is not None:
        matches = "matches" if report.root_matches else "does NOT match"
        fields.append(
            fmt.text_field(
                "Folded merkle root",
                f"{report.folded_root[::-1].hex()} ({matches} the header)",
                Tone.GOOD if report.root_matches else Tone.BAD,
            )
        )
    return fields


def _hash_for_merged_mining_fields(report: MergeMiningReport) -> list[Field]:
    """Return hashForMergedMining and its RSKIP110 parts."""
    if report.hash_for_merged_mining is None:
        return [fmt.text_field("hashForMergedMining", "not sent by this node", Tone.MUTED)]
    fields = [fmt.text_field("hashForMergedMining", "0x" + report.hash_for_merged_mining.hex())]
    if report.parts is not None:
        parts = report.parts
        height = f"{parts.block_number:,}"
        if report.block_number_matches is False:
            height += " (differs from the block number)"
        fields += [
            fmt.text_field("Fork detection data", "0x" + parts.fork_detection.hex()),
            fmt.text_field("Uncles in the last 32 blocks", f"{parts.uncle_count}"),
            fmt.text_field("Height in hashForMergedMining", height),
        ]
    return fields
