"""Every transaction of a block as rows, as the block page's Transactions tab shows them.

For `explorer report BLOCK`: hash, from, to, value, method, and the status where its receipt
was read (each receipt is one request, so a big block's are read only when asked for).
"""

from __future__ import annotations

import asyncio
from typing import Any

from explorer.chain.abi import method_label
from explorer.chain.checksum import to_checksum_address
from explorer.chain.known import REMASC
from explorer.chain.records import Block, Receipt, Transaction
from explorer.chain.units import readable_rbtc
from explorer.presentation.tx_text import address_text, method_text, status_text
from explorer.services.networks import Network
from explorer.services.reader import ChainReader

AUTO_RECEIPTS = 200  # a block with more transactions gets no statuses unless asked


async def read_receipts(
    reader: ChainReader, block: Block, limit: int | None = AUTO_RECEIPTS
) -> dict[str, Receipt | None]:
    """Read the receipts of a block's transactions at once, when it has at most limit of them."""
    hashes = block.transaction_hashes
    if limit is not None and len(hashes) > limit:
        return {}
    receipts = await asyncio.gather(*(reader.receipt(tx_hash) for tx_hash in hashes))
    return dict(zip(hashes, receipts, strict=True))


def transaction_rows(
    block: Block, receipts: dict[str, Receipt | None], network: Network
) -> list[dict[str, Any]]:
    """Return one row per transaction: its index, record, receipt and the listing's texts."""
    rows = []
    for index, tx in enumerate(block.transactions or ()):
        receipt = receipts.get(tx.hash)
        rows.append(
            {
                "index": index,
                "tx": tx,
                "receipt": receipt,
                "from_text": address_text(tx.sender, network.chain_id),
                "to_text": address_text(tx.to, network.chain_id),
                "value_text": readable_rbtc(tx.value, network.currency),
                "method": method_text(tx),
                "status": status_text(receipt) if receipt is not None else None,
            }
        )
    return rows


def rows_data(rows: list[dict[str, Any]], chain_id: int) -> list[dict[str, Any]]:
    """Return the rows as data (docs/report-json.md): checksums, wei as decimal strings, words.

    `status` is success, failed or mined (a receipt without status), null when its receipt was
    not read; `kind` is transfer, call, contract_creation or remasc; `method` the function's
    name where the bundled table knows its selector; the method column's words are `text`.
    """
    data = []
    for row in rows:
        tx: Transaction = row["tx"]
        receipt: Receipt | None = row["receipt"]
        selector = "0x" + tx.input[:4].hex() if len(tx.input) >= 4 and tx.to else None
        label = method_label(tx.input) if selector else ""
        data.append(
            {
                "index": row["index"],
                "hash": tx.hash,
                "from": to_checksum_address(tx.sender, chain_id),
                "to": to_checksum_address(tx.to, chain_id) if tx.to else None,
                "value": str(tx.value),
                "kind": _kind(tx),
                "selector": selector,
                "method": label if label and label != selector else None,
                "status": None if receipt is None else STATUS_WORDS[receipt.succeeded],
                "text": row["method"],
            }
        )
    return data


STATUS_WORDS = {True: "success", False: "failed", None: "mined"}


def _kind(tx: Transaction) -> str:
    """Return what a transaction does, as a word."""
    if tx.to == REMASC:
        return "remasc"
    if tx.is_contract_creation:
        return "contract_creation"
    return "call" if tx.input else "transfer"


def listing_text(rows: list[dict[str, Any]], statuses_read: bool) -> str:
    """Return the rows as aligned text lines under a `== Transactions (N)` heading."""
    lines = ["", "", f"== Transactions ({len(rows):,})"]
    if not statuses_read and rows:
        lines.append("Statuses not read (one request per receipt): --receipts all reads them.")
    for row in rows:
        lines.append(
            f"{row['index']:>5}  {row['tx'].hash}  {row['from_text']} → {row['to_text']}  "
            f"{row['value_text']}  {row['status'] or '—'}  {row['method']}"
        )
    return "\n".join(lines)
