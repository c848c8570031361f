"""The broadcast screen's words: the decoded transaction, the checks before sending, the answer.

Shared by the Broadcast screen and `explorer send`, so both say the same things.
"""

from __future__ import annotations

from explorer.chain.checksum import to_checksum_address
from explorer.chain.pooled import PRICE_BUMP_PERCENT
from explorer.chain.units import format_gwei, format_rbtc, readable_rbtc
from explorer.presentation import format as fmt
from explorer.presentation.arguments import argument_fields
from explorer.presentation.diagnosis_document import nonces_text
from explorer.presentation.document import Field, Kind, Section, Tone
from explorer.presentation.simulation import describe_simulation
from explorer.rpc.errors import NodeError
from explorer.services.broadcast import Answer, BroadcastCheck, Issue, SendResult
from explorer.services.estimate import SPEC_RULE
from explorer.services.networks import Network
from explorer.services.rawtx import SignedTx
from explorer.services.token_units import Units


def decoded_section(tx: SignedTx, network: Network, units: Units | None = None) -> Section:
    """Return what the pasted bytes say, decoded here: nothing has been sent.

    A token amount among the arguments reads in the token's units once they are known.
    """
    chain = "none: signed before EIP-155 (valid on any chain)"
    if tx.chain_id is not None:
        chain = f"{tx.chain_id} (EIP-155, from v = {tx.v})"
    fields: list[Field] = [
        fmt.hash_field("Hash it will have", tx.hash, Kind.HASH),
        fmt.text_field("Type", "legacy (0)"),
        fmt.address_field("From (recovered)", tx.sender, network.chain_id),
    ]
    if tx.to is None:
        fields.append(fmt.text_field("To", "none: a contract creation"))
    else:
        fields.append(fmt.address_field("To", tx.to, network.chain_id))
    fields += [
        fmt.amount_field("Value", tx.value, network.currency),
        fmt.price_field("Gas price", tx.gas_price, network.currency),
        fmt.quantity_field("Gas limit", tx.gas),
        fmt.amount_field("Most it can cost", tx.max_cost, network.currency),
        fmt.quantity_field("Nonce", tx.nonce),
        fmt.text_field("Chain id", chain),
    ]
    method = tx.method
    if method is not None:
        fields.append(fmt.text_field("Method", method.signature))
        fields += argument_fields(method, tx.to, units or {}, network.chain_id)
    elif tx.to is not None and tx.data:
        selector = "0x" + tx.data[:4].hex()
        fields.append(fmt.text_field("Method", f"unknown selector {selector}", Tone.MUTED))
    fields.append(fmt.hex_field("Data", tx.data))
    fields.append(fmt.text_field("Size", f"{len(tx.raw):,} bytes"))
    return Section("Decoded here (nothing sent yet)", tuple(fields))


def issue_sentence(issue: Issue, check: BroadcastCheck, currency: str) -> str:
    """Return one finding of the checks in one sentence, with its numbers."""
    tx, state = check.tx, check.state
    if issue in (Issue.NONCE_USED, Issue.NONCE_REPLACES, Issue.NONCE_GAP):
        return _nonce_sentence(issue, check)
    if issue in (Issue.INSUFFICIENT_FUNDS, Issue.FUNDS_SHORT):
        has = f"the sender has {readable_rbtc(state.balance, currency)} but it may cost "
        has += f"{readable_rbtc(tx.max_cost, currency)} (value + gas × gas price)"
        if issue is Issue.FUNDS_SHORT:
            return has + ": the node queues it, and it cannot be mined until the sender can pay"
        return has + ": the node will refuse it (insufficient funds)"
    if issue is Issue.PRICE_BELOW_MINIMUM:
        return (
            f"gas price {format_gwei(tx.gas_price)} is below the latest block's minimum "
            f"{format_gwei(state.minimum_gas_price or 0)}: the node will refuse it"
        )
    if issue is Issue.PRICE_BELOW_NODE:
        return (
            f"gas price {format_gwei(tx.gas_price)} is below the node's "
            f"{format_gwei(state.gas_price)}: it may wait longer"
        )
    if issue is Issue.GAS_ABOVE_BLOCK_LIMIT:
        return (
            f"gas limit {tx.gas:,} is above the block's {state.block_gas_limit:,}: "
            "the node will refuse it"
        )
    if issue is Issue.TOO_LARGE:
        return f"{len(tx.raw):,} bytes is more than the node accepts (131,072)"
    if issue is Issue.NO_CHAIN_ID:
        return "it carries no chain id: anyone can replay it on another chain"
    if issue is Issue.NOT_SIMULATED:
        return "a contract creation is not dry-run: a dry run needs a recipient address"
    return _execution_sentence(issue, check)


def _nonce_sentence(issue: Issue, check: BroadcastCheck) -> str:
    """Return what the nonce means: used, replacing a pending one, or leaving a gap."""
    tx, state = check.tx, check.state
    if issue is Issue.NONCE_USED:
        return (
            f"nonce {tx.nonce} is already used (the sender's next is {state.mined_nonce}): "
            "the node will refuse it (nonce too low)"
        )
    if issue is Issue.NONCE_REPLACES:
        return (
            f"nonce {tx.nonce} is taken by a pending transaction: this replaces it only if it "
            f"pays {PRICE_BUMP_PERCENT}% more gas price"
        )
    missing = nonces_text(range(state.pending_nonce, tx.nonce))
    return (
        f"nonce {tx.nonce} leaves a gap: it will queue until {missing} from this sender "
        "arrive, and the node will not show it by hash meanwhile"
    )


