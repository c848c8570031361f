"""The block page as a document: every field of docs/service.md §2.3, merge mining decoded."""

from __future__ import annotations

from explorer.chain.mergemining import MergeMiningReport, verify_merge_mining
from explorer.chain.records import Block
from explorer.presentation import format as fmt
from explorer.presentation.btc_fields import btc_block_field, btc_tx_field
from explorer.presentation.document import Document, Field, Kind, Section, Tone, facts
from explorer.services.routes import block_route

PREVIOUS = "Previous block"
NEXT = "Next block"
NOT_SENT = "not sent by this node"


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
        page="block",
    )


def _headline(block: Block, head: int | None) -> Field:
    """Return the block's state: pending, or mined with confirmations."""
    if block.is_pending:
        text = "Pending — the sample next block, not mined"
        return fmt.status_field("Status", "pending", text, Tone.WAITING, confirmations=0)
    if head is None or block.number is None:
        return fmt.status_field("Status", "mined", "Mined", Tone.GOOD, confirmations=None)
    count = max(head - block.number + 1, 0)
    text = f"Mined · {count:,} confirmations"
    return fmt.status_field("Status", "mined", text, Tone.GOOD, confirmations=count)


def _overview(block: Block, chain_id: int, currency: str, head: int | None, now: float) -> Section:
    """Return the main fields of the block."""
    gas = fmt.gas_used_text(block.gas_used, block.gas_limit)
    fields = [
        fmt.block_field("Number", block.number),
        *_neighbour_fields(block, head),
        fmt.hash_field("Hash", block.hash, Kind.HASH, empty="pending"),
        fmt.time_field("Timestamp", block.timestamp, now),
        fmt.quantity_field("Transactions", len(block.transaction_hashes)),
        fmt.address_field("Miner", block.miner, chain_id, empty="— (pending)"),
        fmt.quantity_field("Gas used", block.gas_used, gas, gas_limit=block.gas_limit),
        fmt.quantity_field("Gas limit", block.gas_limit),
        _optional_price("Minimum gas price", block.minimum_gas_price, currency),
        _optional_amount("Paid fees", block.paid_fees, currency),
        fmt.quantity_field("Size (bytes)", block.size),
        fmt.quantity_field("Uncles", len(block.uncles)),
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
        return previous, _no_block(NEXT, "— (not mined yet)")
    number = block.number or 0
    previous = (
        fmt.block_field(PREVIOUS, number - 1)
        if number > 0
        else _no_block(PREVIOUS, "— (genesis block)")
    )
    if head is not None and number < head:
        following = fmt.block_field(NEXT, number + 1)
    else:
        note = "— (head not known yet)" if head is None else "— (this is the latest block)"
        following = _no_block(NEXT, note)
    return previous, following


def _no_block(label: str, why: str) -> Field:
    """Return a neighbour block that does not exist (yet): no value, why in words."""
    return Field(label, why, Kind.BLOCK, tone=Tone.MUTED)


def _optional_price(label: str, wei: int | None, currency: str) -> Field:
    """Return a gas price field, or a muted note when the node does not send it."""
    if wei is None:
        return Field(label, NOT_SENT, Kind.AMOUNT, tone=Tone.MUTED)
    return fmt.price_field(label, wei, currency)


def _optional_amount(label: str, wei: int | None, currency: str) -> Field:
    """Return an amount field, or a muted note when the node does not send it."""
    if wei is None:
        return Field(label, NOT_SENT, Kind.AMOUNT, tone=Tone.MUTED)
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
        fmt.boolean_field(
            "Verified", True, "Yes — the proof links this block to the Bitcoin header", Tone.GOOD
        )
        if report.verified
        else fmt.boolean_field("Verified", False, "No — " + "; ".join(report.problems), Tone.BAD)
    )
    fields = [verdict, *_bitcoin_header_fields(report), *_coinbase_fields(report)]
    fields += _hash_for_merged_mining_fields(report)
    return Section("Merge mining", tuple(fields))


