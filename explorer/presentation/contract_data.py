"""`explorer contract --format json`: a contract's facts as data (docs/report-json.md).

Addresses in the chain's checksum, numbers as numbers, enums as fixed words, display text only
in members named `text`; docs/schemas/contract.json is the JSON Schema the tests hold it to.
"""

from __future__ import annotations

from typing import Any

from explorer.chain.checksum import to_checksum_address
from explorer.chain.recovered import RecoveredFunction
from explorer.presentation.contract_document import function_line, proxy_sentence
from explorer.presentation.contract_facts import CodeFacts, ContractFacts
from explorer.services.proxies import ProxyKind

KIND_WORDS = {
    ProxyKind.EIP1967: "eip1967",
    ProxyKind.BEACON: "beacon",
    ProxyKind.UUPS: "uups",
    ProxyKind.CLONE: "clone",
    ProxyKind.DIAMOND: "diamond",
}


def _address(value: str | None, chain_id: int) -> str | None:
    """Return an address in the chain's checksum (None stays None)."""
    return None if value is None else to_checksum_address(value, chain_id)


def _function(function: RecoveredFunction, code: CodeFacts) -> dict[str, Any]:
    """Return one recovered function as data."""
    named = function.name
    return {
        "selector": function.selector_hex,
        "name": named.name if named else None,
        "signature": named.canonical if named else None,
        "arguments": list(function.arguments),
        "mutability": function.mutability,
        "text": function_line(function, code),
    }


def _code(code: CodeFacts, chain_id: int) -> dict[str, Any]:
    """Return one piece of code as data: size, metadata, source, functions."""
    metadata = code.metadata
    source = code.source
    return {
        "address": _address(code.address, chain_id),
        "code_size": len(code.code),
        "compiler": metadata.compiler or None if metadata else None,
        "ipfs": metadata.ipfs_text or None if metadata else None,
        "swarm": "0x" + metadata.swarm.hex() if metadata and metadata.swarm else None,
        "source": None
        if source is None
        else {
            "match": source.match.name.lower(),
            "contract": source.artifact.title,
            "origin": source.artifact.origin,
            "text": source.text,
        },
        "functions": [_function(f, code) for f in code.functions],
        "functions_from": "source" if source else "bytecode",
    }


def contract_data(facts: ContractFacts, chain_id: int, block: int | None) -> dict[str, Any]:
    """Return the contract's facts as the JSON `explorer contract` prints."""
    proxy = facts.proxy
    data: dict[str, Any] = {
        "chain_id": chain_id,
        "block": block,
        "address": _address(facts.address, chain_id),
        "proxy": None,
        "upgrades": [
            {
                "block": u.block,
                "target": _address(u.target, chain_id),
                "tx_hash": u.tx_hash,
                "beacon": u.beacon,
            }
            for u in facts.upgrades
        ],
        "code": _code(facts.own, chain_id),
        "implementation": _code(facts.implementation, chain_id) if facts.implementation else None,
    }
    if proxy is not None:
        since = facts.since
        data["proxy"] = {
            "kind": KIND_WORDS[proxy.kind],
            "implementation": _address(proxy.implementation, chain_id),
            "beacon": _address(proxy.beacon, chain_id),
            "admin": _address(proxy.admin, chain_id),
            "since_block": since.block if since else None,
            "facets": [
                {
                    "address": _address(f.address, chain_id),
                    "selectors": ["0x" + s.hex() for s in f.selectors],
                }
                for f in proxy.facets
            ],
            "text": proxy_sentence(proxy, chain_id, since),
        }
    return data
