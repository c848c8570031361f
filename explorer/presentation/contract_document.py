"""What the contract tab and `explorer contract` say: proxy, code, source and functions.

The same facts as sections of a Document (the window, the text form) and as data (`--format
json`, docs/report-json.md): addresses checksummed, numbers as numbers, display text only in
members named `text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from explorer.chain.checksum import to_checksum_address
from explorer.chain.recovered import RecoveredFunction
from explorer.presentation import format as fmt
from explorer.presentation.contract_facts import CodeFacts, ContractFacts
from explorer.presentation.document import Document, Field, Section, Tone
from explorer.services.proxies import ProxyInfo, Upgrade

RECOVERED = "recovered from bytecode"
NO_SOURCE = "not matched — choose the project's artifacts folder to match it"


def proxy_sentence(proxy: ProxyInfo, chain_id: int, since: Upgrade | None = None) -> str:
    """Return `Proxy (EIP-1967) → implementation 0x… since block B`."""
    if proxy.implementation is None:
        text = f"Proxy ({proxy.kind.value})"
        return f"{text}: {proxy.note}" if proxy.note else text
    target = to_checksum_address(proxy.implementation, chain_id)
    text = f"Proxy ({proxy.kind.value}) → implementation {target}"
    if since is not None:
        text += f" since block {since.block:,}"
    return text


def _proxy_section(facts: ContractFacts, chain_id: int) -> Section:
    """Return the proxy: its kind, targets and upgrade history."""
    proxy = facts.proxy
    assert proxy is not None
    fields = [fmt.text_field("Kind", proxy.kind.value)]
    fields.append(
        fmt.address_field(
            "Implementation", proxy.implementation, chain_id, empty=proxy.note or "unknown"
        )
    )
    if proxy.beacon:
        fields.append(fmt.address_field("Beacon", proxy.beacon, chain_id))
    if proxy.admin:
        fields.append(fmt.address_field("Admin", proxy.admin, chain_id))
    if proxy.variant:
        fields.append(fmt.text_field("Code form", proxy.variant))
    for facet in proxy.facets:
        fields.append(
            fmt.address_field(f"Facet ({len(facet.selectors)} selectors)", facet.address, chain_id)
        )
    for upgrade in facts.upgrades:
        what = "beacon" if upgrade.beacon else "implementation"
        label = f"Block {upgrade.block:,}: new {what}"
        fields.append(fmt.address_field(label, upgrade.target, chain_id))
    if facts.upgrades_note:
        fields.append(fmt.text_field("Upgrades", facts.upgrades_note, Tone.MUTED))
    return Section("Proxy", tuple(fields))


def _code_fields(code: CodeFacts) -> list[Field]:
    """Return the size, compiler and source hash of one piece of code."""
    fields = [fmt.quantity_field("Code size (bytes)", len(code.code))]
    metadata = code.metadata
    if metadata is None:
        fields.append(fmt.text_field("Metadata", "none at the end of the code", Tone.MUTED))
        return fields
    if metadata.compiler:
        fields.append(fmt.text_field("Compiler", metadata.compiler))
    if metadata.source_hash_text:
        fields.append(fmt.text_field("Metadata hash", metadata.source_hash_text))
    return fields


def _source_field(code: CodeFacts) -> Field:
    """Return the source match, or how to get one."""
    if code.source is None:
        return fmt.text_field("Source", NO_SOURCE, Tone.MUTED)
    tone = Tone.GOOD if code.source.match.name == "EXACT" else Tone.WAITING
    return fmt.text_field("Source", code.source.text, tone, tooltip=code.source.reason)


def _natspec_fields(code: CodeFacts) -> list[Field]:
    """Return the matched source's title, notice and events."""
    source = code.source
    if source is None:
        return []
    artifact, fields = source.artifact, []
    for label, doc, key in (
        ("Title", artifact.devdoc, "title"),
        ("Notice", artifact.userdoc, "notice"),
    ):
        if isinstance(text := doc.get(key), str):
            fields.append(fmt.text_field(label, text))
    for entry in artifact.abi:
        if entry.get("type") == "event":
            fields.append(fmt.text_field("Event", _event_text(entry)))
    return fields


