"""The node page as a document: what the node says about itself, for the window and the CLI."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from explorer.chain.checksum import to_checksum_address
from explorer.presentation import format as fmt
from explorer.presentation.document import Document, Field, Kind, Section, Tone
from explorer.presentation.document import facts as facts_of
from explorer.rpc.endpoint import UrlForm
from explorer.services.networks import chain_name
from explorer.services.nodeinfo import Answer, NodeFacts

URL_FORMS = {
    UrlForm.KEY: "{base}/<KEY>: the key is the last path segment",
    UrlForm.V2_KEY: "{base}/v2/<KEY>: the key follows a v2 segment",
    UrlForm.NO_KEY: "{base}: no key (a public node, limited by address)",
}


def node_document(facts: NodeFacts) -> Document:
    """Build the node page from the node's answers."""
    return Document(
        title=f"Node of {facts.network.name}",
        headline=_headline(facts),
        sections=(_identity(facts), _software(facts), _chain(facts), _connection(facts)),
        raw=facts.raw(),
        chain_id=facts.chain_id.value,
        page="node",
    )


def _headline(facts: NodeFacts) -> Field:
    """Return whether the node serves the chosen network, in one line.

    In JSON: serves, no_chain_id, ids_disagree or another_chain, with the chain it serves.
    """
    network, served = facts.network, facts.chain_id.value
    if facts.serves_network:
        text = f"Serves {network.name} (chain {network.chain_id})"
        return fmt.status_field("Status", "serves", text, Tone.GOOD, serves_chain_id=served)
    if facts.serves_network is None:
        text = "Did not say which chain it serves"
        return fmt.status_field("Status", "no_chain_id", text, Tone.BAD, serves_chain_id=served)
    if facts.ids_agree is False:
        text = "eth_chainId and net_version disagree"
        return fmt.status_field("Status", "ids_disagree", text, Tone.BAD, serves_chain_id=served)
    text = f"Serves {chain_name(served)}, not {network.name} (chain {network.chain_id})"
    return fmt.status_field("Status", "another_chain", text, Tone.BAD, serves_chain_id=served)


def _failed(
    label: str, answer: Answer[Any], kind: Kind = Kind.TEXT, unit: str = ""
) -> Field | None:
    """Return a field saying a method failed (no value; the error's kind), or None."""
    if answer.error is None:
        return None
    error = answer.error.kind
    text = f"{answer.method} failed ({error.value}): {answer.error}"
    failure = facts_of(error=error.name.lower())
    return Field(label, text, kind, None, tone=Tone.BAD, unit=unit, facts=failure)


def _identity(facts: NodeFacts) -> Section:
    """Return chain id, net_version and whether they agree with each other and the network."""
    chain_id, net_version = facts.chain_id, facts.net_version
    version_text = str(net_version.value)
    fields = [
        _failed("Chain id (eth_chainId)", chain_id, Kind.QUANTITY)
        or fmt.quantity_field(
            "Chain id (eth_chainId)",
            chain_id.value,
            f"{chain_id.value} ({hex(chain_id.value or 0)})",
        ),
        _failed("Network id (net_version)", net_version, Kind.QUANTITY)
        or fmt.quantity_field(
            "Network id (net_version)",
            int(version_text) if version_text.isdigit() else None,
            version_text,
        ),
    ]
    agree = facts.ids_agree
    if agree is not None:
        fields.append(
            fmt.boolean_field("The two agree", True, "yes", Tone.GOOD)
            if agree
            else fmt.boolean_field(
                "The two agree", False, "NO: a misconfigured node or proxy", Tone.BAD
            )
        )
    network = facts.network
    if facts.chain_id.value is not None:
        matches = facts.chain_id.value == network.chain_id
        fields.append(
            Field(
                "Chosen network",
                f"{network.name} expects chain {network.chain_id}: "
                + ("matches" if matches else f"the node serves {chain_name(chain_id.value)}"),
                Kind.BOOLEAN,
                matches,
                tone=Tone.GOOD if matches else Tone.BAD,
                facts=facts_of(expects_chain_id=network.chain_id),
            )
        )
    return Section("Identity", tuple(fields))


