"""An address's history as people and programs read it: cells, text lines, CSV and JSON.

The History table, its export and `explorer history` all format entries here, so the window
and the terminal say the same. JSON is data (docs/report-json.md): amounts in base units as
decimal strings, ISO times, checksummed addresses; text and CSV show RBTC or the token's units.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from explorer.chain.checksum import to_checksum_address
from explorer.chain.history import NATIVE, Direction, EntryKind, HistoryEntry
from explorer.chain.units import RBTC_DECIMALS, format_units, readable_units
from explorer.presentation.document import iso_time
from explorer.presentation.format import utc_text

Units = Mapping[str, tuple[int, str]]  # token address: (decimals, symbol)
KIND_TEXT = {
    EntryKind.SENT: "sent",
    EntryKind.RECEIVED: "received",
    EntryKind.SELF: "to self",
    EntryKind.CONTRACT: "contract execution",
    EntryKind.REWARD: "reward (REMASC)",
    EntryKind.PEGIN: "peg-in",
    EntryKind.TOKEN: "token",
}
CSV_HEADER = (
    "block",
    "time_utc",
    "kind",
    "direction",
    "asset",
    "symbol",
    "amount",
    "fee",
    "balance_after",
    "counterparty",
    "tx_hash",
    "log_index",
    "token_id",
)


def entry_json(entry: HistoryEntry, units: Units, chain_id: int) -> dict[str, Any]:
    """Return an entry as `explorer history --format json` writes it (docs/report-json.md).

    Amounts in base units as decimal strings with the asset's decimals beside them (null for a
    token that names none), the time in ISO 8601 UTC, addresses in the chain's checksum.
    """
    native = entry.is_native
    data: dict[str, Any] = {
        "block": entry.block,
        "timestamp": None if entry.timestamp is None else iso_time(entry.timestamp),
        "tx_hash": entry.tx_hash,
        "kind": entry.kind.value,
        "asset": NATIVE if native else to_checksum_address(entry.asset, chain_id),
        "counterparty": checksummed(entry.counterparty, chain_id),
        "amount": str(entry.amount),
        "decimals": RBTC_DECIMALS if native else _decimals(entry, units),
        "direction": entry.direction.value,
        "failed": entry.failed,
    }
    if native:
        data["balance_after"] = None if entry.balance_after is None else str(entry.balance_after)
        data["fee"] = None if entry.fee is None else str(entry.fee)
        data["depth"] = entry.depth
        data["caller"] = checksummed(entry.caller, chain_id)
    else:
        data["log_index"] = entry.log_index
        data["token_id"] = None if entry.token_id is None else str(entry.token_id)
    return data


def _decimals(entry: HistoryEntry, units: Units) -> int | None:
    """Return a token's decimals, or None when it names none (an ERC-721's id, or not read)."""
    if entry.token_id is not None or entry.asset not in units:
        return None
    return units[entry.asset][0]


def checksummed(address: str | None, chain_id: int) -> str | None:
    """Return an address in the chain's checksum (None stays None)."""
    return None if address is None else to_checksum_address(address, chain_id)


def json_text(entries: Sequence[HistoryEntry], units: Units, chain_id: int) -> str:
    """Return entries as one JSON array (newest first, as given)."""
    data = [entry_json(entry, units, chain_id) for entry in entries]
    return json.dumps(data, indent=1) + "\n"


def symbol_of(entry: HistoryEntry, units: Units, currency: str) -> str:
    """Return the symbol of an entry's asset ('' for a token that names none)."""
    return currency if entry.is_native else units.get(entry.asset, (0, ""))[1]


def amount_text(
    entry: HistoryEntry, units: Units, currency: str, signed: bool = True, exact: bool = False
) -> str:
    """Return the amount in RBTC or the token's units (readable, or exact), signed, with symbol."""
    if entry.token_id is not None:
        return f"#{entry.token_id} {symbol_of(entry, units, currency)}".strip()
    decimals = RBTC_DECIMALS if entry.is_native else units.get(entry.asset, (0, ""))[0]
    signs = {Direction.IN: "+", Direction.OUT: "−"}
    sign = signs.get(entry.direction, "") if signed and entry.amount else ""
    text = sign + (format_units if exact else readable_units)(entry.amount, decimals)
    return f"{text} {symbol_of(entry, units, currency)}".strip()


def activity_text(entry: HistoryEntry, units: Units, currency: str) -> str:
    """Return what an entry did in a short sentence: `received 0.5 RBTC (REMASC reward)`."""
    verb = {Direction.IN: "received", Direction.OUT: "sent"}.get(entry.direction, "moved")
    how = {
        EntryKind.CONTRACT: " (contract execution)",
        EntryKind.REWARD: " (REMASC reward)",
        EntryKind.PEGIN: " (peg-in)",
        EntryKind.SELF: " to itself",
    }.get(entry.kind, "")
    return f"{verb} {amount_text(entry, units, currency, signed=False)}{how}"