def _event_text(entry: Mapping[str, Any]) -> str:
    """Return an ABI event as `Name(type indexed name, …)`."""
    params = []
    for param in entry.get("inputs") or []:
        words = [
            str(param.get("type", "")),
            "indexed" if param.get("indexed") else "",
            str(param.get("name", "")),
        ]
        params.append(" ".join(w for w in words if w))
    return f"{entry.get('name', '')}({', '.join(params)})"


def function_line(function: RecoveredFunction, code: CodeFacts) -> str:
    """Return one function as the list shows it: signature, mutability, notice."""
    text = f"{function.text} · {function.mutability}"
    named = function.name
    if named is not None and code.source is None and not function.types_agree(named):
        text += f" · the code reads ({', '.join(function.arguments)})"
    notice = _notice(function, code)
    return f"{text} — {notice}" if notice else text


def _notice(function: RecoveredFunction, code: CodeFacts) -> str:
    """Return the matched source's NatSpec notice of a function, if any."""
    if code.source is None or function.name is None:
        return ""
    methods = code.source.artifact.userdoc.get("methods")
    entry = methods.get(function.name.canonical) if isinstance(methods, dict) else None
    notice = entry.get("notice") if isinstance(entry, dict) else None
    return notice if isinstance(notice, str) else ""


def functions_section(title: str, code: CodeFacts) -> Section:
    """Return the functions of one piece of code, named where a list or the source knows."""
    if code.note:
        return Section(title, (), note=f"Not recovered: {code.note}")
    origin = (
        "named by the matched source" if code.source else f"{RECOVERED}; names from signature lists"
    )
    fields = tuple(
        fmt.text_field(
            function.selector_hex,
            function_line(function, code),
            Tone.NORMAL if function.name else Tone.MUTED,
        )
        for function in code.functions
    )
    note = f"{len(code.functions)} function(s), {origin}."
    return Section(title, fields, note=note)


def contract_sections(facts: ContractFacts, chain_id: int) -> tuple[Section, ...]:
    """Return the contract tab's sections."""
    sections = []
    if facts.proxy is not None:
        sections.append(_proxy_section(facts, chain_id))
    own = facts.own
    code = [*_code_fields(own), _source_field(own), *_natspec_fields(own)]
    sections.append(Section("Code", tuple(code)))
    behind = facts.implementation
    if behind is not None:
        fields = [
            fmt.address_field("Address", behind.address, chain_id),
            *_code_fields(behind),
            _source_field(behind),
            *_natspec_fields(behind),
        ]
        sections.append(Section("Implementation", tuple(fields)))
        sections.append(functions_section("Implementation's functions", behind))
        if own.functions or own.note:
            sections.append(functions_section("The proxy's own functions", own))
    else:
        sections.append(functions_section("Functions", own))
    if facts.problems:
        lines = tuple(fmt.text_field("Skipped", p, Tone.MUTED) for p in facts.problems[:20])
        sections.append(Section("Artifact files not read", lines))
    return tuple(sections)


def headline_text(facts: ContractFacts, chain_id: int) -> str:
    """Return the contract's one line: its proxy, else its source or its recovered functions."""
    if facts.proxy is not None:
        return proxy_sentence(facts.proxy, chain_id, facts.since)
    own = facts.own
    if own.source is not None:
        return f"Contract {own.source.artifact.title} ({own.source.match.value})"
    return f"Contract with {len(own.functions)} function(s) recovered from bytecode"


def contract_document(facts: ContractFacts, chain_id: int) -> Document:
    """Return the contract as a document (the text form of `explorer contract`)."""
    address = to_checksum_address(facts.address, chain_id)
    headline = fmt.text_field("Kind", headline_text(facts, chain_id))
    return Document(
        f"Contract {address}", headline, contract_sections(facts, chain_id), {}, chain_id
    )
