"""How a transaction reads in a table: address, status and method texts."""

from __future__ import annotations

from explorer.chain.abi import method_label
from explorer.chain.checksum import to_checksum_address
from explorer.chain.known import BRIDGE, REMASC
from explorer.chain.records import Receipt, Transaction


def address_text(address: str | None, chain_id: int) -> str:
    """Return a table's address: the chain's checksum, RSK's system labels, or a creation."""
    if address is None:
        return "(contract creation)"
    if address == REMASC:
        return "REMASC"
    if address == BRIDGE:
        return "Bridge"
    return to_checksum_address(address, chain_id)


def status_text(receipt: Receipt) -> str:
    """Return a table's status of a mined transaction."""
    return {True: "Success", False: "Failed", None: "Mined"}[receipt.succeeded]


def method_text(tx: Transaction) -> str:
    """Return the method column: decoded name or selector; what it is, bracketed, without one.

    The brackets keep a call with no method ("(value transfer)") apart from a token's
    `transfer` method, which reads as a name as written in the contract's ABI.
    """
    if tx.to == REMASC:
        return "REMASC"
    if tx.is_contract_creation:
        return "(contract creation)"
    return method_label(tx.input) or "(value transfer)"