def _execution_sentence(issue: Issue, check: BroadcastCheck) -> str:
    """Return what the dry run and the estimate said."""
    execution = check.execution
    if execution is None:
        return "not dry-run"
    if issue is Issue.REVERTS:
        reason = execution.revert_reason
        said = f" with “{reason}”" if reason else ""
        return f"the call reverts{said}: it would be mined as FAILED and still cost its fee"
    if issue is Issue.CALL_FAILED:
        error = execution.call_error
        return "the dry run failed: " + (error.message if error else "no answer")
    if issue is Issue.GAS_BELOW_ESTIMATE:
        return (
            f"gas limit {check.tx.gas:,} is below the estimate {execution.estimate.gas or 0:,}: "
            "it may run out of gas"
        )
    return "the node estimated gas although the call fails: " + SPEC_RULE


ISSUE_LABELS = {
    Issue.NONCE_USED: "Nonce check",
    Issue.NONCE_REPLACES: "Nonce check",
    Issue.NONCE_GAP: "Nonce check",
    Issue.INSUFFICIENT_FUNDS: "Funds check",
    Issue.FUNDS_SHORT: "Funds check",
    Issue.PRICE_BELOW_MINIMUM: "Gas price check",
    Issue.PRICE_BELOW_NODE: "Gas price check",
    Issue.GAS_ABOVE_BLOCK_LIMIT: "Block gas check",
    Issue.GAS_BELOW_ESTIMATE: "Gas limit check",
    Issue.TOO_LARGE: "Size check",
    Issue.REVERTS: "Dry run check",
    Issue.CALL_FAILED: "Dry run check",
    Issue.NOT_SIMULATED: "Dry run check",
    Issue.ESTIMATE_DESPITE_FAILURE: "Estimate check",
    Issue.NO_CHAIN_ID: "Chain id check",
}


def check_section(check: BroadcastCheck | None, network: Network) -> Section:
    """Return the checks before sending (reading… while they run)."""
    title = "Checked with reads only"
    if check is None:
        reading = "reading the sender's nonces and balance, the prices, and dry-running the call…"
        return Section(title, (fmt.text_field("Checks", reading, Tone.MUTED),))
    tx, state, currency = check.tx, check.state, network.currency
    fields = [
        fmt.text_field(
            "Sender's nonces",
            f"next to mine {state.mined_nonce:,} · next after its pending ones "
            f"{state.pending_nonce:,} · this one {tx.nonce:,}",
        ),
        fmt.amount_field("Sender's balance", state.balance, currency),
        fmt.text_field(
            "Gas prices",
            f"block minimum {format_gwei(state.minimum_gas_price or 0)} · the node's "
            f"{format_gwei(state.gas_price)}",
        ),
    ]
    if check.execution is not None:
        for number, line in enumerate(describe_simulation(check.execution).splitlines()):
            fields.append(fmt.text_field("Dry run" if number == 0 else "Estimate", line))
    if not check.issues:
        fields.append(fmt.text_field("Verdict", "nothing stands in its way", Tone.GOOD))
    for issue in check.issues:
        tone = Tone.BAD if issue.refused or issue is Issue.REVERTS else Tone.WAITING
        label = ISSUE_LABELS[issue]
        fields.append(fmt.text_field(label, issue_sentence(issue, check, currency), tone))
    return Section(title, tuple(fields))


def answer_section(result: SendResult) -> Section:
    """Return how the node answered the one send."""
    decoded = result.tx.hash
    answer, error = result.answer, result.error
    if answer is Answer.ACCEPTED:
        text, tone = f"accepted: {decoded} (the hash decoded here)", Tone.GOOD
    elif answer is Answer.ACCEPTED_LATER:
        text = "accepted but not yet available (the node answered the zero hash): followed by "
        text, tone = text + f"the hash decoded here, {decoded}", Tone.WAITING
    elif answer is Answer.OTHER_HASH:
        text = f"the node answered {result.node_hash}, not {decoded}: followed by both"
        tone = Tone.BAD
    elif answer is Answer.REFUSED and isinstance(error, NodeError):
        text, tone = f"refused: {refusal_text(result)}", Tone.BAD
    elif answer is Answer.UNKNOWN:
        text = (
            "no answer: the connection failed after the transaction was sent, so it may have "
            "arrived. It is not sent again; it is followed by its hash "
            f"{decoded}. ({error.message if error else ''})"
        )
        tone = Tone.WAITING
    else:
        text, tone = f"not sent: {refusal_text(result)}", Tone.BAD
    return Section("The node's answer", (fmt.text_field("Answer", text, tone),))


def refusal_text(result: SendResult) -> str:
    """Return why the node did not take the transaction, in its own words first."""
    error = result.error
    if not isinstance(error, NodeError):
        return error.message if error else "the node was not reached"
    text = f"{error.node_message} (node error {error.code})"
    return text + (f" — {error.failure.human}" if error.failure is not None else "")


def confirmation_text(tx: SignedTx, network: Network) -> str:
    """Return the question asked before the one send: network, chain id, what it moves (exact)."""
    chain = network.chain_id
    to = "a new contract" if tx.to is None else to_checksum_address(tx.to, chain)
    sender = to_checksum_address(tx.sender, chain)
    return (
        f"Send to {network.name} (chain id {chain})? "
        f"{format_rbtc(tx.value, network.currency)} from {sender} to {to}, nonce {tx.nonce}, "
        f"at most {format_rbtc(tx.max_cost, network.currency)} in all. It is sent once and "
        "cannot be called back."
    )
