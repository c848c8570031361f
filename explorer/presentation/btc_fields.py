"""Fields of the Bitcoin side: txids, addresses and blocks (copy, open in a Bitcoin explorer)."""

from __future__ import annotations

from explorer.chain.btc_address import BtcNetwork, btc_text
from explorer.chain.btc_tx import BitcoinTx
from explorer.presentation import format as fmt
from explorer.presentation.document import Facts, Field, Kind, Tone, data_key, facts
from explorer.services.routes import pegin_route

SATOSHI = "satoshi"  # the unit of a Bitcoin amount in JSON


def btc_network_kind(chain_id: int | None) -> str:
    """Return which Bitcoin network a chain pegs to: "main" for RSK mainnet, else "test"."""
    return "main" if chain_id == 30 else "test"


def btc_tx_field(label: str, txid: str, note: str = "", *, pegin: bool = False) -> Field:
    """Return a Bitcoin txid (64 hex digits, display order); a peg-in's links to its status."""
    text = f"{txid} ({note})" if note else txid
    link = pegin_route(txid) if pegin else None
    return Field(label, text, Kind.BTC_TX, txid, tooltip=f"Bitcoin transaction {txid}", link=link)


def btc_address_field(label: str, address: str | None, note: str = "") -> Field:
    """Return a Bitcoin address (Base58Check or bech32)."""
    if not address:
        return Field(label, note or "none", Kind.BTC_ADDRESS, tone=Tone.MUTED)
    text = f"{address} ({note})" if note else address
    return Field(label, text, Kind.BTC_ADDRESS, address, tooltip=f"Bitcoin address {address}")


def btc_block_field(label: str, block_hash: str) -> Field:
    """Return a Bitcoin block hash (display order)."""
    return Field(
        label, block_hash, Kind.BTC_BLOCK, block_hash, tooltip=f"Bitcoin block {block_hash}"
    )


def btc_amount_field(label: str, satoshis: int, note: str = "", more: Facts = ()) -> Field:
    """Return an amount in BTC (exact satoshis on hover; in JSON, satoshis)."""
    text = btc_text(satoshis) + (f" ({note})" if note else "")
    tooltip = f"{satoshis:,} satoshis"
    return Field(label, text, Kind.AMOUNT, satoshis, tooltip, unit=SATOSHI, facts=more)


def bitcoin_tx_fields(
    prefix: str, tx: BitcoinTx, network: BtcNetwork, input_values: tuple[int, ...] | None = None
) -> list[Field]:
    """Return a Bitcoin transaction: txid, inputs, outputs with addresses, size and fee."""
    fields = [
        btc_tx_field(f"{prefix}Bitcoin txid", tx.txid),
        fmt.quantity_field(
            f"{prefix}Size",
            tx.size,
            f"{tx.size:,} bytes ({tx.vsize:,} vbytes)",
            unit="bytes",
            vsize=tx.vsize,
        ),
    ]
    for i, item in enumerate(tx.inputs):
        value, amount = "", None
        if input_values is not None and i < len(input_values):
            value, amount = f" · {btc_text(input_values[i])}", str(input_values[i])
        spent = facts(output_index=item.prev_index, amount_sat=amount)
        text = f"{item.prev_txid}:{item.prev_index}{value}"
        fields.append(Field(f"{prefix}Input {i}", text, Kind.BTC_TX, item.prev_txid, facts=spent))
    for i, out in enumerate(tx.outputs):
        address = out.address(network)
        where = address or out.kind
        fields.append(
            Field(
                f"{prefix}Output {i}",
                f"{btc_text(out.value)} → {where}",
                Kind.BTC_ADDRESS,
                address,
                tooltip=f"{out.kind} output script 0x{out.script.hex()}",
                facts=facts(amount_sat=str(out.value), script=data_key(out.kind)),
            )
        )
    fields.append(_fee_field(prefix, tx, input_values))
    return fields


def _fee_field(prefix: str, tx: BitcoinTx, input_values: tuple[int, ...] | None) -> Field:
    """Return the Bitcoin fee: the inputs' values (from the Bridge) less the outputs."""
    if input_values is None or len(input_values) != len(tx.inputs):
        return Field(
            f"{prefix}Bitcoin fee",
            "unknown here: the inputs' values are in the batch's pegout_transaction_created",
            Kind.AMOUNT,
            tone=Tone.MUTED,
            unit=SATOSHI,
        )
    fee = sum(input_values) - tx.output_total
    rate = f" · {fee / tx.vsize:,.1f} sat/vB" if tx.vsize else ""
    per_vbyte = facts(sat_per_vbyte=round(fee / tx.vsize, 1) if tx.vsize else None)
    return btc_amount_field(f"{prefix}Bitcoin fee", fee, f"inputs less outputs{rate}", per_vbyte)
