"""Decoded arguments as page fields: addresses as links, token amounts in the token's units."""

from __future__ import annotations

from decimal import Decimal

from explorer.chain.abi import DecodedCall, DecodedEvent, DecodedParam, decode_call, decode_log
from explorer.chain.checksum import to_checksum_address
from explorer.chain.records import Receipt, Transaction
from explorer.presentation import format as fmt
from explorer.presentation.document import Field, Kind, facts
from explorer.services.token_units import TOKEN_AMOUNTS, TokenUnit, Units

HEX = frozenset("0123456789abcdef")


def amount_index(decoded: DecodedCall | DecodedEvent) -> int | None:
    """Return which argument is an amount of the contract's token, if any.

    An indexed one is not (ERC-721's Transfer indexes its token id, with the same signature).
    """
    index = TOKEN_AMOUNTS.get(decoded.canonical)
    if index is None or index >= len(decoded.params) or decoded.params[index].indexed:
        return None
    return index


def token_contracts(tx: Transaction, receipt: Receipt | None) -> list[str]:
    """Return the contracts whose token amounts the transaction's input and logs carry."""
    found: list[str] = []
    if tx.to is not None and tx.input:
        call = decode_call(tx.input)
        if call is not None and amount_index(call) is not None:
            found.append(tx.to)
    for log in receipt.logs if receipt is not None else ():
        event = decode_log(log.topics, log.data)
        if event is not None and amount_index(event) is not None:
            found.append(log.address)
    return list(dict.fromkeys(found))


def argument_fields(
    decoded: DecodedCall | DecodedEvent,
    contract: str | None,
    units: Units,
    chain_id: int,
    indent: str = "  ",
) -> list[Field]:
    """Return a field per argument: an address links (with its label), an amount in units."""
    unit = units.get(contract.lower()) if contract else None
    amount_at = amount_index(decoded) if unit is not None else None
    return [
        argument_field(
            f"{indent}{p.name or p.type} ({p.type})", p, chain_id, unit if i == amount_at else None
        )
        for i, p in enumerate(decoded.params)
    ]


def argument_field(
    label: str, param: DecodedParam, chain_id: int, unit: TokenUnit | None = None
) -> Field:
    """Return one argument's field; with a unit, an integer is an amount of that token."""
    if param.type == "address" and isinstance(param.value, str):
        return fmt.address_field(label, param.value, chain_id)
    value = param.value
    if unit is not None and isinstance(value, int) and not isinstance(value, bool):
        decimals = facts(decimals=unit.decimals)
        return Field(
            label, unit.amount(value), Kind.AMOUNT, value, f"{value:,} (raw)", unit="token",
            facts=decimals, exact=unit.exact(value),
        )  # fmt: skip
    return abi_field(label, param, chain_id)


def abi_field(label: str, param: DecodedParam, chain_id: int) -> Field:
    """Return a decoded argument as it reads, its value as data (JSON: `abi_type` beside it)."""
    value = abi_data(param.value, param.type, chain_id)
    return Field(label, param.text, Kind.ABI, value, facts=facts(abi_type=param.type))


def abi_data(value: object, abi_type: str, chain_id: int) -> object:
    """Return a decoded ABI value JSON-ready: integers as decimal strings, bytes as 0x-hex.

    Addresses are in the chain's checksum, arrays and tuples JSON arrays (tuples of Python);
    booleans and strings are given as they are.
    """
    if isinstance(value, tuple | list):
        item_type = abi_type[: abi_type.rindex("[")] if abi_type.endswith("]") else ""
        return tuple(abi_data(item, item_type, chain_id) for item in value)
    if isinstance(value, bool):
        return value
    if isinstance(value, bytes):
        return "0x" + value.hex()
    if isinstance(value, int | Decimal):
        return str(value)
    if isinstance(value, str) and (abi_type == "address" or (not abi_type and _is_address(value))):
        return to_checksum_address(value, chain_id)
    return value


def _is_address(text: str) -> bool:
    """Tell whether a tuple's member (whose type is not at hand) is a canonical address."""
    return len(text) == 42 and text.startswith("0x") and all(c in HEX for c in text[2:])
