"""The address summary: balance, nonce, account or contract, known label, checksum."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from explorer.chain.checksum import to_checksum_address
from explorer.chain.known import known_label
from explorer.chain.units import format_units, readable_units
from explorer.presentation import format as fmt
from explorer.presentation.contract_document import proxy_sentence
from explorer.presentation.document import Document, Field, Kind, Section, facts
from explorer.rpc.params import BlockSelector
from explorer.services.networks import Network
from explorer.services.proxies import ProxyInfo, Upgrade, detect_proxy
from explorer.services.reader import ChainReader
from explorer.services.tokens import TokenInfo, TokenReader


@dataclass(frozen=True)
class AddressFacts:
    """What the node says about an address at the latest block."""

    address: str
    balance: int
    nonce: int
    code: bytes
    token: TokenInfo | None = None
    proxy: ProxyInfo | None = None  # what the contract delegates to, when it is a proxy


async def load_address_facts(
    reader: ChainReader, address: str, block: BlockSelector = "latest"
) -> AddressFacts:
    """Read balance, nonce and code, then a contract's token facts and proxy slots together.

    Two round trips (at block); a beacon's implementation is one more.
    """
    client = reader.client
    balance, nonce, code = await asyncio.gather(
        client.get_balance(address, block),
        client.get_transaction_count(address, block),
        client.get_code(address, block),
    )
    if not code:
        return AddressFacts(address, balance, nonce, code)
    token, proxy = await asyncio.gather(
        TokenReader(client).token_info(address, block), detect_proxy(client, address, code, block)
    )
    kind = token if token and token.is_token else None
    return AddressFacts(address, balance, nonce, code, kind, proxy)


def token_section(token: TokenInfo) -> Section:
    """Return the token facts of a token contract."""
    fields = [
        fmt.status_field("Standard", token.kind.lower().replace("-", ""), token.kind),
        fmt.text_field("Name", token.name if token.name is not None else "—"),
        fmt.text_field("Symbol", token.symbol if token.symbol is not None else "—"),
    ]
    if token.decimals is not None:
        fields.append(fmt.quantity_field("Decimals", token.decimals))
    if token.total_supply is not None:
        supply = token.total_supply
        decimals = token.decimals or 0
        unit = f" {token.symbol}" if token.symbol else ""
        fields.append(
            Field(
                "Total supply",
                readable_units(supply, decimals) + unit,
                Kind.AMOUNT,
                supply,
                f"{supply:,} base units",
                unit="token",
                facts=facts(decimals=token.decimals),
                exact=format_units(supply, decimals) + unit,
            )
        )
    return Section("Token", tuple(fields))


def proxy_section(proxy: ProxyInfo, chain_id: int, since: Upgrade | None = None) -> Section:
    """Return the proxy's one line and the implementation's link."""
    sentence, word = proxy_sentence(proxy, chain_id, since), proxy.kind.name.lower()
    since_block = None if since is None else since.block
    fields = [fmt.status_field("Proxy", word, sentence, since_block=since_block)]
    if proxy.implementation:
        fields.append(fmt.address_field("Implementation", proxy.implementation, chain_id))
    if proxy.beacon:
        fields.append(fmt.address_field("Beacon", proxy.beacon, chain_id))
    return Section("Proxy", tuple(fields))


def address_document(
    facts: AddressFacts, network: Network, since: Upgrade | None = None
) -> Document:
    """Build the address summary document (since: the upgrade behind a proxy's target)."""
    chain_id = network.chain_id
    label = known_label(facts.address, chain_id)
    kind = f"Contract ({len(facts.code):,} bytes of code)" if facts.code else "Account (no code)"
    checksum = to_checksum_address(facts.address, chain_id)
    code_size = len(facts.code)
    fields = [
        fmt.address_field("Address", facts.address, chain_id, label),
        Field("EIP-1191 checksum", checksum, Kind.ADDRESS, facts.address),
        fmt.amount_field("Balance", facts.balance, network.currency),
        fmt.quantity_field("Nonce (transactions sent)", facts.nonce),
        fmt.status_field(
            "Kind", "contract" if facts.code else "account", kind, code_size=code_size
        ),
    ]
    if label:
        fields.append(fmt.text_field("Known as", label))
    sections = [Section("Overview", tuple(fields))]
    if facts.proxy is not None:
        sections.append(proxy_section(facts.proxy, chain_id, since))
    if facts.token is not None:
        sections.append(token_section(facts.token))
    if facts.code:
        sections.append(Section("Code", (fmt.hex_field("Bytecode", facts.code),)))
    headline = fmt.amount_field("Balance", facts.balance, network.currency)
    raw: dict[str, Any] = {
        "balance": hex(facts.balance),
        "nonce": hex(facts.nonce),
        "code": "0x" + facts.code.hex(),
    }
    if facts.token is not None:
        raw["token"] = {
            "standard": facts.token.kind,
            "name": facts.token.name,
            "symbol": facts.token.symbol,
            "decimals": facts.token.decimals,
            "totalSupply": None
            if facts.token.total_supply is None
            else hex(facts.token.total_supply),
        }
    title = f"Address {to_checksum_address(facts.address, chain_id)}"
    return Document(title, headline, tuple(sections), raw, chain_id, "address")
