"""The address summary: balance, nonce, account or contract, known label, checksum."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from explorer.chain.checksum import to_checksum_address
from explorer.chain.known import known_label
from explorer.chain.units import format_rbtc
from explorer.services.networks import Network
from explorer.services.reader import ChainReader
from explorer.viewmodels import format as fmt
from explorer.viewmodels.document import Document, Section


@dataclass(frozen=True)
class AddressFacts:
    """What the node says about an address at the latest block."""

    address: str
    balance: int
    nonce: int
    code: bytes


async def load_address_facts(reader: ChainReader, address: str) -> AddressFacts:
    """Read balance, nonce and code concurrently."""
    client = reader.client
    balance, nonce, code = await asyncio.gather(
        client.get_balance(address), client.get_transaction_count(address), client.get_code(address)
    )
    return AddressFacts(address, balance, nonce, code)


def address_document(facts: AddressFacts, network: Network) -> Document:
    """Build the address summary document."""
    chain_id = network.chain_id
    label = known_label(facts.address, chain_id)
    kind = f"Contract ({len(facts.code):,} bytes of code)" if facts.code else "Account (no code)"
    fields = [
        fmt.address_field("Address", facts.address, chain_id, label),
        fmt.text_field("EIP-1191 checksum", to_checksum_address(facts.address, chain_id)),
        fmt.amount_field("Balance", facts.balance, network.currency),
        fmt.quantity_field("Nonce (transactions sent)", facts.nonce),
        fmt.text_field("Kind", kind),
    ]
    if label:
        fields.append(fmt.text_field("Known as", label))
    sections = [Section("Overview", tuple(fields))]
    if facts.code:
        sections.append(Section("Code", (fmt.hex_field("Bytecode", facts.code),)))
    headline = fmt.text_field("Balance", format_rbtc(facts.balance, network.currency))
    raw = {
        "balance": hex(facts.balance),
        "nonce": hex(facts.nonce),
        "code": "0x" + facts.code.hex(),
    }
    title = f"Address {to_checksum_address(facts.address, chain_id)}"
    return Document(title, headline, tuple(sections), raw, chain_id)
