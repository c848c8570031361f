"""The node page as a document: what the node says about itself, for the window and the CLI."""

from __future__ import annotations

import contextlib
from typing import Any

from explorer.chain.checksum import to_checksum_address
from explorer.presentation import format as fmt
from explorer.presentation.document import Document, Field, Section, Tone
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
    )


def _headline(facts: NodeFacts) -> Field:
    """Return whether the node serves the chosen network, in one line."""
    network = facts.network
    if facts.serves_network:
        return fmt.text_field(
            "Status", f"Serves {network.name} (chain {network.chain_id})", Tone.GOOD
        )
    if facts.serves_network is None:
        return fmt.text_field("Status", "Did not say which chain it serves", Tone.BAD)
    if facts.ids_agree is False:
        return fmt.text_field("Status", "eth_chainId and net_version disagree", Tone.BAD)
    return fmt.text_field(
        "Status",
        f"Serves {chain_name(facts.chain_id.value)}, not {network.name} (chain {network.chain_id})",
        Tone.BAD,
    )


def _failed(label: str, answer: Answer[Any]) -> Field | None:
    """Return a field saying a method failed, or None when it answered."""
    if answer.error is None:
        return None
    kind = answer.error.kind.value.replace("_", " ")
    return fmt.text_field(label, f"{answer.method} failed ({kind}): {answer.error}", Tone.BAD)


def _identity(facts: NodeFacts) -> Section:
    """Return chain id, net_version and whether they agree with each other and the network."""
    chain_id, net_version = facts.chain_id, facts.net_version
    fields = [
        _failed("Chain id (eth_chainId)", chain_id)
        or fmt.text_field(
            "Chain id (eth_chainId)",
            f"{chain_id.value} ({hex(chain_id.value or 0)})",
            value=chain_id.value,
        ),
        _failed("Network id (net_version)", net_version)
        or fmt.text_field("Network id (net_version)", str(net_version.value)),
    ]
    agree = facts.ids_agree
    if agree is not None:
        fields.append(
            fmt.text_field("The two agree", "yes", Tone.GOOD)
            if agree
            else fmt.text_field("The two agree", "NO: a misconfigured node or proxy", Tone.BAD)
        )
    network = facts.network
    if facts.chain_id.value is not None:
        matches = facts.chain_id.value == network.chain_id
        fields.append(
            fmt.text_field(
                "Chosen network",
                f"{network.name} expects chain {network.chain_id}: "
                + ("matches" if matches else f"the node serves {chain_name(chain_id.value)}"),
                Tone.GOOD if matches else Tone.BAD,
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
    text = str(protocol.value)
    with contextlib.suppress(ValueError):
        text += f" ({int(text, 16)})"
    fields.append(_failed("Protocol version", protocol) or fmt.text_field("Protocol version", text))
    return Section("Software", tuple(fields))


def _chain(facts: NodeFacts) -> Section:
    """Return the head, the gas price and the accounts the node holds keys for."""
    currency = facts.network.currency
    head, price = facts.head, facts.gas_price
    fields = [
        _failed("Head block", head) or fmt.block_field("Head block", head.value),
        _failed("Gas price (eth_gasPrice)", price)
        or fmt.price_field("Gas price (eth_gasPrice)", price.value or 0, currency),
        _failed("Accounts (eth_accounts)", facts.accounts) or _accounts_field(facts),
    ]
    return Section("Chain", tuple(fields))


def _accounts_field(facts: NodeFacts) -> Field:
    """Return the accounts: none is right for this service; any is flagged."""
    accounts = facts.accounts.value or []
    if not accounts:
        return fmt.text_field(
            "Accounts (eth_accounts)", "none, as the service promises: it holds no keys", Tone.GOOD
        )
    chain_id = facts.chain_id.value
    shown = ", ".join(to_checksum_address(a, chain_id) for a in accounts[:5])
    more = f" and {len(accounts) - 5} more" if len(accounts) > 5 else ""
    return fmt.text_field(
        "Accounts (eth_accounts)",
        f"{len(accounts)}: {shown}{more}. A public node should hold no keys: "
        "do not trust it with signing.",
        Tone.BAD,
    )


def _connection(facts: NodeFacts) -> Section:
    """Return the URL (redacted), its form, the latency and the requests spent today."""
    latencies = facts.latencies
    if latencies:
        latency = (
            f"{latencies[0] * 1000:.0f} ms (fastest of {len(latencies)} requests; "
            f"slowest {latencies[-1] * 1000:.0f} ms)"
        )
    else:
        latency = "— (no answer)"
    return Section(
        "Connection",
        (
            fmt.text_field("Endpoint", facts.endpoint),
            fmt.text_field("URL form", URL_FORMS[facts.url_form]),
            fmt.text_field("Latency", latency),
            requests_field(facts.requests_today, facts.daily_quota),
        ),
    )


def quota_text(spent: int, quota: int) -> str:
    """Return `1,234 of 25,000 (4.9 %)`, or the count alone without a quota."""
    if quota <= 0:
        return f"{spent:,} (no daily quota set)"
    return f"{spent:,} of {quota:,} ({spent / quota:.1%})"


def requests_field(spent: int, quota: int) -> Field:
    """Return the requests spent today of the quota, warning near its end."""
    tone = Tone.NORMAL
    if quota > 0 and spent >= quota:
        tone = Tone.BAD
    elif quota > 0 and spent >= quota * 0.8:
        tone = Tone.WAITING
    return fmt.text_field("Requests today (UTC)", quota_text(spent, quota), tone)