def rbtc_text(wei: int | None, currency: str, exact: bool = False) -> str:
    """Return wei in the network's currency (readable, or exact), or '' for none."""
    if wei is None:
        return ""
    return f"{(format_units if exact else readable_units)(wei, RBTC_DECIMALS)} {currency}"


def kind_text(entry: HistoryEntry) -> str:
    """Return the kind in words (a failed transaction says so; a provisional one waits)."""
    if entry.provisional:
        return "balance change…"
    text = KIND_TEXT[entry.kind]
    if entry.depth is not None:
        text += f", depth {entry.depth}"
    return f"{text} (failed)" if entry.failed else text


def inside_text(entry: HistoryEntry, currency: str, chain_id: int, label: str = "") -> str:
    """Return who moved a contract execution's value in a sentence ('' when not known).

    `received 0.5 RBTC from Payout, inside a call by 0x… (depth 2)`.
    """
    if entry.caller is None or entry.counterparty is None:
        return ""
    verb, way = ("received", "from") if entry.direction is Direction.IN else ("sent", "to")
    other = label or to_checksum_address(entry.counterparty, chain_id)
    caller = to_checksum_address(entry.caller, chain_id)
    amount = amount_text(entry, {}, currency, signed=False)
    return (f"{verb} {amount} {way} {other}, inside a call by {caller} "
            f"(depth {entry.depth})")  # fmt: skip


def address_text(address: str | None, chain_id: int, labels: Mapping[str, str]) -> str:
    """Return an address checksummed, with its label when it has one ('' for none)."""
    if address is None:
        return ""
    shown = to_checksum_address(address, chain_id)
    label = labels.get(address)
    return f"{label} ({shown})" if label else shown


def time_text(timestamp: int | None) -> str:
    """Return a block time in UTC, or '…' while it is being read."""
    return "…" if timestamp is None else utc_text(timestamp)


def plain_amount(entry: HistoryEntry, units: Units) -> str:
    """Return the amount in RBTC or the token's units: no sign, symbol or grouping."""
    decimals = RBTC_DECIMALS if entry.is_native else units.get(entry.asset, (0, ""))[0]
    return format_units(entry.amount, decimals, grouping=False)


def plain_rbtc(wei: int | None) -> str:
    """Return wei in RBTC without grouping, or '' for none."""
    return "" if wei is None else format_units(wei, RBTC_DECIMALS, grouping=False)


def csv_text(entries: Iterable[HistoryEntry], units: Units, currency: str, chain_id: int) -> str:
    """Return entries as CSV with a header (amounts in units, addresses checksummed)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for entry in entries:
        writer.writerow(
            [
                entry.block,
                "" if entry.timestamp is None else utc_text(entry.timestamp),
                entry.kind.value,
                entry.direction.value,
                entry.asset,
                symbol_of(entry, units, currency),
                plain_amount(entry, units),
                plain_rbtc(entry.fee),
                plain_rbtc(entry.balance_after),
                address_text(entry.counterparty, chain_id, {}),
                entry.tx_hash or "",
                "" if entry.log_index is None else entry.log_index,
                "" if entry.token_id is None else entry.token_id,
            ]
        )
    return out.getvalue()


def text_lines(
    entries: Iterable[HistoryEntry], units: Units, currency: str, chain_id: int
) -> list[str]:
    """Return one line per entry for the terminal: block, time, kind, amount, counterparty."""
    lines = []
    for entry in entries:
        parts = [
            f"{entry.block:>9,}",
            time_text(entry.timestamp),
            f"{kind_text(entry):<18}",
            f"{amount_text(entry, units, currency):>28}",
        ]
        if entry.fee:
            parts.append(f"fee {rbtc_text(entry.fee, currency)}")
        if entry.balance_after is not None:
            parts.append(f"balance {rbtc_text(entry.balance_after, currency)}")
        other = address_text(entry.counterparty, chain_id, {})
        if other:
            parts.append(("to " if entry.direction is Direction.OUT else "from ") + other)
        if entry.caller:
            parts.append(f"inside a call by {checksummed(entry.caller, chain_id)}")
        if entry.tx_hash:
            parts.append(entry.tx_hash)
        lines.append("  ".join(parts))
    return lines


def native_only(entries: Iterable[HistoryEntry]) -> list[HistoryEntry]:
    """Return the entries that move RBTC."""
    return [entry for entry in entries if entry.asset == NATIVE]