def _software(facts: NodeFacts) -> Section:
    """Return the client version in its parts and the protocol version."""
    fields: list[Field] = []
    client = facts.client
    if client is None:
        fields.append(
            _failed("Client version", facts.client_version) or fmt.text_field("Client version", "—")
        )
    else:
        fields.append(fmt.text_field("Client version", client.raw))
        for label, part in (
            ("Client", client.client),
            ("Version", client.version),
            ("Platform", client.platform),
            ("Runtime", client.runtime),
            ("Build", client.build),
        ):
            fields.append(fmt.text_field(label, part or "—", Tone.NORMAL if part else Tone.MUTED))
    protocol = facts.protocol_version
    text, number = str(protocol.value), None
    with contextlib.suppress(ValueError):
        number = int(text, 16)
        text += f" ({number})"
    fields.append(
        _failed("Protocol version", protocol, Kind.QUANTITY)
        or fmt.quantity_field("Protocol version", number, text)
    )
    return Section("Software", tuple(fields))


def _chain(facts: NodeFacts) -> Section:
    """Return the head, the gas price and the accounts the node holds keys for."""
    currency = facts.network.currency
    head, price = facts.head, facts.gas_price
    fields = [
        _failed("Head block", head, Kind.BLOCK) or fmt.block_field("Head block", head.value),
        _failed("Gas price (eth_gasPrice)", price, Kind.AMOUNT)
        or fmt.price_field("Gas price (eth_gasPrice)", price.value or 0, currency),
        _failed("Accounts (eth_accounts)", facts.accounts, Kind.QUANTITY) or _accounts_field(facts),
    ]
    return Section("Chain", tuple(fields))


def _accounts_field(facts: NodeFacts) -> Field:
    """Return the accounts: none is right for this service; any is flagged.

    In JSON: how many, and every one of them in the chain's checksum.
    """
    accounts = facts.accounts.value or []
    label = "Accounts (eth_accounts)"
    if not accounts:
        text = "none, as the service promises: it holds no keys"
        return fmt.quantity_field(label, 0, text, Tone.GOOD, addresses=[])
    chain_id = facts.chain_id.value
    checksummed = [to_checksum_address(a, chain_id) for a in accounts]
    shown = ", ".join(checksummed[:5])
    more = f" and {len(accounts) - 5} more" if len(accounts) > 5 else ""
    text = (
        f"{len(accounts)}: {shown}{more}. A public node should hold no keys: "
        "do not trust it with signing."
    )
    return fmt.quantity_field(label, len(accounts), text, Tone.BAD, addresses=checksummed)


def _connection(facts: NodeFacts) -> Section:
    """Return the URL (redacted), its form, the latency and the requests spent today."""
    form = facts.url_form
    return Section(
        "Connection",
        (
            fmt.text_field("Endpoint", facts.endpoint),
            fmt.status_field("URL form", form.name.lower(), URL_FORMS[form]),
            latency_field(facts.latencies),
            requests_field(facts.requests_today, facts.daily_quota),
        ),
    )


def latency_field(latencies: Sequence[float]) -> Field:
    """Return the fastest of the requests' round trips (ms; the slowest and count beside)."""
    if not latencies:
        return fmt.quantity_field("Latency", None, "— (no answer)", unit="ms", requests=0)
    fastest, slowest = round(latencies[0] * 1000), round(latencies[-1] * 1000)
    text = (
        f"{latencies[0] * 1000:.0f} ms (fastest of {len(latencies)} requests; "
        f"slowest {latencies[-1] * 1000:.0f} ms)"
    )
    return fmt.quantity_field(
        "Latency", fastest, text, unit="ms", slowest_ms=slowest, requests=len(latencies)
    )


def quota_text(spent: int, quota: int) -> str:
    """Return `1,234 of 25,000 (4.9 %)`, or the count alone without a quota."""
    if quota <= 0:
        return f"{spent:,} (no daily quota set)"
    return f"{spent:,} of {quota:,} ({spent / quota:.1%})"


def requests_field(spent: int, quota: int) -> Field:
    """Return the requests spent today of the quota, warning near its end (quota null: none)."""
    tone = Tone.NORMAL
    if quota > 0 and spent >= quota:
        tone = Tone.BAD
    elif quota > 0 and spent >= quota * 0.8:
        tone = Tone.WAITING
    daily = quota if quota > 0 else None
    text = quota_text(spent, quota)
    return fmt.quantity_field("Requests today (UTC)", spent, text, tone, daily_quota=daily)