def _bitcoin_header_fields(report: MergeMiningReport) -> list[Field]:
    """Return the decoded 80-byte Bitcoin header."""
    header = report.header
    if header is None:
        return [fmt.text_field("Bitcoin header", "not decodable", Tone.BAD)]
    bits = (
        f"0x{header.bits:08x} (target 0x{header.target:064x}, "
        f"difficulty {fmt.difficulty_text(header.difficulty)})"
    )
    return [
        btc_block_field("Bitcoin block hash", header.block_hash),
        fmt.quantity_field("Bitcoin version", header.version, f"0x{header.version:08x}"),
        btc_block_field("Bitcoin previous block", header.previous_block_hash),
        Field("Bitcoin merkle root", header.merkle_root, Kind.BTC_HASH, header.merkle_root),
        fmt.utc_field("Bitcoin time", header.time),
        fmt.quantity_field(
            "Bitcoin bits",
            header.bits,
            bits,
            target=f"0x{header.target:064x}",
            difficulty=header.difficulty,
        ),
        fmt.quantity_field(
            "Bitcoin nonce", header.nonce, f"{header.nonce:,} (0x{header.nonce:08x})"
        ),
    ]


def _coinbase_fields(report: MergeMiningReport) -> list[Field]:
    """Return the coinbase midstate, its RSKBLOCK tag and the merkle proof check."""
    fields: list[Field] = []
    if report.coinbase is not None:
        fields.append(
            fmt.quantity_field(
                "Coinbase bytes hashed before midstate", report.coinbase.hashed_length
            )
        )
    if report.tag is None:
        fields.append(Field("RSKBLOCK: tag", "not found in the coinbase", Kind.HEX, tone=Tone.BAD))
    else:
        same = (
            "equals hashForMergedMining"
            if report.tag_matches
            else "differs from hashForMergedMining"
        )
        tag = "0x" + report.tag.hex()
        tone = Tone.GOOD if report.tag_matches else Tone.BAD
        matches = facts(matches=bool(report.tag_matches))
        fields.append(
            Field("RSKBLOCK: tag", f"{tag} ({same})", Kind.HEX, tag, "", tone, facts=matches)
        )
    if report.coinbase_txid is not None:
        fields.append(btc_tx_field("Coinbase txid (recomputed)", report.coinbase_txid[::-1].hex()))
    proof = len(report.proof_hashes)
    fields.append(fmt.quantity_field("Merkle proof", proof, f"{proof} sibling hashes"))
    if report.folded_root is not None:
        matches_text = "matches" if report.root_matches else "does NOT match"
        root = report.folded_root[::-1].hex()
        fields.append(
            Field(
                "Folded merkle root",
                f"{root} ({matches_text} the header)",
                Kind.BTC_HASH,
                root,
                tone=Tone.GOOD if report.root_matches else Tone.BAD,
                facts=facts(matches=bool(report.root_matches)),
            )
        )
    return fields


def _hash_for_merged_mining_fields(report: MergeMiningReport) -> list[Field]:
    """Return hashForMergedMining and its RSKIP110 parts."""
    if report.hash_for_merged_mining is None:
        return [Field("hashForMergedMining", NOT_SENT, Kind.HEX, tone=Tone.MUTED)]
    fields = [fmt.hex_field("hashForMergedMining", report.hash_for_merged_mining)]
    if report.parts is not None:
        parts = report.parts
        height = f"{parts.block_number:,}"
        if report.block_number_matches is False:
            height += " (differs from the block number)"
        fields += [
            fmt.hex_field("Fork detection data", parts.fork_detection),
            fmt.quantity_field("Uncles in the last 32 blocks", parts.uncle_count),
            fmt.quantity_field(
                "Height in hashForMergedMining",
                parts.block_number,
                height,
                matches=report.block_number_matches,
            ),
        ]
    return fields
